//! Protobuf-JSON details shared by the envd services: numbers that may come as strings
//! (64-bit ones always do), bytes as base64, and the process selector.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use serde::{Deserialize, Deserializer};

use crate::envd::error::{EnvdError, EnvdResult};
use crate::envd::process::Selector;

/// A number that protobuf JSON may write as a JSON number or as a string.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Number(pub i64);

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Number(i64),
            Text(String),
        }
        match Either::deserialize(deserializer)? {
            Either::Number(n) => Ok(Self(n)),
            Either::Text(text) => text
                .trim()
                .parse()
                .map(Self)
                .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a number"))),
        }
    }
}

impl Number {
    /// The value as an unsigned 32-bit field, or an error naming `field`.
    pub fn to_u32(self, field: &str) -> EnvdResult<u32> {
        u32::try_from(self.0).map_err(|_| EnvdError::invalid(format!("{field} {} is out of range", self.0)))
    }
}

/// Bytes as protobuf JSON writes them: base64, standard or URL-safe, padded or not.
pub fn decode_bytes(text: &str) -> EnvdResult<Vec<u8>> {
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
        .ok_or_else(|| EnvdError::invalid("bytes are not valid base64"))
}

/// Bytes for protobuf JSON.
pub fn encode_bytes(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// `ProcessSelector`: a pid or a tag.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SelectorMessage {
    pid: Option<Number>,
    tag: Option<String>,
}

/// The selector a request must carry.
pub fn selector(message: Option<SelectorMessage>) -> EnvdResult<Selector> {
    match message.unwrap_or_default() {
        SelectorMessage { pid: Some(pid), .. } => Ok(Selector::Pid(pid.to_u32("pid")?)),
        SelectorMessage { tag: Some(tag), .. } => Ok(Selector::Tag(tag)),
        _ => Err(EnvdError::invalid(
            "the request selects no process (give its pid or tag)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_bytes_read_in_every_protobuf_json_form() {
        let parsed: Vec<Number> = serde_json::from_str(r#"[5, "6", " 7 "]"#).unwrap();
        assert_eq!(parsed, vec![Number(5), Number(6), Number(7)]);
        assert!(serde_json::from_str::<Number>(r#""x""#).is_err());
        assert!(Number(-1).to_u32("pid").is_err());
        assert_eq!(decode_bytes("aGk/").unwrap(), b"hi?");
        assert_eq!(decode_bytes("aGk_").unwrap(), b"hi?");
        assert_eq!(decode_bytes("aGk").unwrap(), b"hi");
        assert!(decode_bytes("!!").is_err());
    }
}
