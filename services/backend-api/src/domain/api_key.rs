//! Personal API keys: a long-lived bearer credential a person makes for scripts and
//! other programs (`Authorization: Bearer sp_…`, or `X-API-Key: e2b_…` for E2B's SDKs),
//! instead of signing in. The secret is
//! shown once, at creation; the store keeps only its SHA-256, so a read of the store
//! lets no one in. A key acts as its owner within its [`ApiKeyScope`] until it expires
//! or is revoked.

use chrono::{DateTime, Duration, Utc};
use rand::distr::{Alphanumeric, SampleString};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::agent::TokenUsage;
use super::error::{DomainError, DomainResult};
use super::user::UserId;

/// Starts every key but a `sandboxes` one, so a bearer token tells at a glance whether it
/// is a key or a JWT (and secret scanners can recognise leaked ones).
const SECRET_PREFIX: &str = "sp_";
/// Starts a `sandboxes` key: E2B's SDKs refuse a key not shaped `e2b_<hex>`.
const E2B_PREFIX: &str = "e2b_";
/// Random letters and digits after the prefix: about 238 bits.
const SECRET_CHARS: usize = 40;
/// Random bytes of a `sandboxes` key, written as twice as many hex digits: 160 bits.
const E2B_BYTES: usize = 20;
/// How many of them a listing shows, to tell keys apart.
const SHOWN_CHARS: usize = 8;
/// Longest name.
const MAX_NAME_CHARS: usize = 100;
/// Furthest ahead a key may expire in days (ten years).
pub const MAX_DAYS: u32 = 3650;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ApiKeyId(String);

impl ApiKeyId {
    pub fn new() -> Self {
        Self(uuid::Uuid::now_v7().to_string())
    }

    /// Anything but an id names no key.
    pub fn parse(raw: &str) -> DomainResult<Self> {
        uuid::Uuid::parse_str(raw)
            .map(|id| Self(id.to_string()))
            .map_err(|_| DomainError::NotFound("API key"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for ApiKeyId {
    fn default() -> Self {
        Self::new()
    }
}

/// What a key may do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ApiKeyScope {
    /// Only the jobs API and who the key belongs to: for a script that runs tasks.
    Jobs,
    /// Only the E2B-compatible sandbox API under `/e2b`, sent as `X-API-Key` by E2B's
    /// SDKs; its secret is shaped `e2b_<hex>` as they require.
    Sandboxes,
    /// Everything its owner may do, making and revoking keys included.
    #[default]
    Full,
}

impl ApiKeyScope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jobs => "jobs",
            Self::Sandboxes => "sandboxes",
            Self::Full => "full",
        }
    }
}

/// A key's name, for its owner to tell keys apart: 1 to 100 characters, no control
/// characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiKeyName(String);

impl ApiKeyName {
    pub fn parse(raw: &str) -> DomainResult<Self> {
        let name = raw.trim();
        let length = name.chars().count();
        if length == 0 || length > MAX_NAME_CHARS || name.chars().any(char::is_control) {
            return Err(DomainError::InvalidField {
                field: "name",
                message: format!("give the key a name of 1 to {MAX_NAME_CHARS} characters, on one line"),
            });
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A key's secret, as its holder sends it. Never stored, logged or shown again.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKeySecret(String);

impl ApiKeySecret {
    /// A new secret of the shape `scope`'s keys have.
    pub fn generate(scope: ApiKeyScope) -> Self {
        match scope {
            ApiKeyScope::Sandboxes => {
                let mut random = [0u8; E2B_BYTES];
                rand::rng().fill_bytes(&mut random);
                Self(format!("{E2B_PREFIX}{}", service_kit::hex(&random)))
            }
            ApiKeyScope::Jobs | ApiKeyScope::Full => Self(format!(
                "{SECRET_PREFIX}{}",
                Alphanumeric.sample_string(&mut rand::rng(), SECRET_CHARS)
            )),
        }
    }

    /// Whether a bearer token is meant as a key (rather than an access token).
    pub fn claimed_by(bearer: &str) -> bool {
        bearer.starts_with(SECRET_PREFIX) || bearer.starts_with(E2B_PREFIX)
    }

    /// A key's shape exactly, or `None` (a mistyped or cut key).
    pub fn parse(raw: &str) -> Option<Self> {
        let shaped = if let Some(random) = raw.strip_prefix(SECRET_PREFIX) {
            random.len() == SECRET_CHARS && random.bytes().all(|b| b.is_ascii_alphanumeric())
        } else if let Some(hex) = raw.strip_prefix(E2B_PREFIX) {
            hex.len() == 2 * E2B_BYTES && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        } else {
            false
        };
        shaped.then(|| Self(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the store keeps and finds the key by.
    pub fn digest(&self) -> String {
        service_kit::sha256_hex(&self.0)
    }

    /// The first random characters, which listings show.
    pub fn shown(&self) -> &str {
        let prefix = if self.0.starts_with(E2B_PREFIX) {
            E2B_PREFIX
        } else {
            SECRET_PREFIX
        };
        &self.0[prefix.len()..prefix.len() + SHOWN_CHARS]
    }
}

impl std::fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKeySecret(..)")
    }
}

/// A key as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiKey {
    pub id: ApiKeyId,
    pub owner: UserId,
    /// The owner's address, for the admins' list (addresses do not change).
    pub owner_email: String,
    pub name: ApiKeyName,
    /// The secret's first random characters ([`ApiKeySecret::shown`]).
    pub prefix: String,
    /// The secret's SHA-256 in hex ([`ApiKeySecret::digest`]).
    pub digest: String,
    pub scope: ApiKeyScope,
    pub created_at: DateTime<Utc>,
    /// Never, when absent.
    pub expires_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
    /// Requests made while the key was valid and within its rate limit.
    pub requests: u64,
    /// The model's tokens over the jobs made with the key, added as each ends.
    #[serde(default)]
    pub tokens: TokenUsage,
    /// Revoked keys are kept (not listed) so that using one is told it was revoked.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl ApiKey {
    /// Why the key may not be used at `now`, or `None` when it may.
    pub fn refusal(&self, now: DateTime<Utc>) -> Option<String> {
        let when = |at: DateTime<Utc>| at.format("%Y-%m-%d %H:%M UTC");
        if let Some(at) = self.revoked_at {
            return Some(format!("this API key was revoked on {}", when(at)));
        }
        match self.expires_at {
            Some(at) if at <= now => Some(format!("this API key expired on {}; make a new one", when(at))),
            _ => None,
        }
    }
}

/// When a new key expires: at `at`, or `days` after `now`, or never when neither is
/// given. A time that has passed, or both ways at once, is refused.
pub fn expiry(
    at: Option<DateTime<Utc>>,
    days: Option<u32>,
    now: DateTime<Utc>,
) -> DomainResult<Option<DateTime<Utc>>> {
    match (at, days) {
        (Some(_), Some(_)) => Err(DomainError::Invalid(
            "give expires_at or expires_in_days, not both".into(),
        )),
        (Some(at), None) if at <= now => Err(DomainError::InvalidField {
            field: "expires_at",
            message: "this time has passed; give one in the future".into(),
        }),
        (None, Some(days)) if !(1..=MAX_DAYS).contains(&days) => Err(DomainError::InvalidField {
            field: "expires_in_days",
            message: format!("give 1 to {MAX_DAYS} days"),
        }),
        (None, Some(days)) => Ok(Some(now + Duration::days(days.into()))),
        (at, None) => Ok(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_parse_back_and_hide_behind_their_digest() {
        let secret = ApiKeySecret::generate(ApiKeyScope::Full);
        assert_ne!(secret, ApiKeySecret::generate(ApiKeyScope::Full));
        assert!(ApiKeySecret::claimed_by(secret.expose()));
        assert_eq!(ApiKeySecret::parse(secret.expose()), Some(secret.clone()));
        assert_eq!(secret.shown(), &secret.expose()[3..11]);
        assert_eq!(secret.digest().len(), 64);
        assert!(!secret.digest().contains(&secret.expose()[3..]));
        assert_eq!(format!("{secret:?}"), "ApiKeySecret(..)");
        let cut = &secret.expose()[..secret.expose().len() - 1];
        for bad in [
            "",
            "sp_",
            cut,
            &format!("{cut}!"),
            &format!("{}x", secret.expose()),
        ] {
            assert_eq!(ApiKeySecret::parse(bad), None, "{bad:?}");
        }
        assert!(!ApiKeySecret::claimed_by("eyJhbGciOi.a.b"));
    }

    #[test]
    fn sandboxes_keys_have_the_shape_e2b_sdks_require() {
        let secret = ApiKeySecret::generate(ApiKeyScope::Sandboxes);
        let hex = secret.expose().strip_prefix("e2b_").expect("the e2b_ prefix");
        assert_eq!(hex.len(), 40);
        assert!(
            hex.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{hex}"
        );
        assert!(ApiKeySecret::claimed_by(secret.expose()));
        assert_eq!(ApiKeySecret::parse(secret.expose()), Some(secret.clone()));
        assert_eq!(secret.shown(), &hex[..8]);
        for bad in [
            "e2b_",
            "e2b_00",
            &format!("e2b_{}", hex.to_uppercase()),
            &format!("e2b_{hex}0"),
        ] {
            assert_eq!(ApiKeySecret::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(ApiKeyName::parse("  CI  ").unwrap().as_str(), "CI");
        assert!(ApiKeyName::parse(&"é".repeat(100)).is_ok());
        for bad in ["", "   ", &"a".repeat(101), "two\nlines"] {
            assert!(ApiKeyName::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn expiry_is_in_the_future_and_given_one_way() {
        let now = Utc::now();
        assert_eq!(expiry(None, None, now).unwrap(), None);
        assert_eq!(expiry(None, Some(7), now).unwrap(), Some(now + Duration::days(7)));
        let later = now + Duration::hours(1);
        assert_eq!(expiry(Some(later), None, now).unwrap(), Some(later));
        assert!(expiry(Some(now), None, now).is_err());
        assert!(expiry(None, Some(0), now).is_err());
        assert!(expiry(None, Some(MAX_DAYS + 1), now).is_err());
        assert!(expiry(Some(later), Some(7), now).is_err());
    }

    #[test]
    fn a_key_is_refused_once_revoked_or_expired() {
        let now = Utc::now();
        let secret = ApiKeySecret::generate(ApiKeyScope::Full);
        let key = ApiKey {
            id: ApiKeyId::new(),
            owner: UserId::new(),
            owner_email: "ada@example.org".into(),
            name: ApiKeyName::parse("CI").unwrap(),
            prefix: secret.shown().to_owned(),
            digest: secret.digest(),
            scope: ApiKeyScope::Full,
            created_at: now,
            expires_at: Some(now + Duration::seconds(1)),
            last_used_at: None,
            requests: 0,
            tokens: TokenUsage::default(),
            revoked_at: None,
        };
        assert_eq!(key.refusal(now), None);
        assert!(key
            .refusal(now + Duration::seconds(1))
            .unwrap()
            .contains("expired"));
        let revoked = ApiKey {
            revoked_at: Some(now),
            ..key
        };
        assert!(revoked.refusal(now).unwrap().contains("revoked"));
    }
}
