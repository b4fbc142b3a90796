//! Finding where a command ends in its shell's output.
//!
//! A session's bash runs every command followed by `printf` of a marker that carries the
//! exit status: `RS "SP" <nonce> ":" <status> US` (ASCII record and unit separators
//! around it). The nonce is random per session, so a program cannot end a run by
//! accident. [`StatusScanner`] splits the raw output into text and statuses, holding back
//! bytes that may be the start of a marker or of a UTF-8 character cut by a read.

use super::console::complete_utf8_prefix;

const START: u8 = 0x1e;
const END: u8 = 0x1f;
/// Longest status text: "-2147483648".
const MAX_STATUS_LEN: usize = 11;

#[derive(Debug, PartialEq)]
pub enum Piece {
    Output(Vec<u8>),
    Status(i32),
}

pub struct StatusScanner {
    prefix: Vec<u8>,
    pending: Vec<u8>,
}

impl StatusScanner {
    pub fn new(nonce: &str) -> Self {
        let mut prefix = vec![START];
        prefix.extend_from_slice(format!("SP{nonce}:").as_bytes());
        Self {
            prefix,
            pending: Vec::new(),
        }
    }

    /// The shell code that prints the marker with the last command's status.
    pub fn print_status_command(nonce: &str) -> String {
        format!("builtin printf '\\036SP{nonce}:%d\\037' \"$?\"")
    }

    pub fn feed(&mut self, data: &[u8]) -> Vec<Piece> {
        self.pending.extend_from_slice(data);
        let mut pieces = Vec::new();
        loop {
            let Some(at) = find(&self.pending, &self.prefix) else {
                let keep = partial_prefix_len(&self.pending, &self.prefix);
                let ready = complete_utf8_prefix(&self.pending[..self.pending.len() - keep]);
                self.emit(ready, &mut pieces);
                return pieces;
            };
            self.emit(at, &mut pieces);
            let after = self.prefix.len();
            match self.pending[after..].iter().position(|&b| b == END) {
                Some(len) if len <= MAX_STATUS_LEN => {
                    let status = std::str::from_utf8(&self.pending[after..after + len])
                        .ok()
                        .and_then(|s| s.parse().ok());
                    match status {
                        Some(status) => {
                            pieces.push(Piece::Status(status));
                            self.pending.drain(..after + len + 1);
                        }
                        // Not our marker after all: pass its first byte on as text.
                        None => self.emit(1, &mut pieces),
                    }
                }
                None if self.pending.len() - after <= MAX_STATUS_LEN => return pieces,
                _ => self.emit(1, &mut pieces),
            }
        }
    }

    /// Whatever is held back, once the output has ended.
    pub fn flush(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }

    fn emit(&mut self, len: usize, pieces: &mut Vec<Piece>) {
        if len == 0 {
            return;
        }
        let text: Vec<u8> = self.pending.drain(..len).collect();
        match pieces.last_mut() {
            Some(Piece::Output(previous)) => previous.extend_from_slice(&text),
            _ => pieces.push(Piece::Output(text)),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// Length of the longest end of `data` that is a proper start of `prefix`.
fn partial_prefix_len(data: &[u8], prefix: &[u8]) -> usize {
    (1..prefix.len().min(data.len() + 1))
        .rev()
        .find(|&len| data.ends_with(&prefix[..len]))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(status: &str) -> Vec<u8> {
        format!("\x1eSPabc:{status}\x1f").into_bytes()
    }

    #[test]
    fn splits_text_and_status_even_when_reads_cut_the_marker() {
        let mut stream = b"hello\n".to_vec();
        stream.extend(marker("0"));
        stream.extend(b"next");
        stream.extend(marker("-3"));
        for cut in 0..stream.len() {
            let mut scanner = StatusScanner::new("abc");
            let mut pieces = scanner.feed(&stream[..cut]);
            pieces.extend(scanner.feed(&stream[cut..]));
            let mut text = Vec::new();
            let mut statuses = Vec::new();
            for piece in pieces {
                match piece {
                    Piece::Output(bytes) => text.extend(bytes),
                    Piece::Status(status) => {
                        statuses.push((String::from_utf8(text.clone()).unwrap(), status));
                    }
                }
            }
            assert_eq!(
                statuses,
                vec![("hello\n".into(), 0), ("hello\nnext".into(), -3)],
                "cut at {cut}"
            );
            assert!(scanner.flush().is_empty());
        }
    }

    #[test]
    fn a_lookalike_without_the_nonce_or_status_is_text() {
        let mut scanner = StatusScanner::new("abc");
        let mut input = b"\x1eSPxyz:0\x1f".to_vec();
        input.extend(b"\x1eSPabc:notanumber\x1f");
        let pieces = scanner.feed(&input);
        let text: Vec<u8> = pieces
            .into_iter()
            .flat_map(|p| match p {
                Piece::Output(bytes) => bytes,
                Piece::Status(s) => panic!("false status {s}"),
            })
            .collect();
        assert_eq!(text, input);
    }

    #[test]
    fn holds_back_a_possible_marker_start_until_it_is_decided() {
        let mut scanner = StatusScanner::new("abc");
        assert_eq!(scanner.feed(b"data\x1eSP"), vec![Piece::Output(b"data".to_vec())]);
        assert_eq!(scanner.flush(), b"\x1eSP".to_vec());
    }
}
