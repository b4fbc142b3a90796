//! API keys in the embedded store by id, with an index by digest (how a request finds
//! its key) and one by owner (their list). Changes are read-modify-write in one write
//! transaction, which redb serialises, so concurrent uses of a key all count.

use chrono::{DateTime, Utc};
use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, API_KEYS, API_KEY_DIGESTS, OWNER_API_KEYS};
use crate::domain::agent::TokenUsage;
use crate::domain::api_key::{ApiKey, ApiKeyId};
use crate::domain::ports::ApiKeyRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Applies `change` to the stored key and writes it back when `change` says it changed
/// something; whether it did (`false` also when there is no such key).
fn update(
    db: &redb::Database,
    id: &ApiKeyId,
    change: impl FnOnce(&mut ApiKey) -> bool,
) -> anyhow::Result<bool> {
    let txn = db.begin_write()?;
    let changed = {
        let mut keys = txn.open_table(API_KEYS)?;
        let stored: Option<ApiKey> = match keys.get(id.as_str())? {
            Some(value) => Some(decode(value.value())?),
            None => None,
        };
        let Some(mut key) = stored else {
            return Ok(false);
        };
        let changed = change(&mut key);
        if changed {
            keys.insert(id.as_str(), serde_json::to_vec(&key)?.as_slice())?;
        }
        changed
    };
    txn.commit()?;
    Ok(changed)
}

fn read(keys: &impl ReadableTable<&'static str, &'static [u8]>, id: &str) -> anyhow::Result<Option<ApiKey>> {
    keys.get(id)?.map(|value| decode(value.value())).transpose()
}

#[async_trait::async_trait]
impl ApiKeyRepository for EmbeddedStore {
    async fn insert(&self, key: &ApiKey) -> DomainResult<()> {
        let key = key.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(API_KEYS)?
                .insert(key.id.as_str(), serde_json::to_vec(&key)?.as_slice())?;
            txn.open_table(API_KEY_DIGESTS)?
                .insert(key.digest.as_str(), key.id.as_str())?;
            txn.open_table(OWNER_API_KEYS)?
                .insert((key.owner.as_str(), key.id.as_str()), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &ApiKeyId) -> DomainResult<Option<ApiKey>> {
        let id = id.clone();
        self.blocking(move |db| read(&db.begin_read()?.open_table(API_KEYS)?, id.as_str()))
            .await
    }

    async fn by_digest(&self, digest: &str) -> DomainResult<Option<ApiKey>> {
        let digest = digest.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let Some(id) = txn
                .open_table(API_KEY_DIGESTS)?
                .get(digest.as_str())?
                .map(|id| id.value().to_owned())
            else {
                return Ok(None);
            };
            read(&txn.open_table(API_KEYS)?, &id)
        })
        .await
    }

    async fn list(&self, owner: Option<&UserId>) -> DomainResult<Vec<ApiKey>> {
        let owner = owner.cloned();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(API_KEYS)?;
            // Ids are time-ordered, so key order is creation order, in both tables.
            let mut keys: Vec<ApiKey> = Vec::new();
            match owner {
                Some(owner) => {
                    let index = txn.open_table(OWNER_API_KEYS)?;
                    for entry in index.range((owner.as_str(), "")..=(owner.as_str(), "\u{7f}"))? {
                        keys.extend(read(&table, entry?.0.value().1)?);
                    }
                }
                None => {
                    for entry in table.iter()? {
                        keys.push(decode(entry?.1.value())?);
                    }
                }
            }
            keys.retain(|key| key.revoked_at.is_none());
            Ok(keys)
        })
        .await
    }

    async fn revoke(&self, id: &ApiKeyId, at: DateTime<Utc>) -> DomainResult<bool> {
        let id = id.clone();
        self.blocking(move |db| {
            update(db, &id, |key| {
                let live = key.revoked_at.is_none();
                key.revoked_at.get_or_insert(at);
                live
            })
        })
        .await
    }

    async fn record_use(&self, id: &ApiKeyId, requests: u64, at: DateTime<Utc>) -> DomainResult<()> {
        let id = id.clone();
        self.blocking(move |db| {
            update(db, &id, |key| {
                key.requests = key.requests.saturating_add(requests);
                key.last_used_at = key.last_used_at.max(Some(at));
                true
            })
        })
        .await?;
        Ok(())
    }

    async fn add_tokens(&self, id: &ApiKeyId, tokens: TokenUsage) -> DomainResult<()> {
        let id = id.clone();
        self.blocking(move |db| {
            update(db, &id, |key| {
                key.tokens.add(tokens);
                true
            })
        })
        .await?;
        Ok(())
    }
}
