//! The bearer-token check in front of a service's protected routes. A service keeps only
//! the token's SHA-256 (the tool-api is given no more, so a process in its sandbox that
//! reads the environment learns nothing it could present) and compares digests in
//! constant time, so neither the token nor its length can be learnt from response timing.

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::api_error::{ApiError, KitCode};

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

    /// Whether an `Authorization` header value is `Bearer <the token>`.
    fn matches(&self, header: Option<&str>) -> bool {
        let presented = header.and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
        bool::from(Self::of(presented).0.ct_eq(&self.0))
    }
}

/// What [`require_token`] expects, and what it answers a request without it.
#[derive(Clone)]
pub struct ExpectedToken {
    /// `None` only in a service's explicit insecure development mode.
    digest: Option<TokenDigest>,
    /// The `401` message, naming the variable that holds the token.
    refusal: &'static str,
}

impl ExpectedToken {
    /// Requests must present the token of `digest` (none: in the insecure development
    /// mode, no token); one that does not is answered `401 unauthorized` with `refusal`.
    pub fn new(digest: Option<TokenDigest>, refusal: &'static str) -> Self {
        Self { digest, refusal }
    }
}

/// Middleware: passes a request with the expected bearer token on, answers any other
/// `401 unauthorized`.
pub async fn require_token(
    State(expected): State<ExpectedToken>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    if let Some(digest) = &expected.digest {
        let header = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        if !digest.matches(header) {
            return Err(ApiError::kit(KitCode::Unauthorized, expected.refusal));
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
        let hex = crate::sha256_hex(token);
        let digest = TokenDigest::parse_hex(&hex).unwrap();
        assert!(digest.matches(Some(&format!("Bearer {token}"))));
        assert!(
            !digest.matches(Some(&format!("Bearer {hex}"))),
            "the digest is no token"
        );
        assert!(!digest.matches(Some("Bearer a-sandbox-token-012345678")));
        assert!(!digest.matches(Some(token)), "the scheme is part of the header");
        assert!(!digest.matches(None));
        for bad in ["", "00", &hex[1..], &format!("{}zz", &hex[2..])] {
            assert!(TokenDigest::parse_hex(bad).is_none(), "{bad:?}");
        }
    }
}
