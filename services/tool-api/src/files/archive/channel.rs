//! A blocking [`Write`] whose bytes come out of a tokio channel in chunks.

use std::io::{self, Write};

use bytes::{Bytes, BytesMut};
use tokio::sync::mpsc::Sender;

const CHUNK_BYTES: usize = 64 << 10;

pub struct ChannelWriter {
    sender: Sender<io::Result<Bytes>>,
    buffer: BytesMut,
}

impl ChannelWriter {
    pub fn new(sender: Sender<io::Result<Bytes>>) -> Self {
        Self {
            sender,
            buffer: BytesMut::with_capacity(CHUNK_BYTES),
        }
    }

    /// Sends what is buffered, waiting while the channel is full.
    fn send(&mut self) -> io::Result<()> {
        let chunk = self.buffer.split().freeze();
        self.buffer.reserve(CHUNK_BYTES);
        self.sender
            .blocking_send(Ok(chunk))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the receiver went away"))
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(data);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.send()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_arrive_in_order_and_a_closed_channel_stops_the_writer() {
        let (sender, mut receiver) = tokio::sync::mpsc::channel(64);
        let mut writer = ChannelWriter::new(sender);
        writer.write_all(&vec![7u8; CHUNK_BYTES + 10]).unwrap();
        writer.write_all(b"end").unwrap();
        writer.flush().unwrap();
        let mut received = Vec::new();
        while let Ok(chunk) = receiver.try_recv() {
            received.extend_from_slice(&chunk.unwrap());
        }
        assert_eq!(received.len(), CHUNK_BYTES + 13);
        assert!(received.ends_with(b"\x07end"));

        drop(receiver);
        let err = writer.write_all(&vec![0u8; CHUNK_BYTES]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
