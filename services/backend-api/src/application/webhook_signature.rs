//! Webhook signatures, for the deliveries Sandpiper takes and the notifications it sends:
//! `X-Sandpiper-Signature: t=<unix seconds>,v1=<hex>`, where the hex is the HMAC-SHA256
//! of `"<t>.<raw body>"` under the secret. The time is signed with the body (as Stripe
//! signs its webhooks), so a receiver refuses a delivery outside its tolerance and one
//! captured on the way cannot be sent again later; within the tolerance, the signature
//! itself names the delivery, so a receiver that remembers it runs it once. A header may
//! carry several `v1=` (a sender between two secrets signs with both).
//!
//! GitHub's `X-Hub-Signature-256: sha256=<hex of the body's HMAC>` signs no time: what
//! stops its replays is the receiver remembering the signature, the one thing of the
//! delivery a sender without the secret cannot change.

use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The header Sandpiper's signature travels in.
pub const HEADER: &str = "X-Sandpiper-Signature";

/// The signature a delivery came with, by the header it came in.
#[derive(Debug, Clone, Copy)]
pub enum Claim<'a> {
    /// `X-Sandpiper-Signature: t=…,v1=…`.
    Sandpiper(&'a str),
    /// GitHub's `X-Hub-Signature-256: sha256=…`.
    GitHub(&'a str),
}

/// Why a delivery's signature was refused; its text says what a sender should send.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the delivery is not signed: send X-Sandpiper-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" with the webhook's secret> (or GitHub's X-Hub-Signature-256)")]
    Missing,
    #[error("X-Sandpiper-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">; a bare sha256=<hex> is taken only as GitHub's X-Hub-Signature-256")]
    Malformed,
    #[error("the signature's time t={at} is {skew} s from this server's clock, more than the {tolerance} s allowed: sign each delivery when it is sent, with a synchronised clock")]
    Stale { at: i64, skew: i64, tolerance: i64 },
    #[error("the delivery is not signed with this webhook's secret")]
    Wrong,
}

/// The header's value for `body` sent at `at`.
pub fn sign(secret: &str, at: DateTime<Utc>, body: &[u8]) -> String {
    let at = at.timestamp();
    format!(
        "t={at},v1={}",
        service_kit::hex(&timed(secret, at, body).finalize().into_bytes())
    )
}

/// Checks `claim` against each of `secrets` at `now`, allowing `tolerance_secs` between
/// the signed time and the clock. The signature that verified, in hex: the same for the
/// same delivery sent again, another for any other time or body.
pub fn verify(
    claim: Option<Claim<'_>>,
    secrets: &[&str],
    body: &[u8],
    now: DateTime<Utc>,
    tolerance_secs: i64,
) -> Result<String, Refused> {
    match claim.ok_or(Refused::Missing)? {
        Claim::Sandpiper(header) => {
            let (at, given) = parse(header)?;
            let skew = (now.timestamp() - at).abs();
            if skew > tolerance_secs {
                return Err(Refused::Stale {
                    at,
                    skew,
                    tolerance: tolerance_secs,
                });
            }
            given
                .iter()
                .find(|given| {
                    secrets
                        .iter()
                        .any(|secret| timed(secret, at, body).verify_slice(given).is_ok())
                })
                .map(|given| service_kit::hex(given))
                .ok_or(Refused::Wrong)
        }
        Claim::GitHub(header) => {
            let given = header
                .trim()
                .strip_prefix("sha256=")
                .and_then(unhex_digest)
                .ok_or(Refused::Malformed)?;
            secrets
                .iter()
                .any(|secret| mac(secret).chain_update(body).verify_slice(&given).is_ok())
                .then(|| service_kit::hex(&given))
                .ok_or(Refused::Wrong)
        }
    }
}

/// `t=<seconds>` and every `v1=<hex>` of a Sandpiper header; other schemes are skipped,
/// as Stripe's receivers do, so a later scheme can be added beside `v1`.
fn parse(header: &str) -> Result<(i64, Vec<Vec<u8>>), Refused> {
    let mut at = None;
    let mut given = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", seconds)) => at = Some(seconds.parse().map_err(|_| Refused::Malformed)?),
            Some(("v1", hex)) => given.push(unhex_digest(hex).ok_or(Refused::Malformed)?),
            Some(_) => {}
            None => return Err(Refused::Malformed),
        }
    }
    match at {
        Some(at) if !given.is_empty() => Ok((at, given)),
        _ => Err(Refused::Malformed),
    }
}

/// The HMAC-SHA256 of `"<at>.<body>"`, before it is finalised or compared (in constant
/// time, by `verify_slice`).
fn timed(secret: &str, at: i64, body: &[u8]) -> Hmac<Sha256> {
    mac(secret)
        .chain_update(at.to_string().as_bytes())
        .chain_update(b".")
        .chain_update(body)
}

/// A signature's bytes: hex, and not empty.
fn unhex_digest(hex: &str) -> Option<Vec<u8>> {
    service_kit::unhex(hex).filter(|bytes| !bytes.is_empty())
}

fn mac(secret: &str) -> Hmac<Sha256> {
    // HMAC takes keys of any length, so this cannot fail.
    Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("an HMAC key")
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    const BODY: &[u8] = br#"{"action":"opened"}"#;

    fn sandpiper(header: &str, secrets: &[&str], now: DateTime<Utc>) -> Result<String, Refused> {
        verify(Some(Claim::Sandpiper(header)), secrets, BODY, now, 300)
    }

    #[test]
    fn a_timed_signature_holds_for_its_secret_body_and_time_only() {
        let now = Utc::now();
        let header = sign("s3cret", now, BODY);
        let digest = sandpiper(&header, &["s3cret"], now).unwrap();
        assert_eq!(header, format!("t={},v1={digest}", now.timestamp()));
        assert_eq!(sandpiper(&header, &["other"], now), Err(Refused::Wrong));
        assert_eq!(
            verify(Some(Claim::Sandpiper(&header)), &["s3cret"], b"{}", now, 300),
            Err(Refused::Wrong)
        );
        // The same signature with another time claimed is not valid for it.
        let moved = header.replacen(
            &format!("t={}", now.timestamp()),
            &format!("t={}", now.timestamp() + 1),
            1,
        );
        assert_eq!(sandpiper(&moved, &["s3cret"], now), Err(Refused::Wrong));
        // Either of two secrets; several v1 of which one is right.
        assert!(sandpiper(&header, &["old", "s3cret"], now).is_ok());
        let two = format!("{header},v1={}", "ab".repeat(32));
        assert_eq!(sandpiper(&two, &["s3cret"], now), Ok(digest));
        assert!(sandpiper(&format!("{header},v0=zz"), &["s3cret"], now).is_ok());
    }

    #[test]
    fn a_signature_outside_the_tolerance_is_stale_either_way() {
        let now = Utc::now();
        for at in [now - Duration::seconds(301), now + Duration::seconds(301)] {
            let refused = sandpiper(&sign("s3cret", at, BODY), &["s3cret"], now).unwrap_err();
            assert!(
                matches!(
                    refused,
                    Refused::Stale {
                        skew: 301,
                        tolerance: 300,
                        ..
                    }
                ),
                "{refused:?}"
            );
        }
        let edge = now - Duration::seconds(300);
        assert!(sandpiper(&sign("s3cret", edge, BODY), &["s3cret"], now).is_ok());
    }

    #[test]
    fn malformed_and_missing_signatures_are_told_apart() {
        let now = Utc::now();
        assert_eq!(verify(None, &["s3cret"], BODY, now, 300), Err(Refused::Missing));
        let t = now.timestamp();
        for header in [
            "sha256=00",
            "",
            "t=,v1=00",
            &format!("t={t}"),
            &format!("t={t},v1=zz"),
            &format!("t={t},v1="),
            &format!("t={t},v1=abc"),
            &format!("t={t};v1=00"),
        ] {
            assert_eq!(
                sandpiper(header, &["s3cret"], now),
                Err(Refused::Malformed),
                "{header}"
            );
        }
    }

    #[test]
    fn github_signs_the_body_alone() {
        let now = Utc::now();
        let hex = service_kit::hex(&mac("s3cret").chain_update(BODY).finalize().into_bytes());
        let github = |header: &str| verify(Some(Claim::GitHub(header)), &["s3cret"], BODY, now, 300);
        assert_eq!(github(&format!("sha256={hex}")), Ok(hex.clone()));
        assert_eq!(github(&hex), Err(Refused::Malformed));
        assert_eq!(github("sha256=zz"), Err(Refused::Malformed));
        assert_eq!(
            github(&format!("sha256={}", "00".repeat(32))),
            Err(Refused::Wrong)
        );
    }
}
