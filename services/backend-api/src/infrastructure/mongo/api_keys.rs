//! API keys in MongoDB, one document per key, with unique indexes on `id` and `digest`
//! (how a request finds its key). Revoking and counting uses are single conditional
//! updates, so replicas racing on one key neither lose a count nor revive a revoked key.

use chrono::{DateTime, SubsecRound, Utc};
use mongodb::bson::doc;

use super::{all, bson, failure, MongoStore};
use crate::domain::agent::TokenUsage;
use crate::domain::api_key::{ApiKey, ApiKeyId};
use crate::domain::ports::ApiKeyRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl ApiKeyRepository for MongoStore {
    async fn insert(&self, key: &ApiKey) -> DomainResult<()> {
        self.api_keys.insert_one(key).await.map_err(failure)?;
        Ok(())
    }

    async fn get(&self, id: &ApiKeyId) -> DomainResult<Option<ApiKey>> {
        self.api_keys
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn by_digest(&self, digest: &str) -> DomainResult<Option<ApiKey>> {
        self.api_keys
            .find_one(doc! { "digest": digest })
            .await
            .map_err(failure)
    }

    async fn list(&self, owner: Option<&UserId>) -> DomainResult<Vec<ApiKey>> {
        let mut filter = doc! { "revoked_at": null };
        if let Some(owner) = owner {
            filter.insert("owner", owner.as_str());
        }
        // Ids are time-ordered, so id order is creation order.
        all(self.api_keys.find(filter).sort(doc! { "id": 1 })).await
    }

    async fn revoke(&self, id: &ApiKeyId, at: DateTime<Utc>) -> DomainResult<bool> {
        let revoked = self
            .api_keys
            .update_one(
                doc! { "id": id.as_str(), "revoked_at": null },
                doc! { "$set": { "revoked_at": bson(&at)? } },
            )
            .await
            .map_err(failure)?;
        Ok(revoked.matched_count == 1)
    }

    async fn record_use(&self, id: &ApiKeyId, requests: u64, at: DateTime<Utc>) -> DomainResult<()> {
        // Times are stored as RFC 3339 strings, which `$max` orders as the times only
        // while they have the same number of fraction digits: whole seconds have none.
        let at = at.trunc_subsecs(0);
        self.api_keys
            .update_one(
                doc! { "id": id.as_str() },
                doc! {
                    "$inc": { "requests": bson(&requests)? },
                    "$max": { "last_used_at": bson(&at)? },
                },
            )
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn add_tokens(&self, id: &ApiKeyId, tokens: TokenUsage) -> DomainResult<()> {
        self.api_keys
            .update_one(
                doc! { "id": id.as_str() },
                doc! { "$inc": {
                    "tokens.prompt_tokens": bson(&tokens.prompt_tokens)?,
                    "tokens.completion_tokens": bson(&tokens.completion_tokens)?,
                } },
            )
            .await
            .map_err(failure)?;
        Ok(())
    }
}
