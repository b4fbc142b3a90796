//! Users in the embedded store; the email index makes emails unique.

use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, USERS, USER_EMAILS};
use crate::domain::ports::{KeyValueStore, UserRepository};
use crate::domain::user::{Email, User, UserId};
use crate::domain::{DomainError, DomainResult};

#[async_trait::async_trait]
impl UserRepository for EmbeddedStore {
    async fn insert(&self, user: &User) -> DomainResult<()> {
        let user = user.clone();
        let inserted = self
            .blocking(move |db| {
                let txn = db.begin_write()?;
                {
                    let mut emails = txn.open_table(USER_EMAILS)?;
                    if emails.get(user.email.as_str())?.is_some() {
                        return Ok(false);
                    }
                    emails.insert(user.email.as_str(), user.id.as_str())?;
                    txn.open_table(USERS)?
                        .insert(user.id.as_str(), serde_json::to_vec(&user)?.as_slice())?;
                }
                txn.commit()?;
                Ok(true)
            })
            .await?;
        if inserted {
            Ok(())
        } else {
            Err(DomainError::Conflict("the email is taken".into()))
        }
    }

    async fn by_id(&self, id: &UserId) -> DomainResult<Option<User>> {
        let id = id.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let users = txn.open_table(USERS)?;
            let user = users.get(id.as_str())?;
            user.map(|u| decode(u.value())).transpose()
        })
        .await
    }

    async fn by_email(&self, email: &Email) -> DomainResult<Option<User>> {
        let email = email.clone();
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let Some(id) = txn
                .open_table(USER_EMAILS)?
                .get(email.as_str())?
                .map(|id| id.value().to_owned())
            else {
                return Ok(None);
            };
            let users = txn.open_table(USERS)?;
            let user = users.get(id.as_str())?;
            user.map(|u| decode(u.value())).transpose()
        })
        .await
    }

    async fn update(&self, user: &User) -> DomainResult<()> {
        let user = user.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(USERS)?
                .insert(user.id.as_str(), serde_json::to_vec(&user)?.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn list(&self, offset: usize, limit: usize) -> DomainResult<Vec<User>> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            // Ids are time-ordered, so key order is creation order.
            let users = txn.open_table(USERS)?;
            let mut page = Vec::new();
            for entry in users.iter()?.skip(offset).take(limit) {
                page.push(decode(entry?.1.value())?);
            }
            Ok(page)
        })
        .await
    }

    async fn ping(&self) -> DomainResult<()> {
        KeyValueStore::ping(self).await
    }
}
