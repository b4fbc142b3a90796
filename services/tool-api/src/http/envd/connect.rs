//! The Connect protocol with the JSON codec, as E2B's SDKs speak it to envd.
//!
//! A unary call is a plain `application/json` request and response; an error is Connect's
//! error JSON `{"code","message"}` with the code's HTTP status. A streaming call has
//! `application/connect+json` bodies made of envelopes: one flags byte and a big-endian
//! `u32` length before each JSON message. The last envelope of a response has flag
//! [`END_STREAM`] and holds `{}` or `{"error":{…}}`; streaming errors always come with
//! status 200, in that last envelope.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::{Buf, BufMut, BytesMut};
use futures::{Stream, StreamExt};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::envd::error::{EnvdError, EnvdResult};

/// The flag of the envelope that ends a stream.
pub const END_STREAM: u8 = 0x02;
/// The flag of a compressed envelope, which E2B's SDKs never send (compression is off).
const COMPRESSED: u8 = 0x01;
/// The content type of streaming requests and responses.
pub const STREAM_CONTENT_TYPE: &str = "application/connect+json";
/// The largest request message accepted.
const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// One envelope: `flags`, the length of `payload`, `payload`.
pub fn envelope(flags: u8, payload: &[u8]) -> Bytes {
    let mut out = BytesMut::with_capacity(5 + payload.len());
    out.put_u8(flags);
    out.put_u32(u32::try_from(payload.len()).unwrap_or(u32::MAX));
    out.put_slice(payload);
    out.freeze()
}

/// Reassembles envelopes from a body that arrives in arbitrary chunks.
#[derive(Default)]
pub struct EnvelopeDecoder {
    buffer: BytesMut,
}

impl EnvelopeDecoder {
    pub fn push(&mut self, chunk: &[u8]) {
        self.buffer.extend_from_slice(chunk);
    }

    /// The next whole envelope as (flags, payload), if one has arrived.
    pub fn next_envelope(&mut self) -> EnvdResult<Option<(u8, Bytes)>> {
        if self.buffer.len() < 5 {
            return Ok(None);
        }
        let flags = self.buffer[0];
        let len =
            u32::from_be_bytes([self.buffer[1], self.buffer[2], self.buffer[3], self.buffer[4]]) as usize;
        if flags & COMPRESSED != 0 {
            return Err(EnvdError::invalid("compressed messages are not supported"));
        }
        if len > MAX_MESSAGE_BYTES {
            return Err(EnvdError::invalid(format!(
                "a message of {len} bytes is larger than the limit of {MAX_MESSAGE_BYTES}"
            )));
        }
        if self.buffer.len() < 5 + len {
            return Ok(None);
        }
        self.buffer.advance(5);
        Ok(Some((flags, self.buffer.split_to(len).freeze())))
    }

    /// Whether bytes of an unfinished envelope are left over.
    pub fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }
}

/// Parses one JSON message.
pub fn parse<T: DeserializeOwned>(payload: &[u8]) -> EnvdResult<T> {
    serde_json::from_slice(payload)
        .map_err(|err| EnvdError::invalid(format!("invalid request message: {err}")))
}

/// Connect's error JSON.
fn error_json(err: &EnvdError) -> serde_json::Value {
    serde_json::json!({ "code": err.code(), "message": err.public_message() })
}

/// A unary call's answer: the message, or the error with its status.
pub struct Unary<T>(pub EnvdResult<T>);

impl<T: Serialize> IntoResponse for Unary<T> {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(message) => axum::Json(message).into_response(),
            Err(err) => {
                let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                (status, axum::Json(error_json(&err))).into_response()
            }
        }
    }
}

/// The request message of a unary call.
pub struct UnaryRequest<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for UnaryRequest<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|err| Unary::<()>(Err(EnvdError::invalid(err.body_text()))).into_response())?;
        // Protobuf JSON lets an empty message be sent as no body at all.
        let body: &[u8] = if body.is_empty() { b"{}" } else { &body };
        parse(body)
            .map(Self)
            .map_err(|err| Unary::<()>(Err(err)).into_response())
    }
}

/// The one request message of a server-streaming call, in its envelope.
pub struct StreamRequest<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for StreamRequest<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|err| failed_stream(EnvdError::invalid(err.body_text())))?;
        let mut decoder = EnvelopeDecoder::default();
        decoder.push(&body);
        match decoder.next_envelope() {
            Ok(Some((_, payload))) => parse(&payload).map(Self).map_err(failed_stream),
            Ok(None) => Err(failed_stream(EnvdError::invalid(
                "the request has no whole message envelope",
            ))),
            Err(err) => Err(failed_stream(err)),
        }
    }
}

/// A stream response that ends at once with `err`.
pub fn failed_stream(err: EnvdError) -> Response {
    streaming(futures::stream::iter([Err::<(), _>(err)]))
}

/// A server-streaming response: each message in its envelope, then the end of the stream,
/// with the error that ended it if one did.
pub fn streaming<T, S>(messages: S) -> Response
where
    T: Serialize + Send + 'static,
    S: Stream<Item = EnvdResult<T>> + Send + 'static,
{
    let body = async_stream::stream! {
        let mut messages = std::pin::pin!(messages);
        while let Some(message) = messages.next().await {
            match message.and_then(|m| serde_json::to_vec(&m).map_err(|e| EnvdError::Internal(e.into()))) {
                Ok(json) => yield Ok::<_, std::convert::Infallible>(envelope(0, &json)),
                Err(err) => {
                    let end = serde_json::json!({ "error": error_json(&err) });
                    yield Ok(envelope(END_STREAM, end.to_string().as_bytes()));
                    return;
                }
            }
        }
        yield Ok(envelope(END_STREAM, b"{}"));
    };
    let mut response = Response::new(Body::from_stream(body));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(STREAM_CONTENT_TYPE),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_survive_arbitrary_chunking() {
        let mut wire = Vec::new();
        wire.extend_from_slice(&envelope(0, br#"{"a":1}"#));
        wire.extend_from_slice(&envelope(END_STREAM, b"{}"));
        assert_eq!(&wire[..5], &[0, 0, 0, 0, 7]);
        let mut decoder = EnvelopeDecoder::default();
        let mut seen = Vec::new();
        for byte in &wire {
            decoder.push(std::slice::from_ref(byte));
            while let Some(found) = decoder.next_envelope().unwrap() {
                seen.push(found);
            }
        }
        assert_eq!(
            seen,
            vec![
                (0, Bytes::from_static(br#"{"a":1}"#)),
                (END_STREAM, Bytes::from_static(b"{}"))
            ]
        );
        assert!(decoder.is_empty());
    }

    #[test]
    fn compressed_and_oversized_envelopes_are_refused() {
        let mut decoder = EnvelopeDecoder::default();
        decoder.push(&envelope(COMPRESSED, b"x"));
        assert!(matches!(
            decoder.next_envelope(),
            Err(EnvdError::InvalidArgument(_))
        ));
        let mut decoder = EnvelopeDecoder::default();
        decoder.push(&[0, 0xff, 0xff, 0xff, 0xff]);
        assert!(matches!(
            decoder.next_envelope(),
            Err(EnvdError::InvalidArgument(_))
        ));
    }
}
