//! Refresh tokens in the embedded store, indexed by user for "sign out everywhere".

use redb::{ReadableDatabase, ReadableTable};

use super::{decode, EmbeddedStore, REFRESH, USER_REFRESH};
use crate::domain::ports::{RefreshToken, RefreshTokenStore};
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Sets `revoked` on every token `pick` selects.
fn revoke_where(db: &redb::Database, pick: impl Fn(&RefreshToken) -> bool) -> anyhow::Result<()> {
    let txn = db.begin_write()?;
    {
        let mut tokens = txn.open_table(REFRESH)?;
        let mut revoked = Vec::new();
        for entry in tokens.iter()? {
            let (key, value) = entry?;
            let mut token: RefreshToken = decode(value.value())?;
            if pick(&token) && !token.revoked {
                token.revoked = true;
                revoked.push((key.value().to_owned(), token));
            }
        }
        for (key, token) in revoked {
            tokens.insert(key.as_str(), serde_json::to_vec(&token)?.as_slice())?;
        }
    }
    txn.commit()?;
    Ok(())
}

#[async_trait::async_trait]
impl RefreshTokenStore for EmbeddedStore {
    async fn insert(&self, token: &RefreshToken) -> DomainResult<()> {
        let token = token.clone();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(REFRESH)?
                .insert(token.hash.as_str(), serde_json::to_vec(&token)?.as_slice())?;
            txn.open_table(USER_REFRESH)?
                .insert((token.user_id.as_str(), token.hash.as_str()), ())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    async fn consume(&self, hash: &str) -> DomainResult<Option<RefreshToken>> {
        let hash = hash.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let before = {
                let mut tokens = txn.open_table(REFRESH)?;
                let before: Option<RefreshToken> = match tokens.get(hash.as_str())? {
                    Some(value) => Some(decode(value.value())?),
                    None => None,
                };
                if let Some(token) = &before {
                    let used = RefreshToken {
                        used: true,
                        ..token.clone()
                    };
                    tokens.insert(hash.as_str(), serde_json::to_vec(&used)?.as_slice())?;
                }
                before
            };
            txn.commit()?;
            Ok(before)
        })
        .await
    }

    async fn revoke_family(&self, family: &str) -> DomainResult<()> {
        let family = family.to_owned();
        self.blocking(move |db| revoke_where(db, |t| t.family == family))
            .await
    }

    async fn revoke_user(&self, user: &UserId) -> DomainResult<()> {
        let user = user.clone();
        self.blocking(move |db| {
            let hashes: Vec<String> = {
                let txn = db.begin_read()?;
                let index = txn.open_table(USER_REFRESH)?;
                let range = index.range((user.as_str(), "")..=(user.as_str(), "\u{7f}"))?;
                range
                    .map(|e| e.map(|(k, _)| k.value().1.to_owned()))
                    .collect::<Result<_, _>>()?
            };
            revoke_where(db, |t| hashes.contains(&t.hash))
        })
        .await
    }
}
