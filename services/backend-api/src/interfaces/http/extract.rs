//! Extractors: JSON, query and path with rejections turned into [`ApiError`] bodies; the
//! signed-in caller; the client's address (for rate limits).

use std::net::SocketAddr;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};

use super::api_keys::within_scope;
use super::error::ApiError;
use super::AppState;
use crate::application::auth::Principal;
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

/// The client's address: the peer, or the first `X-Forwarded-For` hop when configured
/// to trust the proxy in front.
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if state.trust_forwarded_for {
            let forwarded = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty());
            if let Some(address) = forwarded {
                return Ok(Self(address));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip().to_string())
            .unwrap_or_else(|| "unknown".into());
        Ok(Self(peer))
    }
}
