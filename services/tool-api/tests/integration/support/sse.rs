//! A small reader of server-sent events for tests: splits a streaming body into events.

use futures::StreamExt;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

pub struct SseReader {
    body: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    pending: String,
}

impl SseReader {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            body: response.bytes_stream().boxed(),
            pending: String::new(),
        }
    }

    /// The next event (comments skipped), or `None` when the stream ends.
    pub async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let mut event = SseEvent::default();
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event.event = v.trim_start().to_owned();
                    } else if let Some(v) = line.strip_prefix("id:") {
                        event.id = Some(v.trim_start().to_owned());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v).to_owned());
                    }
                }
                if data.is_empty() && event.event.is_empty() {
                    continue; // a keep-alive comment
                }
                event.data = data.join("\n");
                return Some(event);
            }
            let chunk = self.body.next().await?.ok()?;
            self.pending.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}
