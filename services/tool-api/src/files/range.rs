//! The byte range a download serves, from the value of an HTTP `Range` header (RFC 9110
//! §14.2). One range is served as asked; several ranges, or a value that does not parse,
//! get the whole file, which the RFC allows. Only a range that lies entirely outside the
//! file is refused.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteRange {
    Whole,
    /// Inclusive offsets, both inside the file.
    Part {
        first: u64,
        last: u64,
    },
    Unsatisfiable,
}

pub fn byte_range(header: Option<&str>, size: u64) -> ByteRange {
    let Some(spec) = header.and_then(single_spec) else {
        return ByteRange::Whole;
    };
    let Some((first, last)) = spec.split_once('-') else {
        return ByteRange::Whole;
    };
    let (first, last) = (first.trim(), last.trim());
    if first.is_empty() {
        // `-n`: the last n bytes.
        return match number(last) {
            None => ByteRange::Whole,
            Some(0) => ByteRange::Unsatisfiable,
            Some(_) if size == 0 => ByteRange::Unsatisfiable,
            Some(n) => ByteRange::Part {
                first: size.saturating_sub(n),
                last: size - 1,
            },
        };
    }
    let Some(first) = number(first) else {
        return ByteRange::Whole;
    };
    let last = if last.is_empty() {
        Some(u64::MAX)
    } else {
        number(last)
    };
    match last {
        Some(last) if last >= first => {
            if first >= size {
                ByteRange::Unsatisfiable
            } else {
                ByteRange::Part {
                    first,
                    last: last.min(size - 1),
                }
            }
        }
        _ => ByteRange::Whole,
    }
}

/// The range set of a `bytes=` value when it holds exactly one range.
fn single_spec(header: &str) -> Option<&str> {
    let (unit, spec) = header.split_once('=')?;
    let single = unit.trim().eq_ignore_ascii_case("bytes") && !spec.contains(',');
    single.then(|| spec.trim())
}

/// A decimal number; one too large for `u64` counts as `u64::MAX` (the RFC puts no bound
/// on offsets, and any such offset is past the end of any file).
fn number(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::ByteRange::*;
    use super::*;

    fn range(header: &str, size: u64) -> ByteRange {
        byte_range(Some(header), size)
    }

    #[test]
    fn single_ranges() {
        assert_eq!(range("bytes=0-99", 1000), Part { first: 0, last: 99 });
        assert_eq!(
            range("bytes=900-", 1000),
            Part {
                first: 900,
                last: 999
            }
        );
        assert_eq!(
            range("bytes=-100", 1000),
            Part {
                first: 900,
                last: 999
            }
        );
        assert_eq!(range("bytes=-5000", 1000), Part { first: 0, last: 999 });
        assert_eq!(
            range("bytes=990-5000", 1000),
            Part {
                first: 990,
                last: 999
            }
        );
        assert_eq!(range("Bytes = 1-1", 10), Part { first: 1, last: 1 });
        assert_eq!(
            range("bytes=0-99999999999999999999999", 10),
            Part { first: 0, last: 9 }
        );
    }

    #[test]
    fn ranges_outside_the_file_are_unsatisfiable() {
        assert_eq!(range("bytes=1000-", 1000), Unsatisfiable);
        assert_eq!(range("bytes=99999999999999999999999-", 1000), Unsatisfiable);
        assert_eq!(range("bytes=-0", 1000), Unsatisfiable);
        assert_eq!(range("bytes=0-", 0), Unsatisfiable);
        assert_eq!(range("bytes=-10", 0), Unsatisfiable);
    }

    #[test]
    fn anything_else_gets_the_whole_file() {
        assert_eq!(byte_range(None, 10), Whole);
        for header in [
            "bytes=0-1,5-6",
            "bytes=5-1",
            "items=0-1",
            "bytes=a-b",
            "bytes=",
            "bytes=-",
            "0-1",
        ] {
            assert_eq!(range(header, 10), Whole, "{header}");
        }
    }
}
