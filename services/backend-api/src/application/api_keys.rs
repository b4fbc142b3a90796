//! Personal API keys (see [`crate::domain::api_key`]): people make, list and revoke
//! their own, admins list and revoke anyone's; and a request's key becomes its owner's
//! [`Principal`].
//!
//! Every request looks its key up in the store by digest, and nothing about keys is
//! cached in the process, so a revoked or expired key is refused at once on every
//! replica. Each key has a rate limit: a fixed window of one minute counted in the
//! key-value store (Redis across replicas). Its use (request count, last time) is
//! written at most once per `usage_every` per key and replica — the first use at once,
//! later ones summed and written by a background tick — so a busy key costs one write
//! per interval, not one per request; a crash loses at most an interval's count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::time::Instant;

use super::error::{AppError, AppResult};
use super::principal::{require_admin, KeyUse, Principal};
use crate::domain::agent::TokenUsage;
use crate::domain::api_key::{ApiKey, ApiKeyId, ApiKeyName, ApiKeyScope, ApiKeySecret};
use crate::domain::ports::{ApiKeyRepository, KeyValueStore, UserRepository};

#[derive(Debug, Clone)]
pub struct ApiKeySettings {
    /// Requests one key may make per minute; 0: no limit.
    pub requests_per_minute: u64,
    /// Keys (not revoked) one person may have.
    pub per_person: usize,
    /// How often one replica writes a key's use.
    pub usage_every: Duration,
}

/// What a new key is to be.
pub struct NewKey {
    pub name: ApiKeyName,
    pub scope: ApiKeyScope,
    pub expires_at: Option<DateTime<Utc>>,
}

pub struct ApiKeys {
    keys: Arc<dyn ApiKeyRepository>,
    users: Arc<dyn UserRepository>,
    kv: Arc<dyn KeyValueStore>,
    usage: Arc<Usage>,
    settings: ApiKeySettings,
}

impl ApiKeys {
    /// Starts the tick that writes keys' use, for as long as this lives.
    pub fn new(
        keys: Arc<dyn ApiKeyRepository>,
        users: Arc<dyn UserRepository>,
        kv: Arc<dyn KeyValueStore>,
        settings: ApiKeySettings,
    ) -> Self {
        let usage = Arc::new(Usage {
            keys: keys.clone(),
            every: settings.usage_every,
            pending: Mutex::default(),
        });
        keep_writing(Arc::downgrade(&usage), settings.usage_every);
        Self {
            keys,
            users,
            kv,
            usage,
            settings,
        }
    }

    /// A key for the caller; its secret is in this answer only.
    pub async fn create(&self, owner: &Principal, new: NewKey) -> AppResult<(ApiKey, ApiKeySecret)> {
        let user = self
            .users
            .by_id(&owner.user_id)
            .await?
            .ok_or_else(|| AppError::Unauthorized("the account no longer exists".into()))?;
        // Two creations racing may both pass this; a cap one over is harmless.
        let held = self.keys.list(Some(&user.id)).await?.len();
        if held >= self.settings.per_person {
            return Err(AppError::Conflict(format!(
                "you have {held} API keys, the most one person may have; revoke one you no longer use"
            )));
        }
        let secret = ApiKeySecret::generate(new.scope);
        let key = ApiKey {
            id: ApiKeyId::new(),
            owner: user.id,
            owner_email: user.email.as_str().to_owned(),
            name: new.name,
            prefix: secret.shown().to_owned(),
            digest: secret.digest(),
            scope: new.scope,
            created_at: Utc::now(),
            expires_at: new.expires_at,
            last_used_at: None,
            requests: 0,
            tokens: TokenUsage::default(),
            revoked_at: None,
        };
        self.keys.insert(&key).await?;
        Ok((key, secret))
    }

    /// The caller's keys, oldest first.
    pub async fn list(&self, owner: &Principal) -> AppResult<Vec<ApiKey>> {
        Ok(self.keys.list(Some(&owner.user_id)).await?)
    }

    /// Revokes one of the caller's keys; another person's is `NotFound`, like none. The
    /// key as it was.
    pub async fn revoke(&self, owner: &Principal, id: &ApiKeyId) -> AppResult<ApiKey> {
        self.revoke_if(id, |key| key.owner == owner.user_id).await
    }

    /// Everyone's keys, oldest first. Admins only.
    pub async fn list_all(&self, admin: &Principal) -> AppResult<Vec<ApiKey>> {
        require_admin(admin)?;
        Ok(self.keys.list(None).await?)
    }

    /// Revokes anyone's key. Admins only. The key as it was.
    pub async fn revoke_any(&self, admin: &Principal, id: &ApiKeyId) -> AppResult<ApiKey> {
        require_admin(admin)?;
        self.revoke_if(id, |_| true).await
    }

    async fn revoke_if(&self, id: &ApiKeyId, may: impl FnOnce(&ApiKey) -> bool) -> AppResult<ApiKey> {
        let live = self.keys.get(id).await?.filter(|key| key.revoked_at.is_none());
        match live {
            Some(key) if may(&key) && self.keys.revoke(&key.id, Utc::now()).await? => Ok(key),
            _ => Err(AppError::NotFound("API key")),
        }
    }

    /// The owner of the key `bearer`, if the key is live, its owner active and its rate
    /// limit not reached; counts the request.
    pub(super) async fn authenticate(&self, bearer: &str) -> AppResult<Principal> {
        let unknown =
            || AppError::Unauthorized("this API key is not valid; check that it was copied whole".into());
        let secret = ApiKeySecret::parse(bearer).ok_or_else(unknown)?;
        let key = self.keys.by_digest(&secret.digest()).await?.ok_or_else(unknown)?;
        let now = Utc::now();
        if let Some(why) = key.refusal(now) {
            return Err(AppError::Unauthorized(why));
        }
        let owner = self
            .users
            .by_id(&key.owner)
            .await?
            .filter(|user| user.active)
            .ok_or_else(|| {
                AppError::Unauthorized("the account this API key belongs to is deactivated".into())
            })?;
        self.admit(&key.id, now).await?;
        self.usage.count(&key.id, now).await;
        Ok(Principal {
            user_id: owner.id,
            role: owner.role,
            token: None,
            key: Some(KeyUse {
                id: key.id,
                scope: key.scope,
            }),
        })
    }

    /// Counts the request in the key's minute; `RateLimited` over the limit.
    async fn admit(&self, id: &ApiKeyId, now: DateTime<Utc>) -> AppResult<()> {
        let limit = self.settings.requests_per_minute;
        if limit == 0 {
            return Ok(());
        }
        // Windows are the clock's minutes, so every replica counts into the same one.
        let minute = now.timestamp().div_euclid(60);
        let key = format!("ratelimit:apikey:{}:{minute}", id.as_str());
        let made = self.kv.increment(&key, Duration::from_secs(60)).await?;
        if made > limit {
            return Err(AppError::RateLimited {
                reason: format!("this API key may make {limit} requests a minute"),
                retry_after_secs: (60 - now.timestamp().rem_euclid(60)) as u64,
            });
        }
        Ok(())
    }

    /// Writes every use not written yet (at shutdown).
    pub async fn write_usage(&self) {
        self.usage.flush(true).await;
    }
}

/// Writes due uses every `every` until the [`Usage`] is dropped with its server.
fn keep_writing(usage: Weak<Usage>, every: Duration) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let Some(usage) = usage.upgrade() else { return };
            usage.flush(false).await;
        }
    });
}

/// Uses of keys this replica has not written yet.
struct Usage {
    keys: Arc<dyn ApiKeyRepository>,
    every: Duration,
    pending: Mutex<HashMap<ApiKeyId, Pending>>,
}

struct Pending {
    requests: u64,
    last: DateTime<Utc>,
    /// When this replica last wrote the key's use; `None`: never, so the next is due.
    written: Option<Instant>,
}

impl Pending {
    /// The uses to write now, if any are and their time has come (or `force`).
    fn take_due(&mut self, every: Duration, force: bool) -> Option<(u64, DateTime<Utc>)> {
        let due = force || self.written.is_none_or(|at| at.elapsed() >= every);
        if self.requests == 0 || !due {
            return None;
        }
        self.written = Some(Instant::now());
        Some((std::mem::take(&mut self.requests), self.last))
    }
}

impl Usage {
    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<ApiKeyId, Pending>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts one use of the key, and writes its uses when they are due.
    async fn count(&self, id: &ApiKeyId, at: DateTime<Utc>) {
        let due = add(&mut self.pending(), id, 1, at, None).take_due(self.every, false);
        if let Some((requests, last)) = due {
            self.write(id, requests, last).await;
        }
    }

    /// Writes the uses that are due (all of them, `force`), and forgets keys idle for an
    /// interval, so the map holds only keys in use and a key's next use after a pause is
    /// written at once.
    async fn flush(&self, force: bool) {
        let due: Vec<_> = {
            let mut pending = self.pending();
            let every = self.every;
            pending.retain(|_, p| p.requests > 0 || p.written.is_some_and(|at| at.elapsed() < every));
            pending
                .iter_mut()
                .filter_map(|(id, p)| p.take_due(every, force).map(|(n, at)| (id.clone(), n, at)))
                .collect()
        };
        for (id, requests, last) in due {
            self.write(&id, requests, last).await;
        }
    }

    /// Stores uses; when the store fails they go back to wait for the next tick.
    async fn write(&self, id: &ApiKeyId, requests: u64, last: DateTime<Utc>) {
        if let Err(err) = self.keys.record_use(id, requests, last).await {
            tracing::warn!(%err, key = id.as_str(), "writing an API key's use; trying again later");
            add(&mut self.pending(), id, requests, last, Some(Instant::now()));
        }
    }
}

/// Adds `requests` uses, the last at `at`, to the key's pending ones (`written` is when
/// the key was written last, for a key new to the map).
fn add<'a>(
    pending: &'a mut HashMap<ApiKeyId, Pending>,
    id: &ApiKeyId,
    requests: u64,
    at: DateTime<Utc>,
    written: Option<Instant>,
) -> &'a mut Pending {
    let entry = pending.entry(id.clone()).or_insert(Pending {
        requests: 0,
        last: at,
        written,
    });
    entry.requests += requests;
    entry.last = entry.last.max(at);
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::{Email, Role, User, UserId};
    use crate::infrastructure::embedded::EmbeddedStore;

    #[tokio::test]
    async fn a_keys_first_use_is_written_at_once_and_later_ones_summed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
        let user = User {
            id: UserId::new(),
            email: Email::parse("ada@example.org").unwrap(),
            password_hash: "!".into(),
            role: Role::User,
            active: true,
            created_at: Utc::now(),
        };
        UserRepository::insert(store.as_ref(), &user).await.unwrap();
        // An interval no test waits for: only the first use and `write_usage` write.
        let keys = ApiKeys::new(
            store.clone(),
            store.clone(),
            store.clone(),
            ApiKeySettings {
                requests_per_minute: 0,
                per_person: 1,
                usage_every: Duration::from_secs(3600),
            },
        );
        let owner = Principal {
            user_id: user.id.clone(),
            role: user.role,
            token: None,
            key: None,
        };
        let new = || NewKey {
            name: ApiKeyName::parse("CI").unwrap(),
            scope: ApiKeyScope::Jobs,
            expires_at: None,
        };
        let (key, secret) = keys.create(&owner, new()).await.unwrap();
        assert!(matches!(
            keys.create(&owner, new()).await,
            Err(AppError::Conflict(_))
        ));
        let stored = || async {
            ApiKeyRepository::get(store.as_ref(), &key.id)
                .await
                .unwrap()
                .unwrap()
        };

        for _ in 0..3 {
            let principal = keys.authenticate(secret.expose()).await.unwrap();
            assert_eq!(principal.user_id, user.id);
            assert_eq!(principal.key.unwrap().scope, ApiKeyScope::Jobs);
        }
        assert_eq!(stored().await.requests, 1);
        assert!(stored().await.last_used_at.is_some());
        keys.usage.flush(false).await;
        assert_eq!(stored().await.requests, 1, "not due yet");
        keys.write_usage().await;
        assert_eq!(stored().await.requests, 3);
        keys.authenticate(secret.expose()).await.unwrap();
        assert_eq!(stored().await.requests, 3, "written within the interval");
        keys.write_usage().await;
        assert_eq!(stored().await.requests, 4);
    }
}
