//! Signed file URLs: E2B's SDKs give out a link to one file of a sandbox
//! (`download_url`, `upload_url`) that a browser or `curl` can open with no header, signed
//! with the sandbox's access token as `v1_` + base64(SHA-256 of
//! `path:operation:user:token[:expiration]`). Through the one host such a link names no
//! sandbox (the SDK builds it on the fixed `E2B_SANDBOX_URL`), so the sandbox it is for is
//! the running one whose token makes its signature: each is tried, a hash apiece, from a
//! list of them read at a bounded pace (`running.rs`).

use base64::Engine;
use chrono::Utc;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::time::Instant;

use super::E2bService;
use crate::application::{AppError, AppResult};
use crate::domain::agent::SandboxAccess;
use crate::domain::e2b::E2bSandboxId;

/// What a signed link lets its holder do with the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOperation {
    /// `GET`: download it.
    Read,
    /// `POST`: upload it.
    Write,
}

impl FileOperation {
    fn label(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Write => "write",
        }
    }
}

/// A signed link's query, as the SDK wrote it.
pub struct SignedFile<'a> {
    pub path: &'a str,
    pub operation: FileOperation,
    /// `username`, or empty for the sandbox's default user.
    pub user: &'a str,
    pub signature: &'a str,
    /// Unix seconds after which the link no longer opens; none: it never expires.
    pub expiration: Option<i64>,
}

impl SignedFile<'_> {
    /// Whether the sandbox whose access token is `token` signed this link.
    fn signed_with(&self, token: &str) -> bool {
        let Some(presented) = self.signature.strip_prefix("v1_").and_then(|encoded| {
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(encoded)
                .ok()
        }) else {
            return false;
        };
        let mut hash = Sha256::new();
        hash.update(format!(
            "{}:{}:{}:{token}",
            self.path,
            self.operation.label(),
            self.user
        ));
        if let Some(expiration) = self.expiration {
            hash.update(format!(":{expiration}"));
        }
        bool::from(hash.finalize().as_slice().ct_eq(&presented))
    }
}

impl E2bService {
    /// The running sandbox a signed link is for: the one `named` (when the request names
    /// it), or else the running sandbox whose token signed it, with its id. An expired,
    /// altered or foreign link is `401`, saying which (an expired one in
    /// E2B's words, `signature is already expired`: ask the SDK for a new link).
    pub async fn admit_signed(
        &self,
        named: Option<&str>,
        signed: &SignedFile<'_>,
    ) -> AppResult<(E2bSandboxId, SandboxAccess)> {
        if let Some(expiration) = signed.expiration {
            if expiration < Utc::now().timestamp() {
                // E2B's own words, which its SDK's tests compare whole.
                return Err(AppError::Unauthorized("signature is already expired".into()));
            }
        }
        let signed_by = |id: &E2bSandboxId| signed.signed_with(&self.keys.tokens(id).access);
        let signer = match named {
            Some(id) => Some(E2bSandboxId::parse(id)?).filter(signed_by),
            None => {
                self.running
                    .find(&self.sandboxes, Instant::now(), signed_by)
                    .await?
            }
        };
        match signer {
            Some(id) => Ok((id.clone(), self.locate(&id).await?)),
            None => Err(AppError::Unauthorized(
                "this URL's signature is not one of a running sandbox's (for this path, operation and user)"
                    .into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FileOperation, SignedFile};

    fn link<'a>(signature: &'a str, expiration: Option<i64>) -> SignedFile<'a> {
        SignedFile {
            path: "notes/a.txt",
            operation: FileOperation::Read,
            user: "",
            signature,
            expiration,
        }
    }

    /// Figures from E2B's own `get_signature("notes/a.txt", "read", None, "token", …)`.
    #[test]
    fn a_signature_is_checked_as_the_sdk_makes_it() {
        let plain = "v1_id6WTWJaANsG9pSnFHOxEdwOIYDF5FcqJjLjIdePTaU";
        assert!(link(plain, None).signed_with("token"));
        assert!(!link(plain, None).signed_with("other"));
        assert!(
            !link(plain, Some(1)).signed_with("token"),
            "the expiration is signed"
        );
        let mut write = link(plain, None);
        write.operation = FileOperation::Write;
        assert!(!write.signed_with("token"), "the operation is signed");
        let expiring = "v1_QWfbT38w/T7ATSWA5UnWndJW2pSUSLoyu1CTBx+KtsY";
        assert!(link(expiring, Some(2_000_000_000)).signed_with("token"));
        assert!(!link("id6WTWJaANsG9pSnFHOxEdwOIYDF5FcqJjLjIdePTaU", None).signed_with("token"));
        assert!(!link("v1_not base64!", None).signed_with("token"));
    }
}
