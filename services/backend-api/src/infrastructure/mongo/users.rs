//! Users in MongoDB; the unique index on `email` is what makes emails unique, also when
//! two registrations race.

use mongodb::bson::doc;

use super::{all, bson, failure, is_duplicate_key, MongoStore};
use crate::domain::ports::UserRepository;
use crate::domain::user::{Email, User, UserId};
use crate::domain::{DomainError, DomainResult};

#[async_trait::async_trait]
impl UserRepository for MongoStore {
    async fn insert(&self, user: &User) -> DomainResult<()> {
        match self.users.insert_one(user).await {
            Ok(_) => Ok(()),
            Err(err) if is_duplicate_key(&err) => Err(DomainError::Conflict("the email is taken".into())),
            Err(err) => Err(failure(err)),
        }
    }

    async fn by_id(&self, id: &UserId) -> DomainResult<Option<User>> {
        self.users
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn by_email(&self, email: &Email) -> DomainResult<Option<User>> {
        self.users
            .find_one(doc! { "email": email.as_str() })
            .await
            .map_err(failure)
    }

    async fn update(&self, user: &User) -> DomainResult<()> {
        let replaced = self
            .users
            .replace_one(doc! { "id": bson(&user.id)? }, user)
            .await
            .map_err(failure)?;
        if replaced.matched_count == 0 {
            return Err(DomainError::NotFound("user"));
        }
        Ok(())
    }

    async fn list(&self, offset: usize, limit: usize) -> DomainResult<Vec<User>> {
        // Ids are time-ordered, so id order is creation order.
        all(self
            .users
            .find(doc! {})
            .sort(doc! { "id": 1 })
            .skip(offset as u64)
            .limit(limit as i64))
        .await
    }

    async fn ping(&self) -> DomainResult<()> {
        MongoStore::ping(self).await
    }
}
