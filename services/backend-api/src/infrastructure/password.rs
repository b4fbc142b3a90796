//! Password hashing with Argon2id (RFC 9106), PHC strings in the store. The cost is
//! configurable; the default is OWASP's (19 MiB, 2 passes, 1 lane). Hashing runs on the
//! blocking pool so a burst of logins does not stall other requests.

use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::domain::ports::PasswordHasher;
use crate::domain::user::Password;
use crate::domain::{DomainError, DomainResult};

pub struct Argon2Hasher {
    argon2: Argon2<'static>,
    decoy: String,
}

impl Argon2Hasher {
    /// `memory_kib` and `iterations` as in RFC 9106; one lane.
    pub fn new(memory_kib: u32, iterations: u32) -> anyhow::Result<Self> {
        let params = Params::new(memory_kib, iterations, 1, None)
            .map_err(|err| anyhow::anyhow!("argon2 parameters: {err}"))?;
        let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let decoy = argon2
            .hash_password(uuid::Uuid::new_v4().as_bytes())
            .map_err(|err| anyhow::anyhow!("argon2: {err}"))?
            .to_string();
        Ok(Self { argon2, decoy })
    }
}

#[async_trait::async_trait]
impl PasswordHasher for Argon2Hasher {
    async fn hash(&self, password: &Password) -> DomainResult<String> {
        let argon2 = self.argon2.clone();
        let password = password.expose().to_owned();
        tokio::task::spawn_blocking(move || argon2.hash_password(password.as_bytes()).map(|h| h.to_string()))
            .await
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("hashing task: {err}")))?
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("argon2: {err}")))
    }

    async fn verify(&self, password: &str, hash: &str) -> bool {
        let argon2 = self.argon2.clone();
        let (password, hash) = (password.to_owned(), hash.to_owned());
        tokio::task::spawn_blocking(move || {
            argon2.verify_password(password.as_bytes(), hash.as_str()).is_ok()
        })
        .await
        .unwrap_or(false)
    }

    fn decoy(&self) -> &str {
        &self.decoy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = Argon2Hasher::new(1024, 1).unwrap();
        let password = Password::parse("correct horse battery").unwrap();
        let hash = hasher.hash(&password).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"), "{hash}");
        assert!(hasher.verify("correct horse battery", &hash).await);
        assert!(!hasher.verify("correct horse battery!", &hash).await);
        assert!(!hasher.verify("correct horse battery", "not a hash").await);
        assert!(!hasher.verify("", hasher.decoy()).await);
        assert_ne!(hash, hasher.hash(&password).await.unwrap(), "salted");
    }
}
