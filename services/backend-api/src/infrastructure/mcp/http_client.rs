//! The HTTP client MCP servers are reached with. Each request carries the admin's headers
//! for that server (its keys), so a redirect is followed only within the origin of the
//! server's configured address ([`web_kit::upstream::redirect_verdict`]); one to another
//! origin fails the request, and the refusal is kept for the admin to read in the
//! server's status (the SDK's error keeps only "error following redirect").

use std::sync::{Arc, Mutex};

use web_kit::upstream::{redirect_verdict, RedirectRefused};

use super::wire::plain;

/// The last redirect a connection's client refused, if any.
#[derive(Clone, Default)]
pub(super) struct Refusals(Arc<Mutex<Option<RedirectRefused>>>);

impl Refusals {
    /// Why a request failed, as the admin can act on it: the refused redirect, else the
    /// SDK's error without its type names.
    pub(super) fn explain(&self, err: impl std::fmt::Display) -> String {
        match self.0.lock().expect("not poisoned").take() {
            Some(refused) => refused.to_string(),
            None => plain(err),
        }
    }
}

/// The client for one server's connection, and where it keeps what it refused.
pub(super) fn client() -> Result<(rmcp_reqwest::Client, Refusals), String> {
    let refusals = Refusals::default();
    let kept = refusals.clone();
    let redirects = rmcp_reqwest::redirect::Policy::custom(move |attempt| {
        match redirect_verdict(attempt.previous(), attempt.url()) {
            Ok(()) => attempt.follow(),
            Err(refused) => {
                *kept.0.lock().expect("not poisoned") = Some(refused.clone());
                attempt.error(refused)
            }
        }
    });
    let client = rmcp_reqwest::Client::builder()
        .redirect(redirects)
        // No idle connections kept: one whose last answer was not read to the end stalls
        // the next request on it (delayed ACKs) for about 40 ms.
        .pool_max_idle_per_host(0)
        .build()
        .map_err(|err| format!("could not make the HTTP client: {err}"))?;
    Ok((client, refusals))
}
