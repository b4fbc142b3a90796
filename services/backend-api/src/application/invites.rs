//! Invites for `invite` registration: an admin makes and revokes them; a registration
//! redeems one (see [`crate::domain::invite`]). Kept in the key-value store, so every
//! replica sees an invite used at once, and an invite ends by itself at its expiry.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{AppError, AppResult};
use super::principal::{require_admin, Principal};
use crate::domain::invite::{InviteCode, InviteGrant};
use crate::domain::ports::KeyValueStore;
use crate::domain::user::Email;

/// Default and longest life of an invite.
const DEFAULT_HOURS: u64 = 7 * 24;
const MAX_HOURS: u64 = 30 * 24;

/// A new invite, its code shown this once.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NewInvite {
    pub code: String,
    /// Only this address may use it, when set.
    pub email: Option<String>,
    pub expires_at: DateTime<Utc>,
}

/// An invite taken by a registration, to give back if the account is not created.
pub struct Redeemed {
    code: InviteCode,
    grant: InviteGrant,
}

pub struct Invites {
    kv: Arc<dyn KeyValueStore>,
}

impl Invites {
    pub fn new(kv: Arc<dyn KeyValueStore>) -> Self {
        Self { kv }
    }

    /// An invite for anyone, or for `email`, valid `hours` (default a week, at most 30
    /// days). Admins only.
    pub async fn create(
        &self,
        admin: &Principal,
        email: Option<&str>,
        hours: Option<u64>,
    ) -> AppResult<NewInvite> {
        require_admin(admin)?;
        let hours = match hours.unwrap_or(DEFAULT_HOURS) {
            hours @ 1..=MAX_HOURS => hours,
            _ => {
                return Err(AppError::Invalid(format!(
                    "expires_in_hours must be between 1 and {MAX_HOURS}"
                )))
            }
        };
        let email = email.map(Email::parse).transpose()?;
        let ttl = Duration::from_secs(hours * 3600);
        let grant = InviteGrant {
            email: email.map(|email| email.as_str().to_owned()),
            expires_at: Utc::now() + ttl,
        };
        let code = InviteCode::generate();
        self.store(&code, &grant, ttl).await?;
        Ok(NewInvite {
            code: code.as_str().to_owned(),
            email: grant.email,
            expires_at: grant.expires_at,
        })
    }

    /// Ends an unused invite. Admins only.
    pub async fn revoke(&self, admin: &Principal, code: &str) -> AppResult<()> {
        require_admin(admin)?;
        let code = InviteCode::parse(code)?;
        match self.kv.take(&code.key()).await? {
            Some(_) => Ok(()),
            None => Err(AppError::NotFound("invite")),
        }
    }

    /// Uses up the invite `code` for `email`; the error tells the person what is wrong.
    pub(super) async fn redeem(&self, code: &str, email: &Email) -> AppResult<Redeemed> {
        let invalid = || {
            AppError::Forbidden(
                "this invite is not valid: it was used, revoked or mistyped, or it expired".into(),
            )
        };
        let code = InviteCode::parse(code).map_err(|_| invalid())?;
        let grant = self.read(&code).await?.ok_or_else(invalid)?;
        if grant.email.as_deref().is_some_and(|only| only != email.as_str()) {
            return Err(AppError::Forbidden(
                "this invite is for another e-mail address".into(),
            ));
        }
        // Taken, not just read: of two registrations with one invite, one gets it.
        self.kv.take(&code.key()).await?.ok_or_else(invalid)?;
        Ok(Redeemed { code, grant })
    }

    /// Gives an invite back for the rest of its life (its registration failed).
    pub(super) async fn restore(&self, redeemed: Redeemed) {
        let left = (redeemed.grant.expires_at - Utc::now())
            .to_std()
            .unwrap_or_default();
        if left.is_zero() {
            return;
        }
        if let Err(err) = self.store(&redeemed.code, &redeemed.grant, left).await {
            tracing::warn!(%err, "giving back an invite");
        }
    }

    async fn read(&self, code: &InviteCode) -> AppResult<Option<InviteGrant>> {
        let Some(stored) = self.kv.get(&code.key()).await? else {
            return Ok(None);
        };
        serde_json::from_str(&stored)
            .map(Some)
            .map_err(|err| AppError::Internal(anyhow::anyhow!("a stored invite does not parse: {err}")))
    }

    async fn store(&self, code: &InviteCode, grant: &InviteGrant, ttl: Duration) -> AppResult<()> {
        let value = serde_json::to_string(grant).map_err(|err| AppError::Internal(err.into()))?;
        Ok(self.kv.put(&code.key(), &value, ttl).await?)
    }
}
