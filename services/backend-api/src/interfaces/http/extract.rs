//! Extractors: JSON, query and path with rejections turned into [`AppError`] answers; the
//! signed-in caller, kept to an API key's scope; the client's address (for rate limits).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};

use super::AppState;
use crate::application::principal::Principal;
use crate::application::AppError;
use crate::domain::api_key::ApiKeyScope;

#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct Json<T>(pub T);

#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub struct Query<T>(pub T);

#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(AppError))]
pub struct Path<T>(pub T);

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        match &rejection {
            JsonRejection::BytesRejection(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::TooLarge("the request body is too large".into())
            }
            JsonRejection::JsonDataError(_) => AppError::Invalid(rejection.body_text()),
            _ => AppError::Malformed(rejection.body_text()),
        }
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::Malformed(rejection.body_text())
    }
}

impl From<PathRejection> for AppError {
    fn from(rejection: PathRejection) -> Self {
        AppError::Malformed(rejection.body_text())
    }
}

/// The signed-in caller (`Authorization: Bearer <access token or API key>`; anyone in
/// `none` mode). A request made with an API key must be within the key's scope.
pub struct CurrentUser(pub Principal);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let bearer = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| {
                value
                    .strip_prefix("Bearer ")
                    .or_else(|| value.strip_prefix("bearer "))
            })
            .map(str::trim);
        let principal = state.auth.authenticate(bearer).await?;
        if let Some(key) = &principal.key {
            let route = parts.extensions.get::<MatchedPath>().map(MatchedPath::as_str);
            within_scope(key.scope, route)?;
        }
        Ok(Self(principal))
    }
}

/// The client's address: the peer, or, from a trusted proxy, the first hop of
/// `X-Forwarded-For` from the right that is not one (see [`super::forwarded`]).
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // Served without connection info (a router called in-process), there is no peer.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(address)| {
                address.ip()
            });
        let forwarded_for = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok());
        state.trusted_proxies.refresh_for(peer).await;
        Ok(Self(state.trusted_proxies.client(peer, forwarded_for)))
    }
}

/// Where a `jobs` key may go: the jobs API and the automations API (whose runs are
/// jobs), at these routes and below them…
const JOBS_ROUTES: [&str; 2] = ["/api/v1/jobs", "/api/v1/automations"];
/// …who it belongs to…
const IDENTITY_ROUTE: &str = "/api/v1/auth/me";
/// …and which models a job may name.
const MODELS_ROUTE: &str = "/api/v1/models";

/// Whether a key of `scope` may call the route `route` (its pattern, as matched;
/// `None` when no route matched). A `full` key may call anything its owner may.
fn within_scope(scope: ApiKeyScope, route: Option<&str>) -> Result<(), AppError> {
    let allowed = match scope {
        ApiKeyScope::Full => true,
        ApiKeyScope::Jobs => route.is_some_and(|route| {
            route == IDENTITY_ROUTE
                || route == MODELS_ROUTE
                || JOBS_ROUTES.iter().any(|prefix| {
                    route
                        .strip_prefix(prefix)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
        }),
        ApiKeyScope::Sandboxes => route == Some(IDENTITY_ROUTE),
    };
    if allowed {
        return Ok(());
    }
    let reach = match scope {
        ApiKeyScope::Sandboxes => {
            format!("the E2B-compatible API under /e2b (as X-API-Key) and GET {IDENTITY_ROUTE}")
        }
        _ => format!(
            "{} and below, GET {IDENTITY_ROUTE} and GET {MODELS_ROUTE}",
            JOBS_ROUTES.join(" and ")
        ),
    };
    Err(AppError::Forbidden(format!(
        "this API key's scope is `{}`: it may call {reach}, nothing else; use a key with scope \
         `full` for this",
        scope.as_str()
    )))
}

/// A request's body, read up to `limit` bytes: a longer one is `413` (`too_large` says
/// what is allowed), one that broke off before its end `400`.
pub async fn read_body(
    body: axum::body::Body,
    limit: usize,
    too_large: impl FnOnce() -> String,
) -> Result<axum::body::Bytes, AppError> {
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => Ok(bytes),
        Err(err) => {
            let err = err.into_inner();
            Err(if err.is::<http_body_util::LengthLimitError>() {
                AppError::TooLarge(too_large())
            } else {
                AppError::Malformed(format!("the request body broke off: {err}"))
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jobs_key_reaches_the_jobs_and_automations_apis_and_its_identity_only() {
        for route in [
            "/api/v1/jobs",
            "/api/v1/jobs/{id}",
            "/api/v1/jobs/{id}/result",
            "/api/v1/automations",
            "/api/v1/automations/{id}/runs",
            "/api/v1/auth/me",
        ] {
            assert!(within_scope(ApiKeyScope::Jobs, Some(route)).is_ok(), "{route}");
        }
        for route in [
            Some("/api/v1/sessions"),
            Some("/api/v1/jobsx"),
            Some("/api/v1/hooks/{trigger_id}"),
            Some("/api/v1/api-keys"),
            Some("/api/v1/auth/me/x"),
            None,
        ] {
            let refused = within_scope(ApiKeyScope::Jobs, route).unwrap_err();
            assert!(
                refused.to_string().contains("scope is `jobs`"),
                "{route:?}: {refused}"
            );
        }
        assert!(within_scope(ApiKeyScope::Full, Some("/api/v1/sessions")).is_ok());
        assert!(within_scope(ApiKeyScope::Sandboxes, Some(IDENTITY_ROUTE)).is_ok());
        for route in [
            Some("/api/v1/jobs"),
            Some("/api/v1/sessions"),
            Some("/api/v1/api-keys"),
            None,
        ] {
            let refused = within_scope(ApiKeyScope::Sandboxes, route).unwrap_err();
            assert!(refused.to_string().contains("under /e2b"), "{route:?}: {refused}");
        }
        assert!(within_scope(ApiKeyScope::Full, None).is_ok());
    }

    #[tokio::test]
    async fn a_body_past_its_limit_is_413_and_one_that_broke_off_400() {
        use axum::response::IntoResponse;
        let status = |read: Result<axum::body::Bytes, AppError>| read.unwrap_err().into_response().status();
        let big = axum::body::Body::from(vec![b'x'; 11]);
        let read = read_body(big, 10, || "at most 10 bytes".into()).await;
        assert_eq!(status(read), StatusCode::PAYLOAD_TOO_LARGE);

        let parts: Vec<Result<&'static str, std::io::Error>> = vec![
            Ok("{\"half\": "),
            Err(std::io::Error::other("the client went away")),
        ];
        let broken = axum::body::Body::from_stream(futures::stream::iter(parts));
        let read = read_body(broken, 10_000, || "never said".into()).await;
        assert_eq!(status(read), StatusCode::BAD_REQUEST);

        let fits = read_body(axum::body::Body::from("{}"), 10, String::new).await;
        assert_eq!(fits.unwrap(), "{}");
    }
}
