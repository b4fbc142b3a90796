//! Reading a file line by line with bounded memory: the caller says how many bytes of each
//! line it wants, and the rest of a long line is skipped without being collected, so a
//! gigabyte without a newline costs no more memory than a short line.

use std::io::{self, BufRead, BufReader, Read};

const BUFFER_BYTES: usize = 64 << 10;

pub struct Lines<R> {
    reader: BufReader<R>,
    /// Lines read so far; the number of the last one.
    number: u64,
}

/// What [`Lines::next_into`] read.
#[derive(Debug, PartialEq)]
pub struct Line {
    /// 1-based.
    pub number: u64,
    /// Only part of the line was kept.
    pub cut: bool,
}

impl<R: Read> Lines<R> {
    pub fn new(reader: R) -> Self {
        Self {
            reader: BufReader::with_capacity(BUFFER_BYTES, reader),
            number: 0,
        }
    }

    /// Appends at most `max` bytes of the next line (with its `\n`, if it has one) to
    /// `out` and moves past the whole line. `None` at the end of the input.
    pub fn next_into(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<Option<Line>> {
        let mut room = max;
        let mut cut = false;
        let mut empty = true;
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            empty = false;
            let (len, ends_line) = match memchr::memchr(b'\n', buf) {
                Some(newline) => (newline + 1, true),
                None => (buf.len(), false),
            };
            let keep = len.min(room);
            out.extend_from_slice(&buf[..keep]);
            room -= keep;
            cut |= keep < len;
            self.reader.consume(len);
            if ends_line {
                break;
            }
        }
        if empty {
            return Ok(None);
        }
        self.number += 1;
        Ok(Some(Line {
            number: self.number,
            cut,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], max: usize) -> Vec<(Vec<u8>, Line)> {
        let mut lines = Lines::new(input);
        let mut found = Vec::new();
        loop {
            let mut out = Vec::new();
            match lines.next_into(&mut out, max).unwrap() {
                Some(line) => found.push((out, line)),
                None => return found,
            }
        }
    }

    #[test]
    fn splits_on_newlines_and_keeps_a_last_line_without_one() {
        let lines = collect(b"one\n\nthree", 100);
        let texts: Vec<&[u8]> = lines.iter().map(|(t, _)| t.as_slice()).collect();
        assert_eq!(texts, [&b"one\n"[..], b"\n", b"three"]);
        assert_eq!(
            lines[2].1,
            Line {
                number: 3,
                cut: false
            }
        );
        assert!(collect(b"", 100).is_empty());
    }

    #[test]
    fn long_lines_are_cut_but_fully_skipped() {
        let mut input = vec![b'x'; 3 * BUFFER_BYTES];
        input.extend_from_slice(b"\nnext\n");
        let lines = collect(&input, 10);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].0, b"xxxxxxxxxx");
        assert!(lines[0].1.cut);
        assert_eq!(lines[1].0, b"next\n");
        assert_eq!(
            lines[1].1,
            Line {
                number: 2,
                cut: false
            }
        );
    }
}
