//! Accounts wired: the token codec and sign-in mode checked from the settings (refusing
//! unsafe ones in production), then the auth service with its invites and API keys.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};

use crate::application::api_keys::{ApiKeySettings, ApiKeys};
use crate::application::auth::{AuthMode, AuthPorts, AuthService, AuthSettings};
use crate::application::invites::Invites;
use crate::application::login_limits::LoginLimitSettings;
use crate::application::password_checks::PasswordCheckSettings;
use crate::config::{
    AuthConfig, AuthModeName, Environment, JwtAlgorithm, Settings, DEVELOPMENT_JWT_SECRET,
    MIN_PRODUCTION_SECRET_BYTES,
};
use crate::infrastructure::password::Argon2Hasher;
use crate::infrastructure::stores::StoragePorts;
use crate::infrastructure::tokens::{JwtCodec, SigningKey};

/// How people sign in and how their tokens are signed, checked before any store opens.
pub(super) struct SignIn {
    codec: Arc<JwtCodec>,
    mode: AuthMode,
}

impl SignIn {
    pub(super) fn check(settings: &Settings) -> anyhow::Result<Self> {
        Ok(Self {
            codec: Arc::new(jwt_codec(&settings.auth, settings.environment)?),
            mode: auth_mode(&settings.auth)?,
        })
    }
}

/// The services that know people: sign-in, invites, API keys.
pub(super) struct Accounts {
    pub auth: AuthService,
    pub invites: Arc<Invites>,
    pub api_keys: Arc<ApiKeys>,
}

impl Accounts {
    /// Builds them on the opened stores; the configured account is set up here.
    pub(super) async fn build(
        settings: &Settings,
        stores: &StoragePorts,
        sign_in: SignIn,
    ) -> anyhow::Result<Self> {
        let hasher = Arc::new(Argon2Hasher::new(
            settings.auth.argon2_memory_kib,
            settings.auth.argon2_iterations,
            settings.auth.password_threads,
        )?);
        let invites = Arc::new(Invites::new(stores.kv.clone()));
        let api_keys = Arc::new(ApiKeys::new(
            stores.api_keys.clone(),
            stores.users.clone(),
            stores.kv.clone(),
            ApiKeySettings {
                requests_per_minute: settings.api_keys.requests_per_minute,
                per_person: settings.api_keys.per_person,
                usage_every: Duration::from_secs(settings.api_keys.usage_write_secs.max(1)),
            },
        ));
        let auth = AuthService::new(
            AuthPorts {
                users: stores.users.clone(),
                refresh: stores.refresh_tokens.clone(),
                kv: stores.kv.clone(),
                hasher,
                codec: sign_in.codec,
            },
            invites.clone(),
            api_keys.clone(),
            AuthSettings {
                mode: sign_in.mode,
                registration: settings.auth.registration,
                access_ttl: Duration::from_secs(settings.auth.access_ttl_secs),
                refresh_ttl: Duration::from_secs(settings.auth.refresh_ttl_secs),
                login_limits: LoginLimitSettings {
                    failures_before_backoff: settings.auth.login_failures_before_backoff,
                    backoff_base: Duration::from_secs(settings.auth.login_backoff_base_secs),
                    backoff_max: Duration::from_secs(settings.auth.login_backoff_max_secs),
                    failures_per_address: settings.auth.login_failures_per_address,
                    failures_per_account: settings.auth.login_failures_per_account,
                    account_delay_base: Duration::from_millis(settings.auth.login_account_delay_base_ms),
                    account_delay_max: Duration::from_secs(settings.auth.login_account_delay_max_secs),
                    window: Duration::from_secs(settings.auth.login_window_secs),
                },
                password_checks: PasswordCheckSettings {
                    at_once: settings.auth.password_threads,
                    queue: settings.auth.password_queue,
                    wait: Duration::from_secs(settings.auth.password_wait_secs),
                },
            },
        )
        .await
        .context("setting up the configured account")?;
        Ok(Self {
            auth,
            invites,
            api_keys,
        })
    }
}

/// What keys the rented sandboxes' access tokens: the token-signing secret, or the
/// private key when tokens are signed with a key pair.
pub(super) fn e2b_token_secret(config: &AuthConfig) -> anyhow::Result<String> {
    match (&config.jwt_algorithm, &config.jwt_private_key_file) {
        (JwtAlgorithm::Hs256, _) | (_, None) => Ok(config.jwt_secret.clone()),
        (_, Some(file)) => {
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
        }
    }
}

fn auth_mode(config: &AuthConfig) -> anyhow::Result<AuthMode> {
    Ok(match config.mode {
        AuthModeName::Password => AuthMode::Password,
        AuthModeName::None => AuthMode::None,
        AuthModeName::Local => match (&config.local_email, &config.local_password) {
            (Some(email), Some(password)) => AuthMode::Local {
                email: email.clone(),
                password: password.clone(),
            },
            _ => bail!("AUTH_MODE=local needs BACKEND_AUTH__LOCAL_EMAIL and BACKEND_AUTH__LOCAL_PASSWORD"),
        },
    })
}

fn jwt_codec(config: &AuthConfig, environment: Environment) -> anyhow::Result<JwtCodec> {
    let read = |file: &Option<std::path::PathBuf>, what: &str| -> anyhow::Result<Vec<u8>> {
        let file = file
            .as_ref()
            .with_context(|| format!("{what} is required for {:?}", config.jwt_algorithm))?;
        std::fs::read(file).with_context(|| format!("reading {}", file.display()))
    };
    match config.jwt_algorithm {
        JwtAlgorithm::Hs256 => {
            let secret = config.jwt_secret.as_bytes();
            if environment == Environment::Production
                && (config.jwt_secret == DEVELOPMENT_JWT_SECRET || secret.len() < MIN_PRODUCTION_SECRET_BYTES)
            {
                bail!(
                    "refusing to start in production with the default or a short JWT secret: set JWT_SECRET \
                     to at least {MIN_PRODUCTION_SECRET_BYTES} random bytes (e.g. `openssl rand -hex 32`)"
                );
            }
            if config.jwt_secret == DEVELOPMENT_JWT_SECRET {
                tracing::warn!(
                    "using the development JWT secret; set JWT_SECRET before exposing this server"
                );
            }
            JwtCodec::new(SigningKey::Hs256 { secret })
        }
        JwtAlgorithm::Rs256 | JwtAlgorithm::Eddsa => {
            let private_pem = read(&config.jwt_private_key_file, "BACKEND_AUTH__JWT_PRIVATE_KEY_FILE")?;
            let public_pem = read(&config.jwt_public_key_file, "BACKEND_AUTH__JWT_PUBLIC_KEY_FILE")?;
            let key = if config.jwt_algorithm == JwtAlgorithm::Rs256 {
                SigningKey::Rs256 {
                    private_pem: &private_pem,
                    public_pem: &public_pem,
                }
            } else {
                SigningKey::EdDsa {
                    private_pem: &private_pem,
                    public_pem: &public_pem,
                }
            };
            JwtCodec::new(key).context("loading the JWT key pair")
        }
    }
}
