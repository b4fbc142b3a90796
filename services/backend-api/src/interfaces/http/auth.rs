//! `/api/v1/auth`: how people sign in here, register, login, refresh, logout, logout everywhere, who am I, change
//! password. Answers carry the access token; the refresh token goes in the cookie of
//! [`super::refresh_cookie`], which refresh and logout read.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{ClientAddress, CurrentUser, Json};
use super::refresh_cookie::{CookieRequest, CookieWriter, RefreshCookie, SetCookies};
use super::views::{AccessToken, SignedIn, UserView};
use super::AppState;
use crate::application::auth::AuthMode;
use crate::application::{AppError, AppResult};
use crate::domain::invite::RegistrationMode;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mode))
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(refresh))
        .routes(routes!(logout))
        .routes(routes!(logout_all))
        .routes(routes!(me))
        .routes(routes!(change_password))
}

#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    pub email: String,
    pub password: String,
}

/// A new account: in `invite` registration, with the invite's code.
#[derive(Deserialize, ToSchema)]
pub struct Registration {
    pub email: String,
    pub password: String,
    #[serde(default)]
    pub invite: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordChange {
    pub current_password: String,
    pub new_password: String,
}

#[derive(Serialize, ToSchema)]
pub struct AuthModeView {
    /// `password` (accounts, registration open), `local` (one configured account) or
    /// `none` (no sign-in).
    pub mode: &'static str,
    /// Who `/auth/register` accepts now: anyone (`open`, also while there is no account
    /// yet), someone with an invite (`invite`) or no one (`closed`, also outside
    /// `password` mode).
    pub registration: RegistrationMode,
}

/// How people sign in here, so a front end knows what to show before anyone has.
#[utoipa::path(get, path = "/api/v1/auth/mode", tag = "auth", security(()),
    responses((status = 200, body = AuthModeView)))]
async fn mode(State(state): State<AppState>) -> AppResult<axum::Json<AuthModeView>> {
    let mode = match state.auth.mode() {
        AuthMode::Password => "password",
        AuthMode::Local { .. } => "local",
        AuthMode::None => "none",
    };
    Ok(axum::Json(AuthModeView {
        mode,
        registration: state.auth.registration().await?,
    }))
}

/// Creates an account (`password` mode) as the registration mode allows; the first
/// account is an admin, whatever the mode. Sets the refresh cookie.
#[utoipa::path(post, path = "/api/v1/auth/register", tag = "auth", request_body = Registration,
    responses((status = 201, body = SignedIn, headers(("set-cookie" = String, description = "the refresh cookie"))),
        (status = 403, body = ErrorBody, description = "registration closed, or an invite missing, used up or for another address"),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn register(
    State(state): State<AppState>,
    cookie: CookieWriter,
    Json(body): Json<Registration>,
) -> AppResult<(StatusCode, SetCookies, axum::Json<SignedIn>)> {
    let invite = body.invite.as_deref().filter(|code| !code.trim().is_empty());
    let (user, tokens) = state.auth.register(&body.email, &body.password, invite).await?;
    let signed_in = SignedIn {
        user: UserView::from(&user),
        tokens: AccessToken::from(&tokens),
    };
    Ok((
        StatusCode::CREATED,
        cookie.set(&tokens.refresh_token),
        axum::Json(signed_in),
    ))
}

/// Signs in and sets the refresh cookie. Failures back off per account and client
/// address, and are limited per address; in a rush the password check waits its turn.
#[utoipa::path(post, path = "/api/v1/auth/login", tag = "auth", request_body = Credentials,
    responses((status = 200, body = SignedIn, headers(("set-cookie" = String, description = "the refresh cookie"))),
        (status = 401, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn login(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    cookie: CookieWriter,
    Json(body): Json<Credentials>,
) -> AppResult<(SetCookies, axum::Json<SignedIn>)> {
    let (user, tokens) = state.auth.login(&body.email, &body.password, client).await?;
    let signed_in = SignedIn {
        user: UserView::from(&user),
        tokens: AccessToken::from(&tokens),
    };
    Ok((cookie.set(&tokens.refresh_token), axum::Json(signed_in)))
}

/// Exchanges the refresh cookie for a new access token and sets the next cookie; the
/// old one is spent. Reusing a spent one ends every sign-in descended from the same
/// login. A refused cookie is cleared.
#[utoipa::path(post, path = "/api/v1/auth/refresh", tag = "auth", request_body = CookieRequest,
    responses((status = 200, body = AccessToken, headers(("set-cookie" = String, description = "the refresh cookie"))),
        (status = 401, body = ErrorBody, description = "no cookie, or one spent, revoked or expired"),
        (status = 403, body = ErrorBody, description = "not `Content-Type: application/json`, or from another site's page")))]
async fn refresh(State(state): State<AppState>, cookie: RefreshCookie) -> Response {
    let Some(token) = cookie.token else {
        return AppError::Unauthorized("no sign-in cookie came with the request; sign in".into())
            .into_response();
    };
    match state.auth.refresh(&token).await {
        Ok(tokens) => (
            cookie.writer.set(&tokens.refresh_token),
            axum::Json(AccessToken::from(&tokens)),
        )
            .into_response(),
        Err(err @ AppError::Unauthorized(_)) => (cookie.writer.clear(), err).into_response(),
        Err(err) => err.into_response(),
    }
}

/// Ends this sign-in: the access token stops working now, the refresh cookie's family
/// is revoked and the cookie cleared.
#[utoipa::path(post, path = "/api/v1/auth/logout", tag = "auth", request_body = CookieRequest,
    responses((status = 204), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "not `Content-Type: application/json`, or from another site's page")))]
async fn logout(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    cookie: RefreshCookie,
) -> AppResult<(SetCookies, StatusCode)> {
    state.auth.logout(&principal, cookie.token.as_deref()).await?;
    Ok((cookie.writer.clear(), StatusCode::NO_CONTENT))
}

/// Ends every sign-in of the caller, on every device (and clears this browser's cookie).
#[utoipa::path(post, path = "/api/v1/auth/logout-all", tag = "auth",
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn logout_all(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    cookie: CookieWriter,
) -> AppResult<(SetCookies, StatusCode)> {
    state.auth.logout_all(&principal.user_id).await?;
    Ok((cookie.clear(), StatusCode::NO_CONTENT))
}

/// The signed-in account.
#[utoipa::path(get, path = "/api/v1/auth/me", tag = "auth",
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody)))]
async fn me(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<UserView>> {
    Ok(axum::Json(UserView::from(&state.auth.me(&principal).await?)))
}

/// Changes the password and ends every other sign-in; returns a fresh access token and
/// sets a fresh refresh cookie.
#[utoipa::path(post, path = "/api/v1/auth/password", tag = "auth", request_body = PasswordChange,
    responses((status = 200, body = AccessToken, headers(("set-cookie" = String, description = "the refresh cookie"))),
        (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn change_password(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    cookie: CookieWriter,
    Json(body): Json<PasswordChange>,
) -> AppResult<(SetCookies, axum::Json<AccessToken>)> {
    let tokens = state
        .auth
        .change_password(&principal, &body.current_password, &body.new_password)
        .await?;
    Ok((
        cookie.set(&tokens.refresh_token),
        axum::Json(AccessToken::from(&tokens)),
    ))
}
