//! Webhook signatures made and checked as a sender or receiver outside Sandpiper would,
//! from the documented scheme and not from the server's code: `t=<seconds>,v1=<hex
//! HMAC-SHA256 of "<t>.<body>">`, and GitHub's `sha256=<hex HMAC-SHA256 of the body>`.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The hex HMAC-SHA256 of `parts` in a row under `secret`.
fn hmac_hex(secret: &str, parts: &[&[u8]]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    for part in parts {
        mac.update(part);
    }
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `X-Sandpiper-Signature`'s value for `body` signed with `secret` at `at` (Unix seconds).
pub fn signed_at(secret: &str, at: i64, body: &[u8]) -> String {
    let hex = hmac_hex(secret, &[at.to_string().as_bytes(), b".", body]);
    format!("t={at},v1={hex}")
}

/// `X-Sandpiper-Signature`'s value for `body` signed with `secret` now.
pub fn signed_now(secret: &str, body: &[u8]) -> String {
    signed_at(secret, chrono::Utc::now().timestamp(), body)
}

/// GitHub's `X-Hub-Signature-256` for `body` under `secret`.
pub fn github_signed(secret: &str, body: &[u8]) -> String {
    format!("sha256={}", hmac_hex(secret, &[body]))
}

/// Checks a received `X-Sandpiper-Signature` as a receiver would: the body's signature
/// under `secret`, at a time within a minute of this clock.
pub fn assert_signed(header: &str, secret: &str, body: &[u8]) {
    let (time, hex) = header
        .strip_prefix("t=")
        .and_then(|rest| rest.split_once(",v1="))
        .unwrap_or_else(|| panic!("not t=…,v1=…: {header}"));
    let at: i64 = time.parse().unwrap();
    assert!((chrono::Utc::now().timestamp() - at).abs() < 60, "signed at {at}");
    assert_eq!(
        hex,
        hmac_hex(secret, &[time.as_bytes(), b".", body]),
        "signed with the secret"
    );
}
