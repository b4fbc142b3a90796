//! Bearer-token check for every route but `/health`. The tool-api keeps only the token's
//! SHA-256 — which is all the sandbox-manager gives it, so a process in the sandbox that
//! reads the environment learns nothing it could present — and compares digests in
//! constant time.

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tool_api_contract::ErrorCode;

use crate::error::ToolError;

/// The SHA-256 of the token a request must present.
#[derive(Clone, Copy)]
pub struct TokenDigest([u8; 32]);

impl TokenDigest {
    pub fn of(token: &str) -> Self {
        Self(Sha256::digest(token.as_bytes()).into())
    }

    /// 64 hex digits; `None` for anything else.
    pub fn parse_hex(hex: &str) -> Option<Self> {
        let hex = hex.trim().as_bytes();
        let mut digest = [0u8; 32];
        if hex.len() != 64 {
            return None;
        }
        for (byte, pair) in digest.iter_mut().zip(hex.chunks(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(Self(digest))
    }

    fn matches(&self, header: Option<&str>) -> bool {
        let presented = header.and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
        bool::from(Self::of(presented).0.ct_eq(&self.0))
    }
}

/// The expected token; `None` only in the explicit insecure development mode.
#[derive(Clone)]
pub struct ExpectedToken(pub Option<TokenDigest>);

pub async fn require_token(
    State(expected): State<ExpectedToken>,
    request: Request,
    next: Next,
) -> Result<Response, ToolError> {
    if let Some(expected) = &expected.0 {
        let header = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        if !expected.matches(header) {
            return Err(ToolError::new(
                ErrorCode::Unauthorized,
                "missing or wrong bearer token (Authorization: Bearer <SANDBOX_TOKEN>)",
            ));
        }
    }
    Ok(next.run(request).await)
}

#[cfg(test)]
mod tests {
    use super::TokenDigest;

    #[test]
    fn a_token_matches_its_digest_only() {
        let token = "a-sandbox-token-0123456789";
        let hex = service_kit::sha256_hex(token);
        let digest = TokenDigest::parse_hex(&hex).unwrap();
        assert!(digest.matches(Some(&format!("Bearer {token}"))));
        assert!(
            !digest.matches(Some(&format!("Bearer {hex}"))),
            "the digest is no token"
        );
        assert!(!digest.matches(Some("Bearer a-sandbox-token-012345678")));
        assert!(!digest.matches(None));
        for bad in ["", "00", &hex[1..], &format!("{}zz", &hex[2..])] {
            assert!(TokenDigest::parse_hex(bad).is_none(), "{bad:?}");
        }
    }
}
