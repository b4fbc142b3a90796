//! The refresh token travels in a cookie no script can read: `HttpOnly`,
//! `SameSite=Strict`, `Secure` when the page is on https (or `http.secure_cookies` says
//! so; plain http on a developer's machine keeps working), and sent only to the two
//! routes that use it — one cookie per path, since a cookie has one path.
//!
//! Those routes act on the cookie alone, so they are guarded against requests another
//! site's page makes: besides `SameSite=Strict`, they take `Content-Type:
//! application/json` only (which a form cannot send, and which a script of another
//! origin cannot send without a CORS preflight this API refuses), and a request whose
//! `Origin` is not the API's own or the front end's is refused.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::AppendHeaders;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{origin, AppState};
use crate::application::AppError;

/// The cookie's name.
pub const COOKIE: &str = "sandpiper_refresh";

/// The routes the cookie is sent to: those that read it.
const PATHS: [&str; 2] = ["/api/v1/auth/refresh", "/api/v1/auth/logout"];

/// The body the cookie routes take: an empty JSON object (they read the cookie; the
/// JSON content type is what a cross-site form cannot send).
#[derive(Deserialize, ToSchema)]
pub struct CookieRequest {}

/// The `Set-Cookie` headers of an answer: one per path.
pub type SetCookies = AppendHeaders<[(header::HeaderName, HeaderValue); 2]>;

/// How an answer to this request writes the cookie.
pub struct CookieWriter {
    secure: bool,
    max_age_secs: u64,
}

impl CookieWriter {
    /// Sets the cookie to `token`.
    pub fn set(&self, token: &str) -> SetCookies {
        self.headers(token, self.max_age_secs)
    }

    /// Removes the cookie from the browser.
    pub fn clear(&self) -> SetCookies {
        self.headers("", 0)
    }

    fn headers(&self, value: &str, max_age: u64) -> SetCookies {
        let secure = if self.secure { "; Secure" } else { "" };
        let cookie = |path: &str| {
            let text = format!(
                "{COOKIE}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
            );
            // The token is alphanumeric and the rest is ours: always a valid header.
            (
                header::SET_COOKIE,
                HeaderValue::from_str(&text).expect("a valid cookie"),
            )
        };
        AppendHeaders(PATHS.map(cookie))
    }
}

impl FromRequestParts<AppState> for CookieWriter {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        // The page's own scheme, or the scheme a trusted proxy in front was reached by.
        let https_page = header("origin").is_some_and(|o| o.starts_with("https://"));
        let https_proxy = !state.trusted_proxies.is_empty()
            && header("x-forwarded-proto").is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        Ok(Self {
            secure: state.secure_cookies
                || https_page
                || https_proxy
                || parts.uri.scheme_str() == Some("https"),
            max_age_secs: state.auth.refresh_ttl().as_secs(),
        })
    }
}

/// The refresh cookie of a request that passed the cross-site guard (absent when the
/// browser sent none), and how to write the answer's.
pub struct RefreshCookie {
    pub token: Option<String>,
    pub writer: CookieWriter,
}

impl FromRequestParts<AppState> for RefreshCookie {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if !is_json(&parts.headers) {
            return Err(AppError::Forbidden(
                "this route reads the sign-in cookie, so it takes `Content-Type: application/json` \
                 only (a form on another site cannot send that); send `{}`"
                    .into(),
            ));
        }
        origin::check(state, &parts.headers, "use the sign-in cookie")?;
        let writer = CookieWriter::from_request_parts(parts, state).await?;
        Ok(Self {
            token: cookie(&parts.headers),
            writer,
        })
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The first non-empty value of the cookie, in whichever `Cookie` header it came.
fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == COOKIE && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_a_json_content_type_passes() {
        for json in ["application/json", "Application/JSON; charset=utf-8"] {
            assert!(is_json(&headers(&[("content-type", json)])), "{json}");
        }
        for other in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
            "text/plain; application/json",
        ] {
            assert!(!is_json(&headers(&[("content-type", other)])), "{other}");
        }
        assert!(!is_json(&headers(&[])));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let found = |pairs: &[(&'static str, &str)]| cookie(&headers(pairs));
        assert_eq!(
            found(&[("cookie", "a=1; sandpiper_refresh=abc; b=2")]).as_deref(),
            Some("abc")
        );
        assert_eq!(
            found(&[("cookie", "a=1"), ("cookie", "sandpiper_refresh=xyz")]).as_deref(),
            Some("xyz")
        );
        assert_eq!(found(&[("cookie", "sandpiper_refresh=; x=1")]), None);
        assert_eq!(found(&[("cookie", "not_sandpiper_refresh=abc")]), None);
        assert_eq!(found(&[]), None);
    }

    #[test]
    fn the_cookie_is_http_only_strict_and_scoped_to_the_routes_that_read_it() {
        let writer = CookieWriter {
            secure: false,
            max_age_secs: 60,
        };
        let AppendHeaders(set) = writer.set("tok");
        let values: Vec<&str> = set.iter().map(|(_, v)| v.to_str().unwrap()).collect();
        assert_eq!(
            values,
            [
                "sandpiper_refresh=tok; Path=/api/v1/auth/refresh; Max-Age=60; HttpOnly; SameSite=Strict",
                "sandpiper_refresh=tok; Path=/api/v1/auth/logout; Max-Age=60; HttpOnly; SameSite=Strict",
            ]
        );
        let secure = CookieWriter {
            secure: true,
            max_age_secs: 60,
        };
        let AppendHeaders(cleared) = secure.clear();
        assert_eq!(
            cleared[0].1,
            "sandpiper_refresh=; Path=/api/v1/auth/refresh; Max-Age=0; HttpOnly; SameSite=Strict; Secure"
        );
    }
}
