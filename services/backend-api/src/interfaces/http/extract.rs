//! Extractors: JSON, query and path with rejections turned into [`ApiError`] bodies; the
//! signed-in caller; the client's address (for rate limits).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};

use super::api_keys::within_scope;
use super::error::ApiError;
use super::AppState;
use crate::application::principal::Principal;
use crate::application::AppError;

#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let err = match &rejection {
            JsonRejection::BytesRejection(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::TooLarge("the request body is too large".into())
            }
            JsonRejection::JsonDataError(_) => AppError::Invalid(rejection.body_text()),
            _ => AppError::Malformed(rejection.body_text()),
        };
        err.into()
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::Malformed(rejection.body_text()).into()
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        AppError::Malformed(rejection.body_text()).into()
    }
}

/// The signed-in caller (`Authorization: Bearer <access token or API key>`; anyone in
/// `none` mode). A request made with an API key must be within the key's scope.
pub struct CurrentUser(pub Principal);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

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
    type Rejection = ApiError;

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
        Ok(Self(state.trusted_proxies.client(peer, forwarded_for)))
    }
}
