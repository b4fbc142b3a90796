//! Telling text from binary, and turning file bytes into the strings the API returns.

use std::fs::File;
use std::io::{self, Chain, Cursor, Read};

/// How much of a file is looked at to decide whether it is binary (as git and grep do).
const SNIFF_BYTES: u64 = 8 << 10;

/// A file opened for reading as text.
pub enum Sniffed {
    /// A NUL byte in the first 8 KiB: not text.
    Binary,
    /// The whole file, from its start.
    Text(Chain<Cursor<Vec<u8>>, File>),
}

/// Reads the start of `file` (`len` bytes long, as far as its metadata said) to decide
/// whether it is text.
pub fn sniff(mut file: File, len: u64) -> io::Result<Sniffed> {
    // Room for the whole head and one byte more, so a short file is read in one call and
    // its end seen in a second, without the probing reads of an empty vector.
    let capacity = usize::try_from(len.min(SNIFF_BYTES)).unwrap_or(0) + 1;
    let mut head = Vec::with_capacity(capacity);
    (&mut file).take(SNIFF_BYTES).read_to_end(&mut head)?;
    if memchr::memchr(0, &head).is_some() {
        return Ok(Sniffed::Binary);
    }
    Ok(Sniffed::Text(Cursor::new(head).chain(file)))
}

/// Decodes `bytes` as UTF-8, replacing invalid sequences with U+FFFD. Returns the text
/// and whether anything was replaced. When the bytes were `cut` at a size limit, a
/// character split by the cut is dropped rather than reported as invalid.
pub fn decode(mut bytes: Vec<u8>, cut: bool) -> (String, bool) {
    if cut {
        let keep = bytes.len() - split_char_len(&bytes);
        bytes.truncate(keep);
    }
    match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(err) => (String::from_utf8_lossy(err.as_bytes()).into_owned(), true),
    }
}

/// Length of an incomplete UTF-8 sequence at the end of `bytes` (0 when there is none).
fn split_char_len(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(4) {
        let byte = bytes[bytes.len() - back];
        if byte & 0b1100_0000 == 0b1000_0000 {
            continue; // a continuation byte; its lead byte is further back
        }
        let needed = match byte {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if needed > back { back } else { 0 };
    }
    0
}

/// At most `max_chars` characters of `line` around byte offset `at`, so a match far into
/// a long line is still shown. Cuts are marked with `…`.
pub fn excerpt(line: &[u8], at: usize, max_chars: usize) -> String {
    let text = String::from_utf8_lossy(line);
    let total = text.chars().count();
    if total <= max_chars {
        return text.into_owned();
    }
    // Show a little of what precedes the match, then as much as fits.
    let match_char = String::from_utf8_lossy(&line[..at.min(line.len())])
        .chars()
        .count();
    let start = match_char.saturating_sub(max_chars / 5).min(total - max_chars);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(text.chars().skip(start).take(max_chars));
    if start + max_chars < total {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_inside_a_character_drops_it() {
        let snowman = "a☃".as_bytes().to_vec(); // ☃ is 3 bytes
        assert_eq!(decode(snowman[..3].to_vec(), true), ("a".to_owned(), false));
        assert_eq!(decode(snowman[..2].to_vec(), true), ("a".to_owned(), false));
        assert_eq!(decode(snowman.clone(), true), ("a☃".to_owned(), false));
        // Without a cut, the same bytes are invalid and reported as such.
        assert_eq!(
            decode(snowman[..2].to_vec(), false),
            ("a\u{FFFD}".to_owned(), true)
        );
    }

    #[test]
    fn invalid_bytes_are_replaced_and_flagged() {
        assert_eq!(
            decode(b"caf\xe9!".to_vec(), false),
            ("caf\u{FFFD}!".to_owned(), true)
        );
        assert_eq!(decode(b"plain".to_vec(), false), ("plain".to_owned(), false));
    }

    #[test]
    fn excerpts_keep_short_lines_and_window_long_ones() {
        assert_eq!(excerpt(b"let x = 1;", 4, 500), "let x = 1;");
        let long = format!("{}needle{}", "a".repeat(1000), "b".repeat(1000));
        let shown = excerpt(long.as_bytes(), 1000, 100);
        assert!(shown.contains("needle"), "{shown}");
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(shown.chars().count(), 102);
        let start = excerpt(long.as_bytes(), 0, 100);
        assert!(start.starts_with("aaa") && start.ends_with('…'));
    }
}
