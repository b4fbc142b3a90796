//! Reaching a running rented sandbox: a data-plane request admitted by the sandbox's
//! token, and the owner's reading of what it uses. Where its tool-api runs is asked of
//! the sandbox-manager and kept a moment (`found.rs`).

use chrono::Utc;

use super::tokens::TokenKind;
use super::E2bService;
use crate::application::{AppError, AppResult};
use crate::domain::agent::SandboxAccess;
use crate::domain::e2b::{E2bMetrics, E2bSandboxId, E2bState, MetricsWindow};
use crate::domain::user::UserId;

impl E2bService {
    /// The running sandbox a data-plane request is for, when it carries the sandbox's
    /// access token, or its traffic token where `traffic` may open the way (the code
    /// interpreter). A wrong or missing token is refused as E2B's proxy does; a sandbox
    /// that has ended or is paused is gone.
    pub async fn admit(
        &self,
        id: &str,
        access: Option<&str>,
        traffic: Option<&str>,
    ) -> AppResult<SandboxAccess> {
        let id = E2bSandboxId::parse(id)?;
        if access.is_none() && traffic.is_none() {
            return Err(AppError::Unauthorized(
                "send the sandbox's access token as X-Access-Token".into(),
            ));
        }
        let opens = access.is_some_and(|token| self.keys.opens(TokenKind::Access, &id, token))
            || traffic.is_some_and(|token| self.keys.opens(TokenKind::Traffic, &id, token));
        if !opens {
            return Err(AppError::Unauthorized(
                "this access token is not the sandbox's (connect to it again for a fresh one)".into(),
            ));
        }
        self.locate(&id).await
    }

    /// Forgets where the sandbox was found, when its tool-api did not answer there (it
    /// ended, or its container was started again elsewhere).
    pub fn unreachable(&self, id: &str) {
        if let Ok(id) = E2bSandboxId::parse(id) {
            self.found.forget(&id);
        }
    }

    /// What the owner's sandbox uses now: one reading while it runs, none while paused
    /// (E2B answers a time series; this is its newest point), and none when `window`
    /// does not reach the present.
    pub async fn metrics(
        &self,
        owner: &UserId,
        id: &str,
        window: MetricsWindow,
    ) -> AppResult<Vec<E2bMetrics>> {
        let sandbox = self.get(owner, id).await?;
        if sandbox.state == E2bState::Paused || !window.holds(Utc::now()) {
            return Ok(Vec::new());
        }
        let access = self.locate(&sandbox.id).await?;
        Ok(vec![self.environment.metrics(&access).await?])
    }

    /// Where the sandbox's tool-api runs; `410` with why when it does not.
    pub(super) async fn locate(&self, id: &E2bSandboxId) -> AppResult<SandboxAccess> {
        if let Some(access) = self.found.get(id) {
            return Ok(access);
        }
        let record = self.sandboxes.get(id).await?;
        if let Some(sandbox) = &record {
            let active = self
                .users
                .by_id(&sandbox.owner)
                .await?
                .is_some_and(|user| user.active);
            if !active {
                return Err(AppError::Unauthorized(
                    "the account this sandbox belongs to is deactivated".into(),
                ));
            }
        }
        let Some(access) = self.gateway.find(id.session()).await? else {
            let paused = matches!(record, Some(s) if s.state == E2bState::Paused);
            return Err(AppError::Gone(if paused {
                format!("sandbox {} is paused: connect to it to resume it", id.as_str())
            } else {
                format!(
                    "sandbox {} was not found: it was killed or its time ran out",
                    id.as_str()
                )
            }));
        };
        self.found.put(id, &access);
        Ok(access)
    }
}
