//! Personal API keys against the real server.
//!
//! # Layout
//!
//! - `use_and_revoke.rs`: made once, used as a bearer wherever an access token is, listed
//!   with their use, revoked and expired at once (401), a `jobs` key kept to its scope
//!   (403), and only the digest in the store;
//! - `ownership.rs`: keys private to their owner (404) but not to admins;
//! - `refusals.rs`: the rate limit (429) and bad input (422, 409).
//!
//! This file holds the requests they share.

mod ownership;
mod refusals;
mod use_and_revoke;

use std::time::Duration;

use backend_api::infrastructure::stores::StoragePorts;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{self, TestApp};

const KEYS: &str = "/api/v1/api-keys";
const ADMIN_KEYS: &str = "/api/v1/admin/api-keys";

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    app.expect(StatusCode::CREATED, Method::POST, KEYS, Some(token), Some(body))
        .await
}

async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    let listed = app
        .expect(StatusCode::OK, Method::GET, KEYS, Some(token), None)
        .await;
    listed.as_array().unwrap().clone()
}

/// Calls `GET /api/v1/auth/me` with `key`; the status and the error's message.
async fn me(app: &TestApp, key: &str) -> (StatusCode, Value) {
    let response = app.call(Method::GET, "/api/v1/auth/me", Some(key), None).await;
    (response.status(), response.json().await.unwrap())
}

fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or_default()
}
