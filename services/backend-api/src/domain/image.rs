//! Pictures the agent's tool events show: browser screenshots (JPEG) and code cells'
//! charts (PNG, SVG). Each is named by the SHA-256 of its bytes and its format, so the
//! same picture is stored once per session however often it recurs, and events refer to
//! it by URL instead of carrying it.

use super::error::DomainError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    Jpeg,
    Png,
    Svg,
}

impl ImageFormat {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Svg => "svg",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Svg => "image/svg+xml",
        }
    }
}

/// An image's bytes on their way to the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub bytes: Vec<u8>,
    pub format: ImageFormat,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImageId {
    hash: String,
    format: ImageFormat,
}

impl ImageId {
    pub fn of(bytes: &[u8], format: ImageFormat) -> Self {
        Self {
            hash: service_kit::sha256_hex(bytes),
            format,
        }
    }

    /// `<64 lower-case hex digits>.<jpg|png|svg>` (a bare hash is a JPEG, as screenshot
    /// URLs were once written); anything else names no image.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let (hash, format) = match raw.rsplit_once('.') {
            Some((hash, "jpg")) => (hash, ImageFormat::Jpeg),
            Some((hash, "png")) => (hash, ImageFormat::Png),
            Some((hash, "svg")) => (hash, ImageFormat::Svg),
            Some(_) => return Err(DomainError::NotFound("image")),
            None => (raw, ImageFormat::Jpeg),
        };
        if hash.len() == 64
            && hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(Self {
                hash: hash.to_owned(),
                format,
            })
        } else {
            Err(DomainError::NotFound("image"))
        }
    }

    pub fn format(&self) -> ImageFormat {
        self.format
    }

    /// The key it is stored under: JPEGs by their bare hash, as screenshots always were.
    pub fn key(&self) -> String {
        match self.format {
            ImageFormat::Jpeg => self.hash.clone(),
            format => self.file_name_with(format),
        }
    }

    /// The last segment of its URL.
    pub fn file_name(&self) -> String {
        self.file_name_with(self.format)
    }

    fn file_name_with(&self, format: ImageFormat) -> String {
        format!("{}.{}", self.hash, format.extension())
    }
}

#[cfg(test)]
mod tests {
    use super::{ImageFormat, ImageId};

    #[test]
    fn ids_are_content_hashes_with_a_format() {
        let id = ImageId::of(b"jpeg bytes", ImageFormat::Jpeg);
        assert_eq!(id, ImageId::of(b"jpeg bytes", ImageFormat::Jpeg));
        assert_ne!(id, ImageId::of(b"other bytes", ImageFormat::Jpeg));
        assert_eq!(ImageId::parse(&id.key()).unwrap(), id);
        assert_eq!(ImageId::parse(&id.file_name()).unwrap(), id);
        assert!(id.file_name().ends_with(".jpg"));

        let chart = ImageId::of(b"png bytes", ImageFormat::Png);
        assert_eq!(ImageId::parse(&chart.file_name()).unwrap(), chart);
        assert_eq!(chart.key(), chart.file_name());
        assert_eq!(chart.format().content_type(), "image/png");
        let hash = chart.file_name().replace(".png", "");
        assert_ne!(ImageId::parse(&format!("{hash}.svg")).unwrap(), chart);

        for bad in [
            "",
            "abc",
            "../etc/passwd",
            &"G".repeat(64),
            &id.key().to_uppercase(),
            &format!("{hash}.gif"),
            &format!("{hash}.png.png"),
        ] {
            assert!(ImageId::parse(bad).is_err(), "{bad:?}");
        }
    }
}
