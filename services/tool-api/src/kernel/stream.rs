//! Cells whose outputs leave as they come, for E2B's code-interpreter protocol: each
//! output is one JSON object in E2B's shape (made by `driver.py`), with a keep-alive
//! object while the cell is quiet, so that a client that hung up is noticed by the next
//! write at the latest. Dropping the stream (the client hung up) interrupts the cell; the
//! kernel and its state stay.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::Stream;
use serde_json::{json, Value};

use super::{InterruptOnDrop, Kernel};

/// How long a cell may stay quiet before a keep-alive object is sent.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// The variables a streamed cell runs with.
#[derive(Debug, Default, Clone)]
pub struct CellEnv {
    /// The sandbox's own, kept in the kernel until they change.
    pub base: BTreeMap<String, String>,
    /// The request's, on top; undone after the cell.
    pub cell: BTreeMap<String, String>,
}

/// E2B's error output.
pub fn error_event(name: &str, value: &str) -> Value {
    json!({ "type": "error", "name": name, "value": value, "traceback": "" })
}

impl Kernel {
    /// Runs `code`, streaming its outputs; a kernel that is not running is started first,
    /// one lost on the way is started afresh (the stream says so in an error output).
    pub fn stream(self: Arc<Self>, code: String, env: CellEnv) -> impl Stream<Item = Value> + Send + 'static {
        async_stream::stream! {
            let mut held = self.driver.lock().await;
            if held.is_none() {
                match self.start().await {
                    Ok(started) => *held = Some(started),
                    Err(err) => {
                        yield error_event("KernelUnavailable", &err.to_string());
                        return;
                    }
                }
            }
            let Some(driver) = held.as_mut() else { return };
            let id = match driver.send_streamed(&code, &env.base, &env.cell).await {
                Ok(id) => id,
                Err(ended) => {
                    // The driver died between cells: one fresh start, and the cell says so.
                    yield error_event("KernelRestarted", &format!(
                        "The kernel had stopped ({ended}); it was started afresh, so earlier \
                         cells' variables are gone."
                    ));
                    driver.kill();
                    match self.start().await {
                        Ok(fresh) => *driver = fresh,
                        Err(err) => {
                            yield error_event("KernelUnavailable", &err.to_string());
                            return;
                        }
                    }
                    match driver.send_streamed(&code, &env.base, &env.cell).await {
                        Ok(id) => id,
                        Err(ended) => {
                            yield error_event("KernelUnavailable", &ended);
                            return;
                        }
                    }
                }
            };
            let mut cancelled = InterruptOnDrop(Some(self.running.clone()));
            loop {
                match tokio::time::timeout(KEEP_ALIVE, driver.next_event(id)).await {
                    Err(_) => yield json!({ "type": "keepalive" }),
                    Ok(Ok(Some(event))) => yield event,
                    Ok(Ok(None)) => break,
                    Ok(Err(ended)) => {
                        driver.kill();
                        let restarted = match self.start().await {
                            Ok(fresh) => {
                                *driver = fresh;
                                "it was restarted and earlier cells' variables are gone"
                            }
                            Err(_) => "it starts afresh with the next cell",
                        };
                        yield error_event("KernelRestarted", &format!(
                            "The kernel stopped during the cell ({ended}); {restarted}."
                        ));
                        break;
                    }
                }
            }
            cancelled.0 = None;
        }
    }
}
