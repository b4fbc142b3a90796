//! Who is calling, as every use case sees it: the [`Principal`] a bearer token (an access
//! token or an API key, [`KeyUse`]) turned into, the check that it is an admin, and how a
//! token is stored (hashed). Authentication makes principals ([`super::auth`]); everything
//! else only reads them, so this file depends on no other use case.

use super::error::{AppError, AppResult};
use crate::domain::api_key::{ApiKeyId, ApiKeyScope};
use crate::domain::user::{Role, UserId};

/// Who is calling.
#[derive(Debug, Clone, PartialEq)]
pub struct Principal {
    pub user_id: UserId,
    pub role: Role,
    /// The access token's id and expiry (absent in `none` mode and with an API key).
    pub token: Option<(String, i64)>,
    /// The API key the request came with, if it came with one.
    pub key: Option<KeyUse>,
}

/// The key a request came with: which, and what it may do.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyUse {
    pub id: ApiKeyId,
    pub scope: ApiKeyScope,
}

/// `Forbidden` unless the caller is an admin.
pub(crate) fn require_admin(principal: &Principal) -> AppResult<()> {
    if principal.role == Role::Admin {
        Ok(())
    } else {
        Err(AppError::Forbidden("only an admin may do this".into()))
    }
}

/// Refresh tokens are stored hashed: a leaked store does not leak usable tokens.
pub(crate) fn hash_token(token: &str) -> String {
    service_kit::sha256_hex(token)
}
