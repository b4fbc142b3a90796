//! A shell session's console: the output of its commands in a bounded buffer addressed by
//! absolute byte offsets.
//!
//! Offsets never go backwards, so a reader (an exec call, a live stream) remembers where it
//! stopped and asks for "everything after N"; when N has already been pushed out of the
//! buffer, the answer starts with a marker saying how much was dropped.

use std::collections::VecDeque;

pub struct Console {
    bytes: VecDeque<u8>,
    /// Absolute offset of `bytes[0]`.
    start: u64,
    capacity: usize,
}

/// Text read from the console.
#[derive(Debug, PartialEq)]
pub struct Slice {
    pub text: String,
    /// True when part of the requested range had been dropped.
    pub truncated: bool,
    /// Offset just after the returned text.
    pub end: u64,
}

impl Console {
    pub fn new(capacity: usize) -> Self {
        Self {
            bytes: VecDeque::new(),
            start: 0,
            capacity: capacity.max(1),
        }
    }

    pub fn push(&mut self, data: &[u8]) {
        self.bytes.extend(data);
        let excess = self.bytes.len().saturating_sub(self.capacity);
        if excess > 0 {
            self.bytes.drain(..excess);
            self.start += excess as u64;
        }
    }

    /// Offset just after the last byte written.
    pub fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }

    /// Everything from `offset` to the end, lossily decoded.
    pub fn read_from(&self, offset: u64) -> Slice {
        let end = self.end();
        let from = offset.clamp(self.start, end);
        let skip = usize::try_from(from - self.start).unwrap_or(usize::MAX);
        let raw: Vec<u8> = self.bytes.range(skip..).copied().collect();
        let dropped = from - offset.min(from);
        let mut text = String::new();
        if dropped > 0 {
            text.push_str(&format!("[… {dropped} earlier bytes of output were dropped …]\n"));
        }
        text.push_str(&String::from_utf8_lossy(&raw));
        Slice {
            text,
            truncated: dropped > 0,
            end,
        }
    }
}

/// Splits freshly read bytes at the last complete UTF-8 character, so a character cut in
/// two by a `read` is never turned into replacement characters. Returns how many bytes of
/// `buf` can be pushed now; the rest (at most 3) waits for the next read.
pub fn complete_utf8_prefix(buf: &[u8]) -> usize {
    match std::str::from_utf8(buf) {
        Ok(_) => buf.len(),
        // `error_len() == None` means the input ended inside a character.
        Err(err) if err.error_len().is_none() => err.valid_up_to(),
        // Invalid bytes mid-stream will never become valid: pass them on as they are.
        Err(_) => {
            let tail_start = buf.len().saturating_sub(3);
            (tail_start..buf.len())
                .find(|&i| {
                    buf[i] >= 0xC0 && std::str::from_utf8(&buf[i..]).is_err_and(|e| e.error_len().is_none())
                })
                .unwrap_or(buf.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_bytes_and_marks_the_drop() {
        let mut console = Console::new(8);
        console.push(b"hello ");
        console.push(b"world!");
        assert_eq!(console.end(), 12);
        let all = console.read_from(0);
        assert_eq!(all.text, "[… 4 earlier bytes of output were dropped …]\no world!");
        assert!(all.truncated);
        let tail = console.read_from(9);
        assert_eq!(
            tail,
            Slice {
                text: "ld!".into(),
                truncated: false,
                end: 12
            }
        );
        assert_eq!(console.read_from(99).text, "");
    }

    #[test]
    fn holds_back_a_character_cut_in_two() {
        let text = "añb".as_bytes(); // ñ is two bytes
        assert_eq!(complete_utf8_prefix(&text[..2]), 1);
        assert_eq!(complete_utf8_prefix(text), 4);
        assert_eq!(complete_utf8_prefix(b"\xff\xfeabc"), 5);
        assert_eq!(complete_utf8_prefix(b"\xffab\xe2\x82"), 3);
    }
}
