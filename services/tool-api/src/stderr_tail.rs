//! The last bytes a child process (a stdio server, the kernel driver) wrote to stderr,
//! kept to say why it ended. The rest is read and dropped, so a chatty process never
//! blocks on a full pipe nor grows memory.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::ChildStderr;
use tokio::task::JoinHandle;

pub struct StderrTail {
    kept: Arc<Mutex<Vec<u8>>>,
    reader: JoinHandle<()>,
}

impl StderrTail {
    /// Reads `stderr` until it closes, keeping its last `max` bytes.
    pub fn collect(mut stderr: ChildStderr, max: usize) -> Self {
        let kept = Arc::new(Mutex::new(Vec::with_capacity(max)));
        let reader = tokio::spawn({
            let kept = kept.clone();
            async move {
                let mut chunk = vec![0u8; 8 << 10];
                while let Ok(n @ 1..) = stderr.read(&mut chunk).await {
                    let mut kept = kept.lock().unwrap_or_else(|p| p.into_inner());
                    kept.extend_from_slice(&chunk[..n]);
                    let excess = kept.len().saturating_sub(max);
                    kept.drain(..excess);
                }
            }
        });
        Self { kept, reader }
    }

    /// What is kept once stderr has closed, or after `grace` (something the server left
    /// behind may still hold it open).
    pub async fn finish(&mut self, grace: Duration) -> Vec<u8> {
        let _ = tokio::time::timeout(grace, &mut self.reader).await;
        self.reader.abort();
        std::mem::take(&mut *self.kept.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

impl Drop for StderrTail {
    fn drop(&mut self) {
        self.reader.abort();
    }
}
