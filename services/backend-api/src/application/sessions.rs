//! Sessions of one user: create, list, get, edit (title, model), delete, stop, read
//! (replay links are `sharing`'s). Another user's session is "not found", never
//! "forbidden": its existence stays private.
//!
//! A session's model may change at any time; the turn in progress keeps the model it
//! started with and the next turn asks the new one (the run reads it when a turn begins),
//! so a change never needs the run to be idle.

use std::sync::Arc;

use chrono::Utc;

use super::error::{AppError, AppResult};
use super::events::EventService;
use crate::domain::event::{AgentEvent, MessageRole, StoredEvent};
use crate::domain::image::{ImageFormat, ImageId};
use crate::domain::model::ModelCatalog;
use crate::domain::ports::{ImageStore, SandboxGateway, SessionRepository};
use crate::domain::session::{Network, Session, SessionId, SessionStatus, Title};
use crate::domain::user::UserId;

/// Longest user message accepted, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 100 * 1024;

/// Most files one message may refer to.
pub const MAX_ATTACHMENTS: usize = 20;

/// Whether a person's message may be stored: not empty, not too large, with at most
/// [`MAX_ATTACHMENTS`] attachments that look like file paths.
pub fn check_message(content: &str, attachments: &[String]) -> AppResult<()> {
    if attachments.len() > MAX_ATTACHMENTS {
        return Err(AppError::Invalid(format!(
            "a message may have at most {MAX_ATTACHMENTS} attachments"
        )));
    }
    if attachments
        .iter()
        .any(|a| a.trim().is_empty() || a.len() > 4096 || a.contains('\0'))
    {
        return Err(AppError::Invalid(
            "an attachment is not a file path (use the path the upload answered)".into(),
        ));
    }
    if content.trim().is_empty() {
        return Err(AppError::Invalid("the message is empty".into()));
    }
    if content.len() > MAX_MESSAGE_BYTES {
        return Err(AppError::TooLarge(format!(
            "a message may have at most {} KiB",
            MAX_MESSAGE_BYTES / 1024
        )));
    }
    Ok(())
}

/// What a person changes of a session; `None` leaves a part as it is.
pub struct SessionEdit<'a> {
    pub title: Option<&'a str>,
    /// A name of the offered models.
    pub model: Option<&'a str>,
}

pub struct SessionService {
    pub(super) sessions: Arc<dyn SessionRepository>,
    models: Arc<ModelCatalog>,
    pub(super) events: Arc<EventService>,
    sandboxes: Arc<dyn SandboxGateway>,
    pub(super) images: Arc<dyn ImageStore>,
}

impl SessionService {
    pub fn new(
        sessions: Arc<dyn SessionRepository>,
        events: Arc<EventService>,
        sandboxes: Arc<dyn SandboxGateway>,
        images: Arc<dyn ImageStore>,
        models: Arc<ModelCatalog>,
    ) -> Self {
        Self {
            sessions,
            models,
            events,
            sandboxes,
            images,
        }
    }

    /// The models a person may pick, the default first.
    pub fn models(&self) -> &ModelCatalog {
        &self.models
    }

    /// A new session with the model named (the default one when `None`) whose sandboxes
    /// all get `network` (the sandbox-manager's default when `None`).
    pub async fn create(
        &self,
        owner: &UserId,
        title: Option<&str>,
        model: Option<&str>,
        network: Option<Network>,
    ) -> AppResult<Session> {
        let title = Title::parse(title.unwrap_or("New chat"))?;
        let model = self.models.pick(model)?.map(|m| m.name.clone());
        let session = Session::new(owner.clone(), title, model, network, Utc::now());
        self.sessions.insert(&session).await?;
        self.events.publish_session(&session).await;
        Ok(session)
    }

    /// Marks `session` as a job's (see [`Session::headless`]), for good.
    pub async fn hand_to_job(&self, mut session: Session) -> AppResult<Session> {
        if !session.headless {
            session.headless = true;
            self.sessions.update(&session).await?;
        }
        Ok(session)
    }

    /// Newest first; `before` is the last id of the previous page.
    pub async fn list(&self, owner: &UserId, before: Option<&str>, limit: usize) -> AppResult<Vec<Session>> {
        let before = match before {
            Some(raw) => Some(
                SessionId::parse(raw).map_err(|_| AppError::Invalid("before is not a session id".into()))?,
            ),
            None => None,
        };
        Ok(self
            .sessions
            .list_for(owner, before.as_ref(), limit.clamp(1, 100))
            .await?)
    }

    /// The caller's session, or `NotFound`.
    pub async fn get(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let id = SessionId::parse(id)?;
        match self.sessions.get(&id).await? {
            Some(session) if &session.owner == owner => Ok(session),
            _ => Err(AppError::NotFound("session")),
        }
    }

    pub async fn edit(&self, owner: &UserId, id: &str, edit: SessionEdit<'_>) -> AppResult<Session> {
        let title = edit.title.map(Title::parse).transpose()?;
        let model = match edit.model {
            Some(name) => self.models.pick(Some(name))?.map(|m| m.name.clone()),
            None => None,
        };
        let mut session = self.get(owner, id).await?;
        if let Some(title) = title {
            session.title = title;
        }
        if model.is_some() {
            session.model = model;
        }
        session.updated_at = Utc::now();
        self.sessions.update(&session).await?;
        self.events.publish_session(&session).await;
        Ok(session)
    }

    /// Removes the session, its events and its sandbox.
    pub async fn delete(&self, owner: &UserId, id: &str) -> AppResult<()> {
        let session = self.get(owner, id).await?;
        self.sandboxes.release(&session.id).await?;
        self.sessions.delete(&session.id).await?;
        self.events.publish_deleted(&session).await;
        Ok(())
    }

    /// Ends the agent's work on the session (status `completed`); a no-op when idle.
    pub async fn stop(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let session = self.get(owner, id).await?;
        if !matches!(session.status, SessionStatus::Running | SessionStatus::Waiting) {
            return Ok(session);
        }
        let stop = AgentEvent::Status {
            status: SessionStatus::Completed,
        };
        Ok(self.events.append(&session.id, stop).await?.1)
    }

    /// The owner has seen everything: the unread count goes to zero.
    pub async fn mark_read(&self, owner: &UserId, id: &str) -> AppResult<Session> {
        let mut session = self.get(owner, id).await?;
        if session.unread_count > 0 {
            session.unread_count = 0;
            self.sessions.update(&session).await?;
            self.events.publish_session(&session).await;
        }
        Ok(session)
    }

    /// Stores the person's message in the session's log.
    /// `attachments` are paths in the sandbox (as [`super::files::FileService::attach`]
    /// answers them).
    pub async fn post_message(
        &self,
        owner: &UserId,
        id: &str,
        content: &str,
        attachments: &[String],
    ) -> AppResult<StoredEvent> {
        let session = self.get(owner, id).await?;
        check_message(content, attachments)?;
        let message = AgentEvent::Message {
            role: MessageRole::User,
            content: content.to_owned(),
            attachments: attachments.to_vec(),
        };
        Ok(self.events.append(&session.id, message).await?.0)
    }

    /// An image (screenshot, chart) of one of the owner's sessions, with its format.
    pub async fn image(&self, owner: &UserId, id: &str, name: &str) -> AppResult<(Vec<u8>, ImageFormat)> {
        let session = self.get(owner, id).await?;
        self.read_image(&session, name).await
    }

    pub(super) async fn read_image(
        &self,
        session: &Session,
        name: &str,
    ) -> AppResult<(Vec<u8>, ImageFormat)> {
        let id = ImageId::parse(name)?;
        let bytes = self
            .images
            .get(&session.id, &id)
            .await?
            .ok_or(AppError::NotFound("image"))?;
        Ok((bytes, id.format()))
    }
}
