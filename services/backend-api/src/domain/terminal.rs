//! The interactive terminal of a session's sandbox, for the person who takes over: the
//! frames a terminal exchanges and its size (the port that opens one:
//! [`super::ports::TerminalConnector`]).

use std::pin::Pin;

use bytes::Bytes;
use futures::stream::BoxStream;
use futures::Sink;

use super::error::{DomainError, DomainResult};

/// Largest terminal the sandbox's PTY accepts, either way.
const MAX_SIDE: u32 = 1000;

/// One message to or from a terminal: raw bytes (keyboard in, screen out), or a JSON
/// control message (`input`/`resize` in, `exit`/`error` out), passed on unread.
#[derive(Debug, Clone, PartialEq)]
pub enum TerminalFrame {
    Data(Bytes),
    Control(String),
}

/// Columns and rows, both between 1 and 1000.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerminalSize {
    cols: u16,
    rows: u16,
}

impl TerminalSize {
    pub fn parse(cols: u32, rows: u32) -> DomainResult<Self> {
        match (u16::try_from(cols), u16::try_from(rows)) {
            (Ok(c), Ok(r)) if (1..=MAX_SIDE).contains(&cols) && (1..=MAX_SIDE).contains(&rows) => {
                Ok(Self { cols: c, rows: r })
            }
            _ => Err(DomainError::Invalid(format!(
                "a terminal of {cols}×{rows} is not possible; columns and rows go from 1 to {MAX_SIDE}"
            ))),
        }
    }

    pub fn cols(self) -> u16 {
        self.cols
    }

    pub fn rows(self) -> u16 {
        self.rows
    }
}

/// Frames written here reach the shell; a failed write means the terminal is gone.
pub type TerminalInput = Pin<Box<dyn Sink<TerminalFrame, Error = DomainError> + Send>>;

/// An open terminal: what it prints (the stream ends when the shell is gone, after its
/// `exit` message) and where its input goes.
pub struct TerminalChannel {
    pub output: BoxStream<'static, TerminalFrame>,
    pub input: TerminalInput,
}

#[cfg(test)]
mod tests {
    use super::TerminalSize;

    #[test]
    fn sizes_outside_what_a_pty_takes_are_refused() {
        assert!(TerminalSize::parse(80, 24).is_ok());
        assert!(TerminalSize::parse(1000, 1).is_ok());
        for (cols, rows) in [(0, 24), (80, 0), (1001, 24), (80, 1001), (70_000, 24)] {
            assert!(TerminalSize::parse(cols, rows).is_err(), "{cols}×{rows}");
        }
    }
}
