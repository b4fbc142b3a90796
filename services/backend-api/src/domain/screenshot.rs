//! Browser screenshots: JPEG images named by the SHA-256 of their bytes, so the same
//! picture is stored once per session however often the agent looks at an unchanged
//! page, and events refer to it by URL instead of carrying the image.

use sha2::{Digest, Sha256};

use super::error::DomainError;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScreenshotId(String);

impl ScreenshotId {
    pub fn of(jpeg: &[u8]) -> Self {
        let digest = Sha256::digest(jpeg);
        Self(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Anything but 64 lower-case hex digits names no screenshot.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let raw = raw.strip_suffix(".jpg").unwrap_or(raw);
        if raw.len() == 64
            && raw
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(Self(raw.to_owned()))
        } else {
            Err(DomainError::NotFound("screenshot"))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::ScreenshotId;

    #[test]
    fn ids_are_content_hashes() {
        let id = ScreenshotId::of(b"jpeg bytes");
        assert_eq!(id, ScreenshotId::of(b"jpeg bytes"));
        assert_ne!(id, ScreenshotId::of(b"other bytes"));
        assert_eq!(ScreenshotId::parse(id.as_str()).unwrap(), id);
        assert_eq!(ScreenshotId::parse(&format!("{}.jpg", id.as_str())).unwrap(), id);
        for bad in [
            "",
            "abc",
            "../etc/passwd",
            &"G".repeat(64),
            &id.as_str().to_uppercase(),
        ] {
            assert!(ScreenshotId::parse(bad).is_err(), "{bad:?}");
        }
    }
}
