//! The code interpreter: cells run in one Jupyter kernel per sandbox, which keeps its
//! state (variables, imports) between calls and starts in the workspace.
//!
//! `POST /v1/code/run` answers when the cell ends or its timeout passes; a cell past its
//! timeout is interrupted and the kernel keeps its state. Outputs are bounded: each stream
//! keeps its head and its last lines around a `[… N characters cut …]` marker, huge images
//! are scaled down (or refused when they stay too large) and over-long HTML is dropped in
//! favour of its plain text. `POST /v1/code/restart` starts the kernel afresh.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CodeLanguage {
    #[default]
    Python,
    /// A shell cell (run by the kernel's `%%bash`), sharing the kernel's working directory.
    Bash,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CodeRunRequest {
    pub code: String,
    #[serde(default)]
    #[schema(inline)]
    pub language: CodeLanguage,
    /// How long the cell may run before it is interrupted (default 60 s, capped by the
    /// server).
    #[serde(default)]
    pub timeout_secs: Option<f64>,
}

/// One cell's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CodeRunResult {
    /// The kernel's counter (`In [n]`); absent when the kernel died during the cell.
    pub execution_count: Option<u32>,
    pub stdout: String,
    pub stderr: String,
    /// Display outputs and the cell's value, in the order the kernel produced them.
    pub outputs: Vec<RichOutput>,
    /// Outputs past the limit, not included.
    #[serde(default)]
    pub outputs_dropped: u32,
    pub error: Option<CodeError>,
    /// True when the cell ran past its timeout and was interrupted.
    #[serde(default)]
    pub timed_out: bool,
    /// Why the kernel was started afresh during this call (it died, or did not stop when
    /// interrupted): the state of earlier cells is gone.
    #[serde(default)]
    pub kernel_restarted: Option<String>,
}

impl CodeRunResult {
    /// A cell that did not end well: an exception, a timeout or a dead kernel.
    pub fn failed(&self) -> bool {
        self.error.is_some() || self.timed_out || self.kernel_restarted.is_some()
    }
}

/// One display bundle: every representation the kernel offered that is within limits.
/// `plain` is what a reader without pictures gets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RichOutput {
    #[serde(default)]
    pub plain: Option<String>,
    #[serde(default)]
    pub png: Option<PngImage>,
    #[serde(default)]
    pub svg: Option<String>,
    /// As the kernel gave it; clients sanitise before showing it.
    #[serde(default)]
    pub html: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PngImage {
    /// Base64 of the PNG file.
    pub data: String,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CodeError {
    /// The exception's type, e.g. `ZeroDivisionError`.
    pub name: String,
    pub value: String,
    /// Without colour codes, and cut to its end when long.
    pub traceback: String,
}

/// The answer of `POST /v1/code/restart`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct KernelRestarted {
    /// How long the new kernel took to be ready.
    pub ready_ms: u64,
}
