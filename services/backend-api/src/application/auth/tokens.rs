//! The tokens of a sign-in: issuing an access/refresh pair, rotating it on refresh (a
//! refresh token used twice revokes its family), ending one sign-in or all of a user's,
//! and turning a bearer — an access token or an API key — into a [`Principal`].

use std::time::Duration;

use chrono::Utc;
use rand::distr::{Alphanumeric, SampleString};

use super::{AuthService, TokenPair};
use crate::application::error::{AppError, AppResult};
use crate::application::principal::{hash_token, Principal};
use crate::domain::api_key::ApiKeySecret;
use crate::domain::ports::{AccessClaims, RefreshToken};
use crate::domain::user::{User, UserId};

impl AuthService {
    /// Exchanges a refresh token for a new pair. A token used twice means it leaked:
    /// its whole family is revoked and the caller must sign in again.
    pub async fn refresh(&self, refresh_token: &str) -> AppResult<TokenPair> {
        let invalid =
            || AppError::Unauthorized("the refresh token is invalid or expired; sign in again".into());
        let stored = self
            .refresh
            .consume(&hash_token(refresh_token))
            .await?
            .ok_or_else(invalid)?;
        if stored.used {
            tracing::warn!(user = %stored.user_id.as_str(), "refresh token reused; revoking its family");
            self.refresh.revoke_family(&stored.family).await?;
            return Err(invalid());
        }
        if stored.revoked || stored.expires_at <= Utc::now() {
            return Err(invalid());
        }
        let user = self.users.by_id(&stored.user_id).await?.ok_or_else(invalid)?;
        if !user.active {
            return Err(invalid());
        }
        self.issue(&user, Some(stored.family)).await
    }

    /// Ends this sign-in: the access token stops working at once, the refresh token's
    /// family is revoked.
    pub async fn logout(&self, principal: &Principal, refresh_token: Option<&str>) -> AppResult<()> {
        if let Some((jti, exp)) = &principal.token {
            let left = (*exp - Utc::now().timestamp()).max(1) as u64;
            self.kv
                .put(&format!("revoked:jti:{jti}"), "1", Duration::from_secs(left))
                .await?;
        }
        if let Some(token) = refresh_token {
            if let Some(stored) = self.refresh.consume(&hash_token(token)).await? {
                if stored.user_id == principal.user_id {
                    self.refresh.revoke_family(&stored.family).await?;
                }
            }
        }
        Ok(())
    }

    /// Ends every sign-in of the user: tokens issued until now stop working.
    pub async fn logout_all(&self, user: &UserId) -> AppResult<()> {
        self.refresh.revoke_user(user).await?;
        let cutoff = Utc::now().timestamp_millis().to_string();
        let keep = self.settings.access_ttl + Duration::from_secs(60);
        self.kv
            .put(&format!("revoked:user:{}", user.as_str()), &cutoff, keep)
            .await?;
        Ok(())
    }

    /// The caller behind a bearer token, an access token or an API key (or the local
    /// user in `none` mode).
    pub async fn authenticate(&self, bearer: Option<&str>) -> AppResult<Principal> {
        if let Some(local) = &self.local_user {
            return Ok(Principal {
                user_id: local.id.clone(),
                role: local.role,
                token: None,
                key: None,
            });
        }
        let unauthorized = |why: &str| AppError::Unauthorized(why.to_owned());
        let token = bearer
            .ok_or_else(|| unauthorized("sign in first (Authorization: Bearer <access token or API key>)"))?;
        if ApiKeySecret::claimed_by(token) {
            return self.api_keys.authenticate(token).await;
        }
        let claims = self
            .codec
            .decode(token)
            .ok_or_else(|| unauthorized("the access token is invalid or expired"))?;
        if self
            .kv
            .get(&format!("revoked:jti:{}", claims.jti))
            .await?
            .is_some()
        {
            return Err(unauthorized("this sign-in has ended; sign in again"));
        }
        if let Some(cutoff) = self
            .kv
            .get(&format!("revoked:user:{}", claims.sub.as_str()))
            .await?
        {
            if cutoff.parse::<i64>().is_ok_and(|cutoff| claims.iat_ms < cutoff) {
                return Err(unauthorized("this sign-in has ended; sign in again"));
            }
        }
        Ok(Principal {
            user_id: claims.sub,
            role: claims.role,
            token: Some((claims.jti, claims.exp)),
            key: None,
        })
    }

    pub(super) async fn issue(&self, user: &User, family: Option<String>) -> AppResult<TokenPair> {
        let now = Utc::now();
        let claims = AccessClaims {
            sub: user.id.clone(),
            role: user.role,
            jti: uuid::Uuid::now_v7().to_string(),
            iat: now.timestamp(),
            iat_ms: now.timestamp_millis(),
            exp: now.timestamp() + self.settings.access_ttl.as_secs() as i64,
        };
        let access_token = self.codec.encode(&claims)?;
        let refresh_token = Alphanumeric.sample_string(&mut rand::rng(), 48);
        let record = RefreshToken {
            hash: hash_token(&refresh_token),
            family: family.unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
            user_id: user.id.clone(),
            expires_at: now + self.settings.refresh_ttl,
            used: false,
            revoked: false,
        };
        self.refresh.insert(&record).await?;
        Ok(TokenPair {
            access_token,
            refresh_token,
            expires_in: self.settings.access_ttl.as_secs(),
        })
    }
}
