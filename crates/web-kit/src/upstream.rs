//! The one path every request to the outside takes, search provider or fetched page: a
//! shared HTTP client, one deadline over the whole exchange (headers and body), a byte cap
//! enforced while the body streams in, and the mapping of transport failures onto
//! [`WebError`]s. A client that sends credentials (a provider's key, an operator's
//! headers) follows redirects only within the origin it was sent to: one to another
//! origin would take the credentials there, so it is refused ([`redirect_verdict`]).

use std::time::Duration;

use anyhow::Context;
use tokio::time::Instant;

use crate::error::{WebError, WebResult};

/// More than this is a redirect loop, not a site.
const MAX_REDIRECTS: usize = 10;

/// A client for the outside web (one connection pool for everything a service sends
/// there), which follows redirects anywhere: for requests that carry no credentials.
/// `product` names the service in the User-Agent, honestly, while the `Mozilla/` prefix
/// still lets it past sites that turn away anything without one.
pub fn client(product: &str) -> anyhow::Result<reqwest::Client> {
    built(product, reqwest::redirect::Policy::limited(MAX_REDIRECTS))
}

/// [`client`] for requests that carry credentials: redirects are followed only within
/// the origin each request was sent to ([`same_origin_redirects`]).
pub fn credentialed_client(product: &str) -> anyhow::Result<reqwest::Client> {
    built(product, same_origin_redirects())
}

fn built(product: &str, redirects: reqwest::redirect::Policy) -> anyhow::Result<reqwest::Client> {
    let version = env!("CARGO_PKG_VERSION");
    reqwest::Client::builder()
        .user_agent(format!("Mozilla/5.0 (compatible; {product}/{version})"))
        .redirect(redirects)
        .build()
        .context("building the HTTP client for the outside web")
}

/// A redirect a credentialed client does not follow; its message says what the
/// operator can do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectRefused {
    #[error(
        "it redirected to another origin ({0}), which is not followed since the credentials \
         would go there too; if that is where the service now is, configure that address"
    )]
    OtherOrigin(String),
    #[error("it redirected more than {MAX_REDIRECTS} times")]
    TooMany,
}

/// Whether a credentialed client follows a redirect to `next`, after the URLs of the
/// request so far (`previous`, the first one being where it was sent): only within that
/// first URL's origin (scheme, host and port), and at most [`MAX_REDIRECTS`] times. The
/// refusal names the other origin only, never its path or query.
pub fn redirect_verdict(previous: &[reqwest::Url], next: &reqwest::Url) -> Result<(), RedirectRefused> {
    let Some(first) = previous.first() else {
        return Ok(());
    };
    if first.origin() != next.origin() {
        return Err(RedirectRefused::OtherOrigin(next.origin().ascii_serialization()));
    }
    if previous.len() > MAX_REDIRECTS {
        return Err(RedirectRefused::TooMany);
    }
    Ok(())
}

/// [`redirect_verdict`] as reqwest's redirect policy.
pub fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(
        |attempt| match redirect_verdict(attempt.previous(), attempt.url()) {
            Ok(()) => attempt.follow(),
            Err(refused) => attempt.error(refused),
        },
    )
}

/// The redirect refusal somewhere among `err`'s causes.
pub fn refused_redirect<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a RedirectRefused> {
    let mut cause = Some(err);
    while let Some(current) = cause {
        if let Some(refused) = current.downcast_ref::<RedirectRefused>() {
            return Some(refused);
        }
        cause = current.source();
    }
    None
}

/// When an exchange must be over. One deadline covers connecting, the headers and the
/// body, so a server that answers quickly and then trickles cannot stretch the wait.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Instant,
    timeout: Duration,
}

impl Deadline {
    pub fn after(timeout: Duration) -> Self {
        Self {
            at: Instant::now() + timeout,
            timeout,
        }
    }

    /// The error for `target` not having answered in time.
    pub fn expired(&self, target: &str) -> WebError {
        WebError::Timeout(format!(
            "{target} did not answer within {} s",
            self.timeout.as_secs_f64()
        ))
    }
}

/// Sends `request`. `target` names the other side in error messages; it must not contain
/// a secret, which is why reqwest's own message (it quotes the URL) is not passed on.
pub async fn send(
    request: reqwest::RequestBuilder,
    target: &str,
    deadline: &Deadline,
) -> WebResult<reqwest::Response> {
    match tokio::time::timeout_at(deadline.at, request.send()).await {
        Err(_) => Err(deadline.expired(target)),
        Ok(result) => result.map_err(|err| transport_error(&err, target, deadline)),
    }
}

/// How reading a body ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEnd {
    /// The whole body was read.
    Complete,
    /// The body is longer than the cap; the rest was never read.
    Capped,
    /// The deadline passed first; the bytes are what arrived until then.
    TimedOut,
}

pub struct Body {
    pub bytes: Vec<u8>,
    pub end: BodyEnd,
}

/// Reads at most `cap` bytes of the body. It stops at the cap instead of draining the
/// rest, and dropping the response then closes the connection, so a huge or endless body
/// costs no more than `cap` bytes of memory.
pub async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
    target: &str,
    deadline: &Deadline,
) -> WebResult<Body> {
    let mut bytes = Vec::new();
    loop {
        let chunk = match tokio::time::timeout_at(deadline.at, response.chunk()).await {
            Err(_) => {
                return Ok(Body {
                    bytes,
                    end: BodyEnd::TimedOut,
                })
            }
            Ok(Err(err)) => return Err(transport_error(&err, target, deadline)),
            Ok(Ok(None)) => {
                return Ok(Body {
                    bytes,
                    end: BodyEnd::Complete,
                })
            }
            Ok(Ok(Some(chunk))) => chunk,
        };
        let room = cap - bytes.len();
        if chunk.len() > room {
            bytes.extend_from_slice(&chunk[..room]);
            return Ok(Body {
                bytes,
                end: BodyEnd::Capped,
            });
        }
        bytes.extend_from_slice(&chunk);
    }
}

/// Maps a reqwest failure: no answer in time is a timeout, everything else (refused, DNS,
/// TLS, reset, redirect loop) an upstream failure with the innermost cause, which is the
/// part a person can act on ("Connection refused", "failed to lookup address").
fn transport_error(err: &reqwest::Error, target: &str, deadline: &Deadline) -> WebError {
    if err.is_timeout() {
        return deadline.expired(target);
    }
    let message = if let Some(refused) = refused_redirect(err) {
        format!("{target} was not followed: {refused}")
    } else if err.is_redirect() {
        format!("{target} redirected more than {MAX_REDIRECTS} times, or to a URL that cannot be followed")
    } else if err.is_connect() {
        format!("could not connect to {target}: {}", root_cause(err))
    } else {
        format!("the request to {target} failed: {}", root_cause(err))
    };
    WebError::Upstream(message)
}

fn root_cause(err: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = err;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

/// The start of a body as one line of at most `max_chars` characters, for error messages.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_are_followed_within_the_first_origin_only() {
        let url = |text: &str| reqwest::Url::parse(text).unwrap();
        let sent = [url("https://api.example.org/v1/search?key=s")];
        assert_eq!(
            redirect_verdict(&sent, &url("https://api.example.org:443/v2")),
            Ok(())
        );
        for elsewhere in [
            "http://api.example.org/v1",
            "https://api.example.org:8443/v1",
            "https://evil.example.net/v1?key=s",
        ] {
            let refused = redirect_verdict(&sent, &url(elsewhere)).unwrap_err();
            assert!(!refused.to_string().contains("/v1"), "{refused}");
        }
        // Back to the first origin after leaving it never happens: the leaving is refused.
        let many = vec![url("https://api.example.org/"); MAX_REDIRECTS + 1];
        assert_eq!(
            redirect_verdict(&many, &url("https://api.example.org/")),
            Err(RedirectRefused::TooMany)
        );
    }

    #[test]
    fn excerpt_collapses_whitespace_and_cuts_on_a_character() {
        assert_eq!(excerpt("  a\n\n b\tc ", 10), "a b c");
        assert_eq!(excerpt("ééééé", 3), "ééé…");
    }
}
