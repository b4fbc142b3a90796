//! What every Sandpiper server sets up the same way, so the services cannot differ in it:
//! tracing, the OpenAPI bearer scheme, the shutdown signal, the hex SHA-256 that names
//! stored secrets (tokens, invites) and content (images), the error answer ([`ApiError`])
//! and the settings loader every service uses, and the rest of the HTTP kit of the
//! services behind backend-api: the `Json`/`Query` extractors, the bearer-token check and
//! the router split. A new service built on them answers errors, limits and auth exactly
//! as the others do.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

mod api_error;
mod auth;
mod extract;
mod router;
mod settings;

use tracing_subscriber::EnvFilter;

pub use api_error::{contract_has_kit_codes, ApiError, KitCode, KitDetail};
pub use auth::{require_token, ExpectedToken, TokenDigest};
pub use extract::{Json, Query};
pub use router::ServiceRoutes;
pub use settings::{load_settings, read_settings};

/// Tracing to stderr: `RUST_LOG` filters (default `info`), `LOG_FORMAT=json` switches to
/// JSON lines for log collectors.
pub fn init_tracing() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f == "json") {
        builder.json().init();
    } else {
        builder.init();
    }
}

/// Declares the `bearer` HTTP security scheme in an OpenAPI document, for
/// `#[openapi(modifiers(&service_kit::OPAQUE_BEARER), security(("bearer" = [])))]`.
pub struct BearerAuth {
    /// What the token is (`bearerFormat`), e.g. `JWT`; `None` for an opaque token.
    pub format: Option<&'static str>,
}

/// A service token or other opaque bearer token.
pub const OPAQUE_BEARER: BearerAuth = BearerAuth { format: None };
/// A JWT access token.
pub const JWT_BEARER: BearerAuth = BearerAuth { format: Some("JWT") };

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let mut scheme = HttpBuilder::new().scheme(HttpAuthScheme::Bearer);
        if let Some(format) = self.format {
            scheme = scheme.bearer_format(format);
        }
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bearer", SecurityScheme::Http(scheme.build()));
    }
}

/// The SHA-256 of `data` in lower-case hex.
pub fn sha256_hex(data: impl AsRef<[u8]>) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(data.as_ref()))
}

/// `bytes` in lower-case hex, two digits each (digests, signatures).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes `text` spells in hex (either case), or `None` when it is not an even number
/// of hex digits; the inverse of [`hex`].
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(err) => {
                tracing::error!(%err, "cannot listen for SIGTERM; only Ctrl-C stops the server");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}
