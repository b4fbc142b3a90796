//! Authentication and accounts: register, login, refresh with rotation (reuse of a used
//! refresh token revokes its whole family), logout, logout everywhere, password change,
//! and the admin's user management; and turning a bearer token — an access token or a
//! personal API key (`sp_…`, see [`super::api_keys`]) — into a [`Principal`].
//!
//! Modes: `password` (people register and sign in), `local` (one admin account from
//! configuration), `none` (single user: every request is the local user, no tokens).
//! Access tokens are short-lived JWTs; what must end earlier (logout, logout-all,
//! deactivation) is recorded in the key-value store and checked on every request.

mod tokens;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::api_keys::ApiKeys;
use super::error::{AppError, AppResult};
use super::invites::Invites;
use super::login_limits::{LoginLimitSettings, LoginLimits};
use super::password_checks::{PasswordCheckSettings, PasswordChecks};
use super::principal::{require_admin, Principal};
use crate::domain::invite::RegistrationMode;
use crate::domain::ports::{
    AccessTokenCodec, KeyValueStore, PasswordHasher, RefreshTokenStore, UserRepository,
};
use crate::domain::user::{Email, Password, Role, User, UserId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthMode {
    Password,
    Local { email: String, password: String },
    None,
}

#[derive(Debug, Clone)]
pub struct AuthSettings {
    pub mode: AuthMode,
    /// Who may create an account in `password` mode.
    pub registration: RegistrationMode,
    pub access_ttl: Duration,
    pub refresh_ttl: Duration,
    pub login_limits: LoginLimitSettings,
    pub password_checks: PasswordCheckSettings,
}

/// A sign-in's tokens: the access token for the caller, the refresh token for the
/// browser's cookie jar (the HTTP interface never puts it in a body).
#[derive(Debug, Clone)]
pub struct TokenPair {
    pub access_token: String,
    pub refresh_token: String,
    /// Seconds until the access token expires.
    pub expires_in: u64,
}

/// The local user of the `none` mode.
const LOCAL_EMAIL: &str = "local@sandpiper.invalid";

/// The stores and codecs authentication works with.
pub struct AuthPorts {
    pub users: Arc<dyn UserRepository>,
    pub refresh: Arc<dyn RefreshTokenStore>,
    pub kv: Arc<dyn KeyValueStore>,
    pub hasher: Arc<dyn PasswordHasher>,
    pub codec: Arc<dyn AccessTokenCodec>,
}

pub struct AuthService {
    users: Arc<dyn UserRepository>,
    refresh: Arc<dyn RefreshTokenStore>,
    kv: Arc<dyn KeyValueStore>,
    passwords: PasswordChecks,
    codec: Arc<dyn AccessTokenCodec>,
    limits: LoginLimits,
    invites: Arc<Invites>,
    api_keys: Arc<ApiKeys>,
    settings: AuthSettings,
    /// The single user of the `none` mode.
    local_user: Option<User>,
}

impl AuthService {
    /// In `local` and `none` mode this makes sure the configured account exists.
    pub async fn new(
        ports: AuthPorts,
        invites: Arc<Invites>,
        api_keys: Arc<ApiKeys>,
        settings: AuthSettings,
    ) -> AppResult<Self> {
        let AuthPorts {
            users,
            refresh,
            kv,
            hasher,
            codec,
        } = ports;
        let mut service = Self {
            users,
            refresh,
            limits: LoginLimits::new(kv.clone(), settings.login_limits.clone()),
            invites,
            api_keys,
            kv,
            passwords: PasswordChecks::new(hasher, settings.password_checks.clone()),
            codec,
            settings,
            local_user: None,
        };
        match service.settings.mode.clone() {
            AuthMode::Password => {}
            AuthMode::Local { email, password } => {
                let email = Email::parse(&email)?;
                let password = Password::parse(&password)?;
                let user = service.ensure_user(&email, Some(&password), Role::Admin).await?;
                // The configured password is the password: keep the stored hash in step.
                if !service
                    .passwords
                    .verify(password.expose(), &user.password_hash)
                    .await?
                {
                    let updated = User {
                        password_hash: service.passwords.hash(&password).await?,
                        ..user
                    };
                    service.users.update(&updated).await?;
                }
            }
            AuthMode::None => {
                let email = Email::parse(LOCAL_EMAIL)?;
                service.local_user = Some(service.ensure_user(&email, None, Role::Admin).await?);
            }
        }
        Ok(service)
    }

    async fn ensure_user(&self, email: &Email, password: Option<&Password>, role: Role) -> AppResult<User> {
        if let Some(user) = self.users.by_email(email).await? {
            return Ok(user);
        }
        let password_hash = match password {
            Some(password) => self.passwords.hash(password).await?,
            // No password can match: the account is only reachable in `none` mode.
            None => "!".into(),
        };
        let user = User {
            id: UserId::new(),
            email: email.clone(),
            password_hash,
            role,
            active: true,
            created_at: Utc::now(),
        };
        self.users.insert(&user).await?;
        Ok(user)
    }

    pub fn mode(&self) -> &AuthMode {
        &self.settings.mode
    }

    /// How long a refresh token lasts.
    pub fn refresh_ttl(&self) -> Duration {
        self.settings.refresh_ttl
    }

    /// Who may register now: `closed` outside `password` mode, `open` while the
    /// deployment has no account (its first, the admin, may always be created).
    pub async fn registration(&self) -> AppResult<RegistrationMode> {
        if self.settings.mode != AuthMode::Password {
            return Ok(RegistrationMode::Closed);
        }
        if self.users.list(0, 1).await?.is_empty() {
            return Ok(RegistrationMode::Open);
        }
        Ok(self.settings.registration)
    }

    /// Creates an account (password mode) as the registration mode allows, using up the
    /// invite in `invite` mode. The first account becomes an admin, whatever the mode.
    pub async fn register(
        &self,
        email: &str,
        password: &str,
        invite: Option<&str>,
    ) -> AppResult<(User, TokenPair)> {
        if self.settings.mode != AuthMode::Password {
            return Err(AppError::Forbidden(
                "registration is off in this auth mode".into(),
            ));
        }
        let email = Email::parse(email)?;
        let password = Password::parse(password)?;
        let first = self.users.list(0, 1).await?.is_empty();
        let redeemed = match (first, self.settings.registration) {
            (true, _) | (false, RegistrationMode::Open) => None,
            (false, RegistrationMode::Closed) => {
                return Err(AppError::Forbidden(
                    "registration is closed here; ask an admin for an account".into(),
                ))
            }
            (false, RegistrationMode::Invite) => {
                let code = invite.ok_or_else(|| {
                    AppError::Forbidden("an invite is needed to create an account here".into())
                })?;
                Some(self.invites.redeem(code, &email).await?)
            }
        };
        let user = User {
            id: UserId::new(),
            email,
            password_hash: self.passwords.hash(&password).await?,
            role: if first { Role::Admin } else { Role::User },
            active: true,
            created_at: Utc::now(),
        };
        if let Err(err) = self.users.insert(&user).await {
            if let Some(redeemed) = redeemed {
                self.invites.restore(redeemed).await;
            }
            return Err(match err {
                crate::domain::DomainError::Conflict(_) => {
                    AppError::Conflict("an account with this email already exists".into())
                }
                other => other.into(),
            });
        }
        let tokens = self.issue(&user, None).await?;
        Ok((user, tokens))
    }

    pub async fn login(&self, email: &str, password: &str, client: IpAddr) -> AppResult<(User, TokenPair)> {
        if self.settings.mode == AuthMode::None {
            return Err(AppError::Forbidden(
                "there is nothing to sign in to in this auth mode".into(),
            ));
        }
        let attempt = self.limits.attempt(email, client);
        self.limits.admit(&attempt).await?;
        let wrong = || AppError::Unauthorized("wrong email or password".into());
        let user = match Email::parse(email) {
            Ok(email) => self.users.by_email(&email).await?,
            Err(_) => None,
        };
        // Unknown accounts cost a verification too: timing does not tell which exist.
        // A turn refused (too busy) is no failure: it counts towards no limit.
        let hash = user
            .as_ref()
            .map_or(self.passwords.decoy(), |u| u.password_hash.as_str());
        let matches = self.passwords.verify(password, hash).await?;
        let Some(user) = user.filter(|_| matches) else {
            self.limits.failed(&attempt).await?;
            return Err(wrong());
        };
        self.limits.succeeded(&attempt).await?;
        if !user.active {
            return Err(AppError::Forbidden("this account is deactivated".into()));
        }
        let tokens = self.issue(&user, None).await?;
        Ok((user, tokens))
    }

    pub async fn me(&self, principal: &Principal) -> AppResult<User> {
        self.users
            .by_id(&principal.user_id)
            .await?
            .ok_or_else(|| AppError::Unauthorized("the account no longer exists".into()))
    }

    /// Changes the password and signs out everywhere else.
    pub async fn change_password(
        &self,
        principal: &Principal,
        current: &str,
        new: &str,
    ) -> AppResult<TokenPair> {
        if self.settings.mode != AuthMode::Password {
            return Err(AppError::Forbidden(
                "passwords are set by configuration in this auth mode".into(),
            ));
        }
        let user = self.me(principal).await?;
        if !self.passwords.verify(current, &user.password_hash).await? {
            return Err(AppError::Unauthorized("the current password is wrong".into()));
        }
        let new = Password::parse(new)?;
        let user = User {
            password_hash: self.passwords.hash(&new).await?,
            ..user
        };
        self.users.update(&user).await?;
        self.logout_all(&user.id).await?;
        // Issued after the cut-off, so this pair keeps working.
        self.issue(&user, None).await
    }

    pub async fn list_users(
        &self,
        principal: &Principal,
        offset: usize,
        limit: usize,
    ) -> AppResult<Vec<User>> {
        require_admin(principal)?;
        Ok(self.users.list(offset, limit.clamp(1, 200)).await?)
    }

    /// Deactivating also ends every sign-in of the account.
    pub async fn set_active(&self, principal: &Principal, id: &str, active: bool) -> AppResult<User> {
        require_admin(principal)?;
        let id = UserId(id.to_owned());
        if id == principal.user_id && !active {
            return Err(AppError::Invalid("you cannot deactivate your own account".into()));
        }
        let user = self.users.by_id(&id).await?.ok_or(AppError::NotFound("user"))?;
        let user = User { active, ..user };
        self.users.update(&user).await?;
        if !active {
            self.logout_all(&user.id).await?;
        }
        Ok(user)
    }
}
