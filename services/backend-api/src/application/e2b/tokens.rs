//! A rented sandbox's tokens. They are not stored: each is an HMAC of the sandbox's id
//! under the server's secret, so any replica checks one without a read, and they are
//! shown again on every connect as E2B's API does. The access token opens everything in
//! the sandbox; the traffic token, which E2B's code interpreter SDK sends alone on some
//! calls (its contexts), opens the code interpreter only.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::domain::e2b::E2bSandboxId;

/// What opens a sandbox's data plane: `access` everything (`X-Access-Token`), `traffic`
/// the code interpreter only (`E2B-Traffic-Access-Token`).
pub struct SandboxTokens {
    pub access: String,
    pub traffic: String,
}

#[derive(Clone, Copy)]
pub enum TokenKind {
    Access,
    Traffic,
}

impl TokenKind {
    fn label(self) -> &'static [u8] {
        match self {
            Self::Access => b"access:",
            Self::Traffic => b"traffic:",
        }
    }
}

/// Makes and checks the tokens, keyed by the server's secret.
pub struct TokenKeys(Vec<u8>);

impl TokenKeys {
    pub fn new(secret: &str) -> Self {
        Self([b"e2b-sandbox-tokens:".as_slice(), secret.as_bytes()].concat())
    }

    /// The sandbox's tokens, as the SDK is given them.
    pub fn tokens(&self, id: &E2bSandboxId) -> SandboxTokens {
        SandboxTokens {
            access: service_kit::hex(&self.mac(TokenKind::Access, id).finalize().into_bytes()),
            traffic: service_kit::hex(&self.mac(TokenKind::Traffic, id).finalize().into_bytes()),
        }
    }

    /// Whether `token` is the sandbox's token of `kind` (compared in constant time).
    pub fn opens(&self, kind: TokenKind, id: &E2bSandboxId, token: &str) -> bool {
        service_kit::unhex(token).is_some_and(|bytes| self.mac(kind, id).verify_slice(&bytes).is_ok())
    }

    fn mac(&self, kind: TokenKind, id: &E2bSandboxId) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("an HMAC key");
        mac.update(kind.label());
        mac.update(id.as_str().as_bytes());
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_token_opens_its_own_sandbox_and_kind_only() {
        let keys = TokenKeys::new("secret");
        let (one, two) = (E2bSandboxId::new(), E2bSandboxId::new());
        let tokens = keys.tokens(&one);
        assert!(keys.opens(TokenKind::Access, &one, &tokens.access));
        assert!(keys.opens(TokenKind::Traffic, &one, &tokens.traffic));
        assert!(!keys.opens(TokenKind::Access, &one, &tokens.traffic));
        assert!(!keys.opens(TokenKind::Access, &two, &tokens.access));
        assert!(!TokenKeys::new("other").opens(TokenKind::Access, &one, &tokens.access));
        for bad in ["", "abc", "zz", &tokens.access[1..]] {
            assert!(!keys.opens(TokenKind::Access, &one, bad), "{bad}");
        }
    }
}
