//! Refresh tokens in MongoDB. Using one is a single `find_one_and_update` that returns
//! the token as it was, so of two requests racing with the same token exactly one sees
//! it unused.

use mongodb::bson::doc;
use mongodb::options::ReturnDocument;

use super::{failure, MongoStore};
use crate::domain::ports::{RefreshToken, RefreshTokenStore};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

#[async_trait::async_trait]
impl RefreshTokenStore for MongoStore {
    async fn insert(&self, token: &RefreshToken) -> DomainResult<()> {
        self.refresh_tokens.insert_one(token).await.map_err(failure)?;
        Ok(())
    }

    async fn consume(&self, hash: &str) -> DomainResult<Option<RefreshToken>> {
        self.refresh_tokens
            .find_one_and_update(doc! { "hash": hash }, doc! { "$set": { "used": true } })
            .return_document(ReturnDocument::Before)
            .await
            .map_err(failure)
    }

    async fn revoke_family(&self, family: &str) -> DomainResult<()> {
        self.refresh_tokens
            .update_many(doc! { "family": family }, doc! { "$set": { "revoked": true } })
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn revoke_user(&self, user: &UserId) -> DomainResult<()> {
        self.refresh_tokens
            .update_many(
                doc! { "user_id": user.as_str() },
                doc! { "$set": { "revoked": true } },
            )
            .await
            .map_err(failure)?;
        Ok(())
    }
}
