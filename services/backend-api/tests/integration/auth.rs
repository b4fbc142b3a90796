//! Auth flows against the real server.
//!
//! # Layout
//!
//! - `accounts.rs`: register, login and `me`, the rules on emails and passwords, and an
//!   admin's list, deactivation and activation of users;
//! - `tokens.rs`: tokens tampered, missing, foreign or expired, logout (one or every
//!   sign-in), and a password change signing out elsewhere;
//! - `limits.rs`: sign-in limits (per account and address, sprays), and password checks
//!   in a rush or past their queue;
//! - `addresses.rs`: which client address the limits count;
//! - `modes.rs`: the `local` and `none` modes, and production's JWT secret check;
//! - `refresh_cookie.rs`: the refresh cookie (rotation, reuse, cross-site requests).
//!
//! This file holds the sign-in helpers they share.

mod accounts;
mod addresses;
mod limits;
mod modes;
mod refresh_cookie;
mod tokens;

use crate::support;

use reqwest::{Method, StatusCode};
use serde_json::json;
use std::time::Duration;
use support::{settings, TestApp, PASSWORD, REFRESH_COOKIE};

/// Signs in as if through a proxy that says the client is `address` (the proxy's hops
/// are `X-Forwarded-For`'s, which the server believes from [`TRUST_PROXY`]'s peers only).
pub(crate) async fn login_from(
    app: &TestApp,
    address: &str,
    email: &str,
    password: &str,
) -> reqwest::Response {
    app.http
        .post(format!("{}/api/v1/auth/login", app.base))
        .header("x-forwarded-for", address)
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap()
}

pub(crate) fn retry_after(response: &reqwest::Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// The test client, on loopback, is the trusted proxy.
pub(crate) const TRUST_PROXY: (&str, &str) = ("http.trusted_proxies", "127.0.0.1");
