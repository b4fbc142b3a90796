//! The run in-process, against fake ports (`fakes`): a scripted model that records each
//! request, and a recorded sandbox that keeps the typed calls it got. The event log is
//! the real embedded store. End-to-end runs (real HTTP model fake, real sandbox) are in
//! the integration tests; these pin the run's own rules.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{AgentService, Budgets, Cluster, DailyTokens, Dependencies, TakeOver};
use crate::application::events::EventService;
use crate::application::memory::MemoryService;
use crate::application::sessions::SessionService;
use crate::application::toolbox::ToolboxService;
use crate::domain::agent::{ChatMessage, ChatRole, Completion};
use crate::domain::event::{AgentEvent, StoredEvent, ToolStatus};
use crate::domain::model::{ModelCatalog, ModelInfo, ModelName};
use crate::domain::replica::ReplicaId;
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::session::{Session, SessionStatus};
use crate::domain::tool::ToolView;
use crate::domain::user::UserId;
use crate::infrastructure::embedded::EmbeddedStore;
use crate::infrastructure::local_bus::LocalBus;
use crate::infrastructure::local_leases::LocalLeases;
use crate::infrastructure::sandbox_files::ToolApiFiles;
use fakes::{call, text, NoMcp, OneSandbox, RecordedSandbox, ScriptedModel};

mod budgets;
mod calls;
mod delegation;
mod fakes;
mod untrusted;

struct Harness {
    agent: AgentService,
    sessions: Arc<SessionService>,
    events: Arc<EventService>,
    model: Arc<ScriptedModel>,
    sandbox: Arc<RecordedSandbox>,
    owner: UserId,
    _dir: tempfile::TempDir,
}

/// The budgets a harness gives its runs unless a test says otherwise.
fn budgets() -> Budgets {
    Budgets {
        max_steps: 10,
        max_run: Duration::from_secs(30),
        tool_output_chars: 10_000,
        context_chars: 100_000,
        failed_cells: 3,
        delegations: 2,
    }
}

impl Harness {
    fn new(model: ScriptedModel) -> Self {
        Self::with_budgets(model, budgets())
    }

    fn with_budgets(model: ScriptedModel, budgets: Budgets) -> Self {
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
            budgets,
            take_over: Arc::new(TakeOver::default()),
            images: store.clone(),
            mcp: Arc::new(NoMcp),
            agent_servers: store.clone(),
            toolbox: Arc::new(ToolboxService::new(
                store.clone(),
                sessions.clone(),
                store.clone(),
                Arc::new(OneSandbox),
                Arc::new(ToolApiFiles::default()),
            )),
            daily_tokens: DailyTokens::new(store.clone(), None),
            memory: Arc::new(MemoryService::new(store.clone())),
            automations: store.clone(),
            automation_rules: crate::application::automations::rules::AutomationRules {
                max_per_person: 100,
                max_timeout_secs: 3600,
                min_interval: Duration::from_secs(60),
                max_file_bytes: 1024 * 1024,
            },
            image_url: |session, image| format!("/images/{}/{}", session.as_str(), image.file_name()),
            no_model: "No model is configured.".into(),
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
