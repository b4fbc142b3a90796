//! Cells whose outputs leave as they come, for E2B's code-interpreter protocol: each
//! output is one JSON object in E2B's shape (made by `driver.py`), with a keep-alive
//! object while the cell is quiet, so that a client that hung up is noticed by the next
//! write at the latest. Dropping the stream (the client hung up) interrupts the cell; the
//! kernel and its state stay, unless the cell does not stop within the interrupt grace:
//! then the kernel is ended and the next cell starts a fresh one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::Stream;
use serde_json::{json, Value};

use super::Kernel;

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

/// A cell whose client went away (dropped armed): it is interrupted, and if it has not
/// ended within the settings' grace (a cell deaf to SIGINT), its kernel is ended, to start
/// afresh with the next cell, so that one cell cannot hold the context for ever.
struct Abandoned {
    kernel: Option<Arc<Kernel>>,
    id: u64,
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        let Some(kernel) = self.kernel.take() else { return };
        kernel.running.interrupt();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let id = self.id;
        runtime.spawn(async move {
            let mut held = kernel.driver.lock().await;
            let Some(driver) = held.as_mut() else { return };
            let grace = Duration::from_secs_f64(kernel.settings.interrupt_grace_secs);
            let drained = async { while let Ok(Some(_)) = driver.next_event(id).await {} };
            if tokio::time::timeout(grace, drained).await.is_err() {
                tracing::warn!(
                    "a cell whose client went away did not stop when interrupted; its kernel was ended"
                );
                *held = None;
            }
        });
    }
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
            let mut abandoned = Abandoned { kernel: Some(self.clone()), id };
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
            abandoned.kernel = None;
        }
    }
}
