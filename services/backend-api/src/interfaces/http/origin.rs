//! Which pages a browser's request may come from: the front end's origins
//! (`FRONTEND_ORIGIN`) or the API's own — as the request names it, and as the proxy in
//! front names it when proxies are trusted. Clients that send no `Origin` are not
//! browsers; what they may do is up to their credentials.

use axum::http::{header, HeaderMap};

use super::AppState;
use crate::application::AppError;

/// `Forbidden` when the request carries an `Origin` that is neither the API's own nor
/// one of the front end's; `what` says what such a page may not do ("open the desktop").
pub fn check(state: &AppState, headers: &HeaderMap, what: &str) -> Result<(), AppError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    let host = |name: &str| headers.get(name).and_then(|h| h.to_str().ok());
    let mut hosts = vec![host("host")];
    if !state.trusted_proxies.is_empty() {
        hosts.push(host("x-forwarded-host"));
    }
    let same_origin = hosts.into_iter().flatten().filter(|h| !h.is_empty()).any(|host| {
        [format!("http://{host}"), format!("https://{host}")]
            .iter()
            .any(|o| o == origin)
    });
    if same_origin || state.allowed_origins.iter().any(|o| o == origin) {
        Ok(())
    } else {
        Err(AppError::Forbidden(format!(
            "pages from {origin} may not {what}; add it to FRONTEND_ORIGIN"
        )))
    }
}
