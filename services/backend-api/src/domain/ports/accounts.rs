//! The ports of accounts: users, personal API keys, refresh tokens, password hashing and
//! access tokens.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::agent::TokenUsage;
use crate::domain::api_key::{ApiKey, ApiKeyId};
use crate::domain::error::DomainResult;
use crate::domain::user::{Email, Password, Role, User, UserId};

#[async_trait::async_trait]
pub trait UserRepository: Send + Sync {
    /// Fails with `Conflict` when the email is taken.
    async fn insert(&self, user: &User) -> DomainResult<()>;
    async fn by_id(&self, id: &UserId) -> DomainResult<Option<User>>;
    async fn by_email(&self, email: &Email) -> DomainResult<Option<User>>;
    async fn update(&self, user: &User) -> DomainResult<()>;
    /// Users in creation order.
    async fn list(&self, offset: usize, limit: usize) -> DomainResult<Vec<User>>;
    /// Whether the database answers (for readiness).
    async fn ping(&self) -> DomainResult<()>;
}

/// Personal API keys ([`ApiKey`]), found by their secret's digest.
#[async_trait::async_trait]
pub trait ApiKeyRepository: Send + Sync {
    async fn insert(&self, key: &ApiKey) -> DomainResult<()>;
    /// The key, revoked or not.
    async fn get(&self, id: &ApiKeyId) -> DomainResult<Option<ApiKey>>;
    /// The key whose secret has this digest, revoked or not.
    async fn by_digest(&self, digest: &str) -> DomainResult<Option<ApiKey>>;
    /// The keys not revoked, oldest first: one owner's, or everyone's.
    async fn list(&self, owner: Option<&UserId>) -> DomainResult<Vec<ApiKey>>;
    /// Marks the key revoked; `false` when there is no such key or it was revoked already.
    async fn revoke(&self, id: &ApiKeyId, at: DateTime<Utc>) -> DomainResult<bool>;
    /// Adds `requests` to the key's count and moves `last_used_at` forward to `at` (never
    /// back: replicas write their counts in any order).
    async fn record_use(&self, id: &ApiKeyId, requests: u64, at: DateTime<Utc>) -> DomainResult<()>;
    /// Adds a job's `tokens` to the key's, in one write (jobs end on any replica).
    async fn add_tokens(&self, id: &ApiKeyId, tokens: TokenUsage) -> DomainResult<()>;
}

/// A refresh token as stored: only its hash, never the token itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RefreshToken {
    pub hash: String,
    /// All tokens rotated from one login share a family; reusing any revokes it whole.
    pub family: String,
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
    pub used: bool,
    pub revoked: bool,
}

#[async_trait::async_trait]
pub trait RefreshTokenStore: Send + Sync {
    async fn insert(&self, token: &RefreshToken) -> DomainResult<()>;
    /// Marks the token used and returns it as it was before (so a second use is seen
    /// as reuse, also when two requests race); `None` when unknown.
    async fn consume(&self, hash: &str) -> DomainResult<Option<RefreshToken>>;
    async fn revoke_family(&self, family: &str) -> DomainResult<()>;
    async fn revoke_user(&self, user: &UserId) -> DomainResult<()>;
}

/// Slow on purpose (that is the point of a password hash), so async: adapters run it off
/// the request threads.
#[async_trait::async_trait]
pub trait PasswordHasher: Send + Sync {
    /// A PHC string.
    async fn hash(&self, password: &Password) -> DomainResult<String>;
    /// `false` also for a hash that cannot be parsed; costs the same whether the
    /// account exists or not when given [`PasswordHasher::decoy`].
    async fn verify(&self, password: &str, hash: &str) -> bool;
    /// A valid hash no password matches, to verify against when there is no account.
    fn decoy(&self) -> &str;
}

/// What an access token says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessClaims {
    pub sub: UserId,
    pub role: Role,
    /// Unique per token, for logout.
    pub jti: String,
    pub iat: i64,
    /// Issue time in milliseconds: compared with "signed out everywhere" cut-offs.
    pub iat_ms: i64,
    pub exp: i64,
}

pub trait AccessTokenCodec: Send + Sync {
    fn encode(&self, claims: &AccessClaims) -> DomainResult<String>;
    /// Checks signature, algorithm and expiry.
    fn decode(&self, token: &str) -> Option<AccessClaims>;
}
