//! Users: identities, roles, and the rules for emails and passwords, enforced by parsing
//! raw input into these types at the edge.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::error::{DomainError, DomainResult};

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UserId(pub String);

impl UserId {
    pub fn new() -> Self {
        Self(uuid::Uuid::now_v7().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for UserId {
    fn default() -> Self {
        Self::new()
    }
}

/// A syntactically valid email address, trimmed and lower-cased (so one mailbox is one
/// account whatever the capitalisation).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> DomainResult<Self> {
        let email = raw.trim().to_lowercase();
        let invalid = || DomainError::Invalid(format!("'{}' is not a valid email address", raw.trim()));
        if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid());
        }
        let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
        let domain_ok = domain.contains('.')
            && !domain.contains('@')
            && domain
                .split('.')
                .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
        if local.is_empty() || local.len() > 64 || !domain_ok {
            return Err(invalid());
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password that satisfies the rules, before hashing. Never logged or serialised.
pub struct Password(String);

impl Password {
    pub const MIN_LEN: usize = 10;
    pub const MAX_LEN: usize = 256;

    pub fn parse(raw: &str) -> DomainResult<Self> {
        let len = raw.chars().count();
        if len < Self::MIN_LEN {
            return Err(DomainError::Invalid(format!(
                "the password must have at least {} characters",
                Self::MIN_LEN
            )));
        }
        if len > Self::MAX_LEN {
            return Err(DomainError::Invalid(format!(
                "the password must have at most {} characters",
                Self::MAX_LEN
            )));
        }
        let distinct: std::collections::HashSet<char> = raw.chars().collect();
        if distinct.len() < 4 {
            return Err(DomainError::Invalid(
                "the password must use at least 4 different characters".into(),
            ));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    User,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct User {
    pub id: UserId,
    pub email: Email,
    /// PHC string (Argon2id).
    pub password_hash: String,
    pub role: Role,
    pub active: bool,
    pub created_at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(
            Email::parse("  Ada@Example.COM ").unwrap().as_str(),
            "ada@example.com"
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a b@example.com",
            "ada@@example.com",
            "ada@-example.com",
            "ada@example..com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_follow_the_rules() {
        assert!(Password::parse("correct horse").is_ok());
        assert!(Password::parse("short").is_err());
        assert!(Password::parse("aaaaaaaaaaaa").is_err());
        assert!(Password::parse(&"ab1!".repeat(100)).is_err());
        assert!(!format!("{:?}", Password::parse("correct horse").unwrap()).contains("horse"));
    }
}
