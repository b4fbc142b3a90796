//! The fake ports the run is tested against: a scripted model that records each request,
//! a recorded sandbox that keeps the typed calls it got, one sandbox for every session,
//! and no MCP servers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use tokio::sync::Notify;
use tool_api_contract::code::{CodeError, CodeRunRequest};

use crate::domain::agent::{
    ChatMessage, Completion, SandboxAccess, SandboxSize, ToolCallRequest, ToolOutcome,
};
use crate::domain::agent_server::AgentServer;
use crate::domain::mcp::{McpResult, McpServerName, McpServerStatus, McpSite, McpTool};
use crate::domain::model::ModelName;
use crate::domain::ports::{LlmClient, McpServers, SandboxGateway, SandboxTools};
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::session::{Network, SessionId};
use crate::domain::tool::{CodeCell, ToolSpec, ToolView};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// A model that answers from a script and records what it was sent. With `hold_first`,
/// the first request waits until `release` is rung.
#[derive(Default)]
pub(super) struct ScriptedModel {
    pub(super) replies: Mutex<VecDeque<Completion>>,
    pub(super) requests: Mutex<Vec<Vec<ChatMessage>>>,
    pub(super) hold_first: bool,
    pub(super) asked: Notify,
    pub(super) release: Notify,
}

#[async_trait::async_trait]
impl LlmClient for ScriptedModel {
    async fn complete(
        &self,
        _model: &ModelName,
        messages: &[ChatMessage],
        _tools: &[ToolSpec],
    ) -> DomainResult<Completion> {
        let first = {
            let mut requests = self.requests.lock().unwrap();
            requests.push(messages.to_vec());
            requests.len() == 1
        };
        if first && self.hold_first {
            self.asked.notify_one();
            self.release.notified().await;
        }
        Ok(self.replies.lock().unwrap().pop_front().unwrap_or_default())
    }
}

pub(super) fn call(name: &str, arguments: &str) -> Completion {
    Completion {
        tool_calls: vec![ToolCallRequest {
            id: format!("call-{name}"),
            name: name.into(),
            arguments: arguments.into(),
        }],
        ..Completion::default()
    }
}

pub(super) fn text(content: &str) -> Completion {
    Completion {
        content: Some(content.into()),
        ..Completion::default()
    }
}

/// A sandbox that records the typed calls it gets, and the shell each ran in, and answers
/// each with `output` (or "recorded output"); `sleep …` never ends, and a code cell fails
/// when its code starts with `raise`.
#[derive(Default)]
pub(super) struct RecordedSandbox {
    pub(super) calls: Mutex<Vec<SandboxCall>>,
    pub(super) shells: Mutex<Vec<String>>,
    pub(super) interrupted: AtomicUsize,
    pub(super) output: Mutex<Option<String>>,
}

#[async_trait::async_trait]
impl SandboxTools for RecordedSandbox {
    async fn call(&self, sandbox: &SandboxAccess, call: &SandboxCall) -> DomainResult<ToolOutcome> {
        self.calls.lock().unwrap().push(call.clone());
        self.shells.lock().unwrap().push(sandbox.shell.clone());
        if let SandboxCall::ShellExec(exec) = call {
            if exec.command.starts_with("sleep") {
                std::future::pending::<()>().await;
            }
        }
        let output = self.output.lock().unwrap().clone();
        Ok(ToolOutcome {
            text: output.unwrap_or_else(|| "recorded output".into()),
            view: match call {
                SandboxCall::CodeRun(run) => ToolView::Code(Box::new(cell(run))),
                _ => ToolView::error("not a real sandbox"),
            },
            images: Vec::new(),
        })
    }

    async fn interrupt(&self, _sandbox: &SandboxAccess) -> DomainResult<()> {
        self.interrupted.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// The cell a `code_run` shows: failed when its code starts with `raise`.
fn cell(run: &CodeRunRequest) -> CodeCell {
    CodeCell {
        code: run.code.clone(),
        language: run.language,
        execution_count: Some(1),
        stdout: String::new(),
        stderr: String::new(),
        outputs: Vec::new(),
        error: run.code.starts_with("raise").then(|| CodeError {
            name: "ValueError".into(),
            value: "raised on purpose".into(),
            traceback: String::new(),
        }),
        timed_out: false,
        kernel_restarted: None,
    }
}

pub(super) struct OneSandbox;

#[async_trait::async_trait]
impl SandboxGateway for OneSandbox {
    async fn acquire(
        &self,
        _session: &SessionId,
        _owner: &UserId,
        _network: Option<Network>,
    ) -> DomainResult<SandboxAccess> {
        Ok(SandboxAccess {
            tool_api_url: "http://sandbox.invalid".into(),
            tool_api_token: "token".into(),
            shell: SandboxAccess::AGENT_SHELL.to_owned(),
            size: SandboxSize::default(),
        })
    }

    async fn find(&self, _session: &SessionId) -> DomainResult<Option<SandboxAccess>> {
        Ok(None)
    }

    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        Ok(())
    }
}

pub(super) struct NoMcp;

#[async_trait::async_trait]
impl McpServers for NoMcp {
    async fn status(&self, _site: Option<&McpSite>) -> Vec<McpServerStatus> {
        Vec::new()
    }

    async fn needs_site(&self) -> bool {
        false
    }

    fn runs_in_sandbox(&self, _server: &str) -> bool {
        false
    }

    async fn call(
        &self,
        server: &str,
        _tool: &str,
        _arguments: serde_json::Map<String, serde_json::Value>,
        _site: Option<&McpSite>,
    ) -> Result<McpResult, String> {
        Err(format!("no server {server}"))
    }

    async fn configured(&self, _name: &McpServerName) -> bool {
        false
    }

    async fn start_agent_server(
        &self,
        _site: &McpSite,
        name: &McpServerName,
        _command: &str,
        _args: &[String],
    ) -> Result<Vec<McpTool>, String> {
        Err(format!("no server {}", name.as_str()))
    }

    async fn call_agent_server(
        &self,
        _site: &McpSite,
        server: &AgentServer,
        _tool: &str,
        _arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<McpResult, String> {
        Err(format!("no server {}", server.name.as_str()))
    }

    fn stop_agent_server(&self, _site: &McpSite, _name: &McpServerName) {}
}
