//! Cells whose outputs leave as they come, for E2B's code-interpreter protocol: each
//! output is one JSON object in E2B's shape (made by `driver.py`), with a keep-alive
//! object while the cell is quiet, so that a client that hung up is noticed by the next
//! write at the latest. Dropping the stream (the client hung up) interrupts the cell; the
//! kernel and its state stay, unless the cell does not stop within the interrupt grace:
//! then the kernel is ended and the next cell starts a fresh one. The next cell may take
//! the kernel before the hang-up is handled (a server notices a gone client only when it
//! writes), so whoever takes the kernel next first gives the abandoned cell the rest of
//! its grace: a cell sent behind a deaf one would wait for it for ever.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::Stream;
use serde_json::{json, Value};

use super::driver::Driver;
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
    cell: AbandonedCell,
}

/// Which cell was abandoned (of which driver), and until when it may take to stop.
#[derive(Clone, Copy)]
pub(super) struct AbandonedCell {
    driver_pid: u32,
    id: u64,
    stop_by: Instant,
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        let Some(kernel) = self.kernel.take() else { return };
        kernel.running.interrupt();
        let grace = Duration::from_secs_f64(kernel.settings.interrupt_grace_secs);
        let cell = AbandonedCell {
            stop_by: Instant::now() + grace,
            ..self.cell
        };
        *kernel.abandoned.lock().unwrap_or_else(|p| p.into_inner()) = Some(cell);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let mut held = kernel.driver.lock().await;
            kernel.settle_abandoned(&mut held).await;
        });
    }
}

impl Kernel {
    /// Gives an abandoned cell of the held driver the rest of its grace to stop, and ends
    /// the kernel when it does not. Called by whoever takes the driver first.
    pub(super) async fn settle_abandoned(&self, held: &mut Option<Driver>) {
        let Some(cell) = self.abandoned.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return;
        };
        let Some(driver) = held.as_mut().filter(|driver| driver.pid() == cell.driver_pid) else {
            return;
        };
        let drained = async { while let Ok(Some(_)) = driver.next_event(cell.id).await {} };
        if tokio::time::timeout_at(cell.stop_by.into(), drained)
            .await
            .is_err()
        {
            tracing::warn!(
                "a cell whose client went away did not stop when interrupted; its kernel was ended"
            );
            *held = None;
        }
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
            self.settle_abandoned(&mut held).await;
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
            let mut abandoned = Abandoned {
                kernel: Some(self.clone()),
                cell: AbandonedCell { driver_pid: driver.pid(), id, stop_by: Instant::now() },
            };
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
