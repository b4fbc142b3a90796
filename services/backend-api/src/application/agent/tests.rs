//! The run in-process, against fake ports: a scripted model that records each request,
//! and a recorded sandbox that keeps the typed calls it got. The event log is the real
//! embedded store. End-to-end runs (real HTTP model fake, real sandbox) are in the
//! integration tests; these pin the run's own rules.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use super::{AgentService, Budgets, Cluster, DailyTokens, Dependencies, TakeOver};
use crate::application::events::EventService;
use crate::application::sessions::SessionService;
use crate::domain::agent::{
    ChatMessage, ChatRole, Completion, LlmClient, SandboxAccess, SandboxGateway, SandboxSize, SandboxTools,
    ToolCallRequest, ToolOutcome,
};
use crate::domain::event::{AgentEvent, StoredEvent, ToolStatus};
use crate::domain::mcp::{McpResult, McpServerStatus, McpServers, McpSite};
use crate::domain::model::{ModelCatalog, ModelInfo, ModelName};
use crate::domain::replica::ReplicaId;
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::session::{Network, Session, SessionId, SessionStatus};
use crate::domain::tool::{ToolSpec, ToolView};
use crate::domain::user::UserId;
use crate::domain::DomainResult;
use crate::infrastructure::embedded::EmbeddedStore;
use crate::infrastructure::local_bus::LocalBus;
use crate::infrastructure::local_leases::LocalLeases;
use crate::infrastructure::sandbox_files::ToolApiFiles;

mod untrusted;

/// A model that answers from a script and records what it was sent. With `hold_first`,
/// the first request waits until `release` is rung.
#[derive(Default)]
struct ScriptedModel {
    replies: Mutex<VecDeque<Completion>>,
    requests: Mutex<Vec<Vec<ChatMessage>>>,
    hold_first: bool,
    asked: Notify,
    release: Notify,
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

fn call(name: &str, arguments: &str) -> Completion {
    Completion {
        tool_calls: vec![ToolCallRequest {
            id: format!("call-{name}"),
            name: name.into(),
            arguments: arguments.into(),
        }],
        ..Completion::default()
    }
}

fn text(content: &str) -> Completion {
    Completion {
        content: Some(content.into()),
        ..Completion::default()
    }
}

/// A sandbox that records the typed calls it gets and answers each with `output` (or
/// "recorded output"); `sleep …` never ends.
#[derive(Default)]
struct RecordedSandbox {
    calls: Mutex<Vec<SandboxCall>>,
    interrupted: AtomicUsize,
    output: Mutex<Option<String>>,
}

#[async_trait::async_trait]
impl SandboxTools for RecordedSandbox {
    async fn call(&self, _sandbox: &SandboxAccess, call: &SandboxCall) -> DomainResult<ToolOutcome> {
        self.calls.lock().unwrap().push(call.clone());
        if let SandboxCall::ShellExec(exec) = call {
            if exec.command.starts_with("sleep") {
                std::future::pending::<()>().await;
            }
        }
        let output = self.output.lock().unwrap().clone();
        Ok(ToolOutcome {
            text: output.unwrap_or_else(|| "recorded output".into()),
            view: ToolView::error("not a real sandbox"),
            images: Vec::new(),
        })
    }

    async fn interrupt(&self, _sandbox: &SandboxAccess) -> DomainResult<()> {
        self.interrupted.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

struct OneSandbox;

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

struct NoMcp;

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
}

struct Harness {
    agent: AgentService,
    sessions: Arc<SessionService>,
    events: Arc<EventService>,
    model: Arc<ScriptedModel>,
    sandbox: Arc<RecordedSandbox>,
    owner: UserId,
    _dir: tempfile::TempDir,
}

impl Harness {
    fn new(model: ScriptedModel) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
        let events = Arc::new(EventService::new(store.clone(), Arc::new(LocalBus::new())));
        let name = ModelName::parse("scripted").unwrap();
        let scripted = ModelInfo {
            name: name.clone(),
            context_tokens: 100_000,
            supports_tools: true,
            supports_images: false,
            prices: None,
        };
        let models = Arc::new(ModelCatalog::new(vec![scripted], &name).unwrap());
        let sessions = Arc::new(SessionService::new(
            store.clone(),
            events.clone(),
            Arc::new(OneSandbox),
            store.clone(),
            models.clone(),
        ));
        let (model, sandbox) = (Arc::new(model), Arc::new(RecordedSandbox::default()));
        let deps = Dependencies {
            events: events.clone(),
            sessions: store.clone(),
            llm: model.clone(),
            models,
            sandboxes: Arc::new(OneSandbox),
            tools: sandbox.clone(),
            files: Arc::new(ToolApiFiles::default()),
            web_search: None,
            budgets: Budgets {
                max_steps: 10,
                max_run: Duration::from_secs(30),
                tool_output_chars: 10_000,
                context_chars: 100_000,
                failed_cells: 3,
                delegations: 2,
            },
            take_over: Arc::new(TakeOver::default()),
            images: store.clone(),
            mcp: Arc::new(NoMcp),
            daily_tokens: DailyTokens::new(store.clone(), None),
        };
        Self {
            agent: AgentService::new(
                sessions.clone(),
                deps,
                Cluster {
                    replica: ReplicaId::new("test"),
                    leases: Arc::new(LocalLeases::default()),
                    bus: Arc::new(LocalBus::new()),
                    lease: Duration::from_secs(10),
                    alone: true,
                },
                true,
            ),
            sessions,
            events,
            model,
            sandbox,
            owner: UserId::new(),
            _dir: dir,
        }
    }

    async fn session(&self) -> Session {
        self.sessions.create(&self.owner, None, None, None).await.unwrap()
    }

    async fn say(&self, session: &Session, content: &str) {
        self.agent
            .post_message(&self.owner, session.id.as_str(), content, &[])
            .await
            .unwrap();
    }

    /// The log once the session's status is `status`.
    async fn until(&self, session: &Session, status: SessionStatus) -> Vec<StoredEvent> {
        for _ in 0..500 {
            let log = self.events.page(&session.id, 0, 1000).await.unwrap();
            let reached = log
                .iter()
                .rev()
                .find_map(|e| match e.event {
                    AgentEvent::Status { status } => Some(status),
                    _ => None,
                })
                .is_some_and(|s| s == status);
            if reached {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the session never became {status:?}");
    }
}

fn tool_events(log: &[StoredEvent]) -> Vec<(ToolStatus, Option<ToolView>)> {
    log.iter()
        .filter_map(|e| match &e.event {
            AgentEvent::Tool { status, view, .. } => Some((*status, view.clone())),
            _ => None,
        })
        .collect()
}

/// The id of the untrusted block `text` holds after the backend's own words, and what
/// it wraps; the block must end `text`.
fn untrusted_block(text: &str) -> (&str, &str) {
    let (_, rest) = text
        .split_once("<untrusted-output id=\"")
        .unwrap_or_else(|| panic!("no untrusted block: {text}"));
    let (id, rest) = rest.split_once("\">\n").unwrap();
    let inside = rest
        .strip_suffix(&format!("\n</untrusted-output id=\"{id}\">"))
        .unwrap_or_else(|| panic!("the block does not close at the end: {text}"));
    (id, inside)
}

fn tool_results(request: &[ChatMessage]) -> Vec<String> {
    request
        .iter()
        .filter(|m| m.role == ChatRole::Tool)
        .filter_map(|m| m.content.clone())
        .collect()
}

#[tokio::test]
async fn a_sandbox_call_is_sent_typed_and_its_result_reaches_the_model() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("shell_exec", r#"{"command": "ls -la"}"#),
            text("Listed."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "What is here?").await;
    let log = h.until(&session, SessionStatus::Completed).await;

    let calls = h.sandbox.calls.lock().unwrap().clone();
    assert!(
        matches!(calls.as_slice(), [SandboxCall::ShellExec(exec)] if exec.command == "ls -la"),
        "{calls:?}"
    );
    let tools = tool_events(&log);
    assert_eq!(tools.len(), 2, "{tools:?}");
    assert_eq!(tools[0], (ToolStatus::Calling, None));
    assert_eq!(tools[1].0, ToolStatus::Called);
    let requests = h.model.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    let results = tool_results(&requests[1]);
    assert_eq!(results.len(), 1);
    assert_eq!(untrusted_block(&results[0]).1, "recorded output");
}

#[tokio::test]
async fn a_message_sent_during_a_request_reaches_the_next_one_once() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("set_title", r#"{"title": "Plans"}"#),
            text("Both done."),
        ])),
        hold_first: true,
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "First").await;
    h.model.asked.notified().await;
    h.say(&session, "Second").await;
    h.model.release.notify_one();
    h.until(&session, SessionStatus::Completed).await;

    let requests = h.model.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "one run took both messages");
    let person = |request: &[ChatMessage]| -> Vec<String> {
        request
            .iter()
            .filter(|m| m.role == ChatRole::User)
            .filter_map(|m| m.content.clone())
            .collect()
    };
    assert_eq!(person(&requests[0]), ["First"]);
    assert_eq!(person(&requests[1]), ["First", "Second"]);
}

#[tokio::test]
async fn a_stop_mid_call_closes_it_and_kills_the_command() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([call(
            "shell_exec",
            r#"{"command": "sleep 600"}"#,
        )])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "Wait a long time").await;
    while h.sandbox.calls.lock().unwrap().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    h.agent.stop(&h.owner, session.id.as_str()).await.unwrap();
    let log = h.events.page(&session.id, 0, 1000).await.unwrap();

    assert_eq!(h.sandbox.interrupted.load(Ordering::SeqCst), 1);
    let tools = tool_events(&log);
    assert_eq!(
        tools,
        [
            (ToolStatus::Calling, None),
            (ToolStatus::Called, Some(ToolView::error("stopped")))
        ]
    );
    let remembered = log.iter().rev().find_map(|e| match &e.event {
        AgentEvent::Memory { messages, .. } => Some(tool_results(messages)),
        _ => None,
    });
    assert_eq!(remembered, Some(vec!["[stopped]".to_owned()]));
}

#[tokio::test]
async fn a_call_of_no_tool_or_with_misfit_arguments_is_opened_closed_and_explained() {
    let model = ScriptedModel {
        replies: Mutex::new(VecDeque::from([
            call("teleport", "{}"),
            call("file_read", r#"{"lines": 3}"#),
            text("Gave up."),
        ])),
        ..ScriptedModel::default()
    };
    let h = Harness::new(model);
    let session = h.session().await;
    h.say(&session, "Do the impossible").await;
    let log = h.until(&session, SessionStatus::Completed).await;

    assert!(
        h.sandbox.calls.lock().unwrap().is_empty(),
        "nothing reached the sandbox"
    );
    let statuses: Vec<ToolStatus> = tool_events(&log).into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        statuses,
        [
            ToolStatus::Calling,
            ToolStatus::Called,
            ToolStatus::Calling,
            ToolStatus::Called
        ]
    );
    let requests = h.model.requests.lock().unwrap().clone();
    let told = tool_results(&requests[2]);
    assert!(told[0].contains("no tool named teleport"), "{told:?}");
    assert!(
        told[1].contains("do not fit file_read") && told[1].contains("path"),
        "{told:?}"
    );
}
