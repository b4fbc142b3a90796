//! Access tokens as JWTs: HS256 with the configured secret, or RS256 / EdDSA with a PEM
//! key pair (so other services can verify tokens without being able to mint them).
//! Only the configured algorithm is accepted: a token signed any other way — `none`
//! included — is invalid.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};

use crate::domain::ports::{AccessClaims, AccessTokenCodec};
use crate::domain::{DomainError, DomainResult};

/// Clock skew tolerated between replicas when checking expiry.
const LEEWAY_SECS: u64 = 5;

pub struct JwtCodec {
    header: Header,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

/// How tokens are signed.
pub enum SigningKey<'a> {
    Hs256 {
        secret: &'a [u8],
    },
    Rs256 {
        private_pem: &'a [u8],
        public_pem: &'a [u8],
    },
    EdDsa {
        private_pem: &'a [u8],
        public_pem: &'a [u8],
    },
}

impl JwtCodec {
    pub fn new(key: SigningKey<'_>) -> anyhow::Result<Self> {
        let (algorithm, encoding, decoding) = match key {
            SigningKey::Hs256 { secret } => (
                Algorithm::HS256,
                EncodingKey::from_secret(secret),
                DecodingKey::from_secret(secret),
            ),
            SigningKey::Rs256 {
                private_pem,
                public_pem,
            } => (
                Algorithm::RS256,
                EncodingKey::from_rsa_pem(private_pem)?,
                DecodingKey::from_rsa_pem(public_pem)?,
            ),
            SigningKey::EdDsa {
                private_pem,
                public_pem,
            } => (
                Algorithm::EdDSA,
                EncodingKey::from_ed_pem(private_pem)?,
                DecodingKey::from_ed_pem(public_pem)?,
            ),
        };
        let mut validation = Validation::new(algorithm);
        validation.leeway = LEEWAY_SECS;
        validation.set_required_spec_claims(&["exp", "sub", "iat"]);
        Ok(Self {
            header: Header::new(algorithm),
            encoding,
            decoding,
            validation,
        })
    }
}

impl AccessTokenCodec for JwtCodec {
    fn encode(&self, claims: &AccessClaims) -> DomainResult<String> {
        jsonwebtoken::encode(&self.header, claims, &self.encoding)
            .map_err(|err| DomainError::Internal(anyhow::anyhow!("signing an access token: {err}")))
    }

    fn decode(&self, token: &str) -> Option<AccessClaims> {
        jsonwebtoken::decode::<AccessClaims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::{Role, UserId};

    fn claims(exp_in: i64) -> AccessClaims {
        let now = chrono::Utc::now();
        AccessClaims {
            sub: UserId("u1".into()),
            role: Role::User,
            jti: "j1".into(),
            iat: now.timestamp(),
            iat_ms: now.timestamp_millis(),
            exp: now.timestamp() + exp_in,
        }
    }

    #[test]
    fn only_untouched_unexpired_tokens_of_this_key_decode() {
        let codec = JwtCodec::new(SigningKey::Hs256 {
            secret: b"0123456789abcdef0123456789abcdef",
        })
        .unwrap();
        let token = codec.encode(&claims(60)).unwrap();
        assert_eq!(
            codec.decode(&token),
            Some(claims(60)).map(|c| AccessClaims {
                iat_ms: codec.decode(&token).unwrap().iat_ms,
                ..c
            })
        );

        let expired = codec.encode(&claims(-60)).unwrap();
        assert_eq!(codec.decode(&expired), None);

        let other = JwtCodec::new(SigningKey::Hs256 {
            secret: b"another secret, just as long as it",
        })
        .unwrap();
        assert_eq!(other.decode(&token), None);

        // Flip one character of the payload: the signature no longer matches.
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        let payload = &mut parts[1];
        let flipped = if payload.ends_with('A') { 'B' } else { 'A' };
        payload.pop();
        payload.push(flipped);
        assert_eq!(codec.decode(&parts.join(".")), None);

        // An unsigned token ("alg": "none") is never accepted.
        let unsigned = format!(
            "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{}.",
            token.split('.').nth(1).unwrap()
        );
        assert_eq!(codec.decode(&unsigned), None);
    }
}
