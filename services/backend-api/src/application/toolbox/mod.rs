//! Each person's tool box (see [`crate::domain::toolbox`]): what the Settings page and
//! its API do — keep a tool the agent registered in one of the person's chats (its files
//! copied from that chat's sandbox), list, read, enable or disable and delete kept
//! tools — what an admin does — read anyone's and publish one for everyone — and what a
//! chat's run asks: the tools it gets.
//!
//! A kept tool is its owner's: every use case takes the caller, and another person's id
//! is not found (404) on every route, but for an admin reading or publishing it.

mod copy;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

pub use copy::write_files;

use super::error::{AppError, AppResult};
use super::principal::{require_admin, Principal};
use super::sessions::SessionService;
use crate::domain::agent_server::AgentServer;
use crate::domain::ids::KeptToolId;
use crate::domain::mcp::McpServerName;
use crate::domain::ports::{AgentServerRepository, SandboxFiles, SandboxGateway, ToolboxRepository};
use crate::domain::session::SessionId;
use crate::domain::toolbox::{KeptInsert, KeptTool, MAX_KEPT_TOOLS};
use crate::domain::user::{Role, UserId};

/// The most failures [`ToolboxService::failed`] remembers before it starts over.
const MAX_FAILURES_REMEMBERED: usize = 10_000;

pub struct ToolboxService {
    store: Arc<dyn ToolboxRepository>,
    sessions: Arc<SessionService>,
    agent_servers: Arc<dyn AgentServerRepository>,
    sandboxes: Arc<dyn SandboxGateway>,
    files: Arc<dyn SandboxFiles>,
    /// The kept tools (id and `kept_at`, so keeping one again tries it again) that could
    /// not be registered in a chat: not tried there again (files written, server
    /// started) at every turn, while this process runs.
    failures: Mutex<HashSet<(SessionId, KeptToolId, DateTime<Utc>)>>,
}

impl ToolboxService {
    pub fn new(
        store: Arc<dyn ToolboxRepository>,
        sessions: Arc<SessionService>,
        agent_servers: Arc<dyn AgentServerRepository>,
        sandboxes: Arc<dyn SandboxGateway>,
        files: Arc<dyn SandboxFiles>,
    ) -> Self {
        Self {
            store,
            sessions,
            agent_servers,
            sandboxes,
            files,
            failures: Mutex::default(),
        }
    }

    /// Whether `tool` could not be registered in the chat `session` before.
    pub fn failed(&self, session: &SessionId, tool: &KeptTool) -> bool {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.contains(&(session.clone(), tool.id.clone(), tool.kept_at))
    }

    /// Remembers that `tool` could not be registered in the chat `session`.
    pub fn remember_failure(&self, session: &SessionId, tool: &KeptTool) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() >= MAX_FAILURES_REMEMBERED {
            failures.clear();
        }
        failures.insert((session.clone(), tool.id.clone(), tool.kept_at));
    }

    /// Keeps the server registered as `name` in the person's chat `session`: its command,
    /// tools and files. One the person already keeps under that name is replaced (and
    /// unpublished: its code is new to the admin).
    pub async fn keep(&self, owner: &UserId, session: &str, name: &str) -> AppResult<KeptTool> {
        let session = self.sessions.get(owner, session).await?;
        let name = McpServerName::parse(name)?;
        let registered = self.agent_servers.agent_servers(&session.id).await?;
        let server = registered
            .into_iter()
            .find(|server| server.name == name)
            .ok_or(AppError::NotFound("tool registered in this chat"))?;
        let mine = self.store.kept_tools(Some(owner)).await?;
        let replaced = mine.iter().find(|tool| tool.name == name);
        if replaced.is_none() && mine.len() >= MAX_KEPT_TOOLS {
            return Err(full());
        }
        let sandbox = self
            .sandboxes
            .acquire(&session.id, owner, session.network)
            .await?;
        let files = copy::read_files(self.files.as_ref(), &sandbox, &server.command, &server.args).await?;
        let replaced = replaced.map(|tool| tool.id.clone());
        let tool = KeptTool {
            id: replaced.clone().unwrap_or_default(),
            owner: owner.clone(),
            name,
            command: server.command,
            args: server.args,
            tools: server.tools,
            files,
            enabled: true,
            published: false,
            from_session: session.id,
            kept_at: Utc::now(),
        };
        if replaced.is_some() {
            self.store.put_kept_tool(&tool).await?;
            return Ok(tool);
        }
        match self.store.insert_kept_tool(&tool, MAX_KEPT_TOOLS).await? {
            KeptInsert::Kept => Ok(tool),
            KeptInsert::Full => Err(full()),
            KeptInsert::NameTaken => Err(AppError::Conflict(format!(
                "a tool named {:?} was kept at the same time; keep it again to replace that one",
                tool.name.as_str()
            ))),
        }
    }

    /// The servers registered in the person's chat `session`, by name, each with the
    /// id of the person's kept tool of its name, if they keep one.
    pub async fn registered(
        &self,
        owner: &UserId,
        session: &str,
    ) -> AppResult<Vec<(AgentServer, Option<KeptToolId>)>> {
        let session = self.sessions.get(owner, session).await?;
        let kept = self.store.kept_tools(Some(owner)).await?;
        let servers = self.agent_servers.agent_servers(&session.id).await?;
        Ok(servers
            .into_iter()
            .map(|server| {
                let id = kept
                    .iter()
                    .find(|tool| tool.name == server.name)
                    .map(|tool| tool.id.clone());
                (server, id)
            })
            .collect())
    }

    /// The caller's kept tools, by name; every person's for an admin asking for all.
    pub async fn list(&self, caller: &Principal, everyone: bool) -> AppResult<Vec<KeptTool>> {
        if everyone {
            require_admin(caller)?;
            return Ok(self.store.kept_tools(None).await?);
        }
        Ok(self.store.kept_tools(Some(&caller.user_id)).await?)
    }

    /// One kept tool with its files: the caller's, or anyone's for an admin.
    pub async fn get(&self, caller: &Principal, id: &str) -> AppResult<KeptTool> {
        let tool = self.find(id).await?;
        if tool.owner == caller.user_id || caller.role == Role::Admin {
            Ok(tool)
        } else {
            Err(AppError::NotFound("kept tool"))
        }
    }

    /// Whether the owner's later chats get it.
    pub async fn set_enabled(&self, owner: &UserId, id: &str, enabled: bool) -> AppResult<KeptTool> {
        let mut tool = self.owned(owner, id).await?;
        tool.enabled = enabled;
        self.store.put_kept_tool(&tool).await?;
        Ok(tool)
    }

    /// Deletes it; chats it was registered in drop that registration at their next turn.
    pub async fn delete(&self, owner: &UserId, id: &str) -> AppResult<()> {
        let tool = self.owned(owner, id).await?;
        Ok(self.store.remove_kept_tool(&tool.id).await?)
    }

    /// Publishes it for every person's chats (admins only), if it is still what the
    /// admin read: the one kept at `read`; `Conflict` when its owner kept it anew since.
    pub async fn publish(&self, caller: &Principal, id: &str, read: DateTime<Utc>) -> AppResult<KeptTool> {
        require_admin(caller)?;
        let mut tool = self.find(id).await?;
        if tool.kept_at != read {
            return Err(AppError::Conflict(format!(
                "{:?} was kept anew at {} (the code you read was kept at {read}): read its code again before publishing it",
                tool.name.as_str(),
                tool.kept_at
            )));
        }
        tool.published = true;
        self.store.put_kept_tool(&tool).await?;
        Ok(tool)
    }

    /// Withdraws its publication (admins only).
    pub async fn unpublish(&self, caller: &Principal, id: &str) -> AppResult<KeptTool> {
        require_admin(caller)?;
        let mut tool = self.find(id).await?;
        tool.published = false;
        self.store.put_kept_tool(&tool).await?;
        Ok(tool)
    }

    /// The kept tools a chat of `owner` gets, by name: their own enabled ones, then the
    /// published ones of others whose names are not taken by those.
    pub async fn offered(&self, owner: &UserId) -> AppResult<Vec<KeptTool>> {
        let mut offered: Vec<KeptTool> = self
            .store
            .kept_tools(Some(owner))
            .await?
            .into_iter()
            .filter(|tool| tool.enabled)
            .collect();
        for tool in self.store.published_tools().await? {
            if tool.owner != *owner && !offered.iter().any(|mine| mine.name == tool.name) {
                offered.push(tool);
            }
        }
        Ok(offered)
    }

    async fn find(&self, id: &str) -> AppResult<KeptTool> {
        let id = KeptToolId::parse(id)?;
        let tool = self.store.kept_tool(&id).await?;
        tool.ok_or(AppError::NotFound("kept tool"))
    }

    async fn owned(&self, owner: &UserId, id: &str) -> AppResult<KeptTool> {
        match self.find(id).await? {
            tool if tool.owner == *owner => Ok(tool),
            _ => Err(AppError::NotFound("kept tool")),
        }
    }
}

fn full() -> AppError {
    AppError::Invalid(format!(
        "a tool box holds at most {MAX_KEPT_TOOLS} tools; delete one first"
    ))
}
