//! Who may create an account, and invites: how a person joins a deployment whose
//! registration is `invite`. An admin makes an invite (optionally for one address); its
//! code is shown once and kept only as a SHA-256, with its expiry, in the key-value store,
//! and the registration it admits uses it up.

use chrono::{DateTime, Utc};
use rand::distr::{Alphanumeric, SampleString};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::DomainError;

/// Who may create an account with a password. The deployment's first account (its
/// admin) may always be created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RegistrationMode {
    /// Anyone who reaches the sign-in page.
    Open,
    /// Someone with an unused invite from an admin (the default: a deployment reachable
    /// from the internet takes no stranger's account unless its operator says so).
    #[default]
    Invite,
    /// No one: an admin's invite is refused too.
    Closed,
}

/// An invite's secret code, as the person types or follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteCode(String);

const CODE_LENGTH: usize = 24;

impl InviteCode {
    pub fn generate() -> Self {
        Self(Alphanumeric.sample_string(&mut rand::rng(), CODE_LENGTH))
    }

    /// Anything but the letters and digits of a code names no invite.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let raw = raw.trim();
        if raw.len() == CODE_LENGTH && raw.bytes().all(|b| b.is_ascii_alphanumeric()) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(DomainError::NotFound("invite"))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where the invite is kept: the code's digest, so a read of the store admits no one.
    pub fn key(&self) -> String {
        format!("invite:{}", service_kit::sha256_hex(&self.0))
    }
}

/// What an invite admits, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteGrant {
    /// Only this address may use it, when set.
    pub email: Option<String>,
    pub expires_at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::InviteCode;

    #[test]
    fn codes_are_random_and_parse_back() {
        let code = InviteCode::generate();
        assert_ne!(code, InviteCode::generate());
        assert_eq!(InviteCode::parse(code.as_str()).unwrap(), code);
        assert_eq!(InviteCode::parse(&format!(" {} ", code.as_str())).unwrap(), code);
        assert!(code.key().starts_with("invite:") && !code.key().contains(code.as_str()));
        for bad in ["", "short", &"a".repeat(25), &format!("{}!", &code.as_str()[1..])] {
            assert!(InviteCode::parse(bad).is_err(), "{bad:?}");
        }
    }
}
