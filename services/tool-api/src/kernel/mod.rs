//! The code interpreter: one Jupyter kernel per sandbox, started on first use (or with
//! the server, to be warm), running in the workspace as the sandbox user with the shell's
//! environment less the tool-api's secrets. Cells run one at a time; state lives on
//! between them until the kernel is restarted, on request or because it died.
//!
//! The kernel is held by a driver program (`driver.py`, speaking Jupyter's protocol
//! through `jupyter_client`) that answers each cell with one bounded result. This side
//! owns the timeouts: a cell past its time gets SIGINT (as Jupyter's own interrupt does);
//! one that still does not stop costs the kernel, which is started afresh. A call that is
//! cancelled mid-cell (the agent was stopped) interrupts its cell too.
//!
//! The same kernel can also run a cell streamed (`stream`): its outputs leave one by one
//! as they come, for E2B's code-interpreter protocol (see `crate::interpreter`).

mod driver;
mod stream;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;
use tool_api_contract::code::{CodeLanguage, CodeRunRequest, CodeRunResult, KernelRestarted};
use tool_api_contract::ErrorCode;

use crate::config::KernelSettings;
use crate::error::{ToolError, ToolResult};
use crate::network_gate::NetworkGate;
use driver::{Driver, Running};
pub use stream::{error_event, CellEnv};

pub struct Kernel {
    settings: KernelSettings,
    cwd: PathBuf,
    /// The kernel starts once it is open (see `crate::network_gate`).
    network_gate: Arc<NetworkGate>,
    driver: Mutex<Option<Driver>>,
    running: Running,
    /// Why the running cell was interrupted from outside, for its answer's stderr.
    interrupted_for: std::sync::Mutex<Option<String>>,
    /// A streamed cell whose client went away and that has not been seen to stop yet
    /// (see `stream::Abandoned`): whoever takes the driver next settles it first.
    abandoned: std::sync::Mutex<Option<stream::AbandonedCell>>,
    /// A start ahead of use is under way ([`Kernel::prewarm`]).
    warming: AtomicBool,
}

impl Kernel {
    pub fn new(settings: KernelSettings, cwd: PathBuf, network_gate: Arc<NetworkGate>) -> Arc<Self> {
        Arc::new(Self {
            settings,
            cwd,
            network_gate,
            driver: Mutex::new(None),
            running: Running::default(),
            interrupted_for: std::sync::Mutex::new(None),
            abandoned: std::sync::Mutex::new(None),
            warming: AtomicBool::new(false),
        })
    }

    /// Starts the kernel in the background, ahead of its first cell; [`Kernel::warming`]
    /// until it has started (or failed to: the first cell then tries again).
    pub fn prewarm(self: &Arc<Self>) {
        self.warming.store(true, Ordering::SeqCst);
        let kernel = self.clone();
        tokio::spawn(async move {
            let mut driver = kernel.driver.lock().await;
            if driver.is_none() {
                match kernel.start().await {
                    Ok(started) => *driver = Some(started),
                    Err(err) => tracing::warn!(%err, "the kernel did not start ahead of use"),
                }
            }
            kernel.warming.store(false, Ordering::SeqCst);
        });
    }

    /// Whether a start ahead of use is still under way.
    pub fn warming(&self) -> bool {
        self.warming.load(Ordering::SeqCst)
    }

    pub async fn run(&self, request: CodeRunRequest) -> ToolResult<CodeRunResult> {
        let timeout = self.timeout(request.timeout_secs)?;
        if request.code.trim().is_empty() {
            return Err(ToolError::invalid("code is empty"));
        }
        let code = match request.language {
            CodeLanguage::Python => request.code,
            CodeLanguage::Bash => format!("%%bash\n{}", request.code),
        };
        let mut held = self.driver.lock().await;
        self.settle_abandoned(&mut held).await;
        if held.is_none() {
            *held = Some(self.start().await?);
        }
        let Some(driver) = held.as_mut() else {
            return Err(anyhow::anyhow!("the kernel's driver vanished").into());
        };
        let mut restarted = None;
        self.interrupted_for
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let id = match driver.send(&code).await {
            Ok(id) => id,
            Err(ended) => {
                // The driver died between cells: one fresh start, and the cell says so.
                driver.kill();
                *driver = self.start().await?;
                restarted = Some(format!(
                    "The kernel had stopped ({ended}); it was started afresh, so earlier \
                     cells' variables are gone."
                ));
                driver.send(&code).await.map_err(unavailable)?
            }
        };
        let mut result = self.finish(driver, id, timeout).await;
        result.kernel_restarted = result.kernel_restarted.or(restarted);
        if let Some(note) = self
            .interrupted_for
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            result.stderr.push_str(&format!("\n{note}\n"));
        }
        Ok(result)
    }

    /// The cell's answer, interrupting it at its timeout; a kernel lost on the way (it did
    /// not stop when interrupted, or its driver died) is replaced by a fresh one. The
    /// driver stays in place while waiting, so a call cancelled mid-cell (the guard then
    /// interrupts the cell) leaves the kernel and its state as they were.
    async fn finish(&self, driver: &mut Driver, id: u64, timeout: Duration) -> CodeRunResult {
        let mut cancelled = InterruptOnDrop(Some(self.running.clone()));
        let answer = match tokio::time::timeout(timeout, driver.answer(id)).await {
            Ok(answer) => answer.map_err(|ended| Lost {
                reason: format!(
                    "The kernel stopped during the cell ({ended}); it was restarted and \
                     earlier cells' variables are gone."
                ),
                timed_out: false,
            }),
            Err(_) => {
                self.running.interrupt();
                let grace = Duration::from_secs_f64(self.settings.interrupt_grace_secs);
                match tokio::time::timeout(grace, driver.answer(id)).await {
                    Ok(Ok(result)) => Ok(CodeRunResult {
                        timed_out: true,
                        ..result
                    }),
                    _ => Err(Lost {
                        reason: format!(
                            "The cell ran past its {}s and did not stop when interrupted, so \
                             the kernel was restarted and earlier cells' variables are gone.",
                            timeout.as_secs_f64()
                        ),
                        timed_out: true,
                    }),
                }
            }
        };
        cancelled.0 = None;
        match answer {
            Ok(result) => result,
            Err(lost) => {
                driver.kill();
                match self.start().await {
                    Ok(fresh) => *driver = fresh,
                    Err(err) => tracing::warn!(%err, "the kernel did not restart"),
                }
                lost.into_result()
            }
        }
    }

    /// Ends the kernel and starts a new one.
    pub async fn restart(&self) -> ToolResult<KernelRestarted> {
        let mut held = self.driver.lock().await;
        if let Some(mut old) = held.take() {
            old.kill();
        }
        let started = Instant::now();
        *held = Some(self.start().await?);
        Ok(KernelRestarted {
            ready_ms: started.elapsed().as_millis() as u64,
        })
    }

    /// Interrupts the running cell, if any (an idle kernel ignores it); `note` ends the
    /// cell's stderr, saying why.
    pub fn interrupt(&self, note: &str) {
        *self.interrupted_for.lock().unwrap_or_else(|p| p.into_inner()) = Some(note.to_owned());
        self.running.interrupt();
    }

    /// Ends the kernel with the server (a cell still running included).
    pub fn shutdown(&self) {
        self.running.kill();
    }

    async fn start(&self) -> ToolResult<Driver> {
        Driver::start(
            &self.settings,
            &self.cwd,
            self.running.clone(),
            &self.network_gate,
        )
        .await
        .map_err(unavailable)
    }

    fn timeout(&self, asked: Option<f64>) -> ToolResult<Duration> {
        let max = self.settings.max_timeout_secs;
        match asked.unwrap_or(self.settings.default_timeout_secs) {
            secs if secs.is_finite() && secs > 0.0 && secs <= max => Ok(Duration::from_secs_f64(secs)),
            _ => Err(ToolError::invalid(format!(
                "timeout_secs must be more than 0 and at most {max}"
            ))),
        }
    }
}

fn unavailable(reason: String) -> ToolError {
    ToolError::new(
        ErrorCode::KernelUnavailable,
        format!("the code interpreter is not available: {reason}"),
    )
}

/// A cell whose kernel was lost, and why.
struct Lost {
    reason: String,
    timed_out: bool,
}

impl Lost {
    fn into_result(self) -> CodeRunResult {
        CodeRunResult {
            execution_count: None,
            stdout: String::new(),
            stderr: String::new(),
            outputs: Vec::new(),
            outputs_dropped: 0,
            error: None,
            timed_out: self.timed_out,
            kernel_restarted: Some(self.reason),
        }
    }
}

/// Interrupts the kernel's cell when dropped armed (`Some`): the call was cancelled.
struct InterruptOnDrop(Option<Running>);

impl Drop for InterruptOnDrop {
    fn drop(&mut self) {
        if let Some(running) = self.0.take() {
            running.interrupt();
        }
    }
}
