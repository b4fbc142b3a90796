//! `/api/v1/auth`: how people sign in here, register, login, refresh, logout, logout everywhere, who am I, change
//! password.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiResult, ErrorBody};
use super::extract::{ClientAddress, CurrentUser, Json};
use super::views::{SignedIn, UserView};
use super::AppState;
use crate::application::auth::{AuthMode, TokenPair};
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
pub struct RefreshRequest {
    pub refresh_token: String,
}

#[derive(Deserialize, ToSchema)]
pub struct LogoutRequest {
    /// Also revokes this refresh token's family.
    pub refresh_token: Option<String>,
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
async fn mode(State(state): State<AppState>) -> ApiResult<axum::Json<AuthModeView>> {
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
/// account is an admin, whatever the mode.
#[utoipa::path(post, path = "/api/v1/auth/register", tag = "auth", request_body = Registration,
    responses((status = 201, body = SignedIn),
        (status = 403, body = ErrorBody, description = "registration closed, or an invite missing, used up or for another address"),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn register(
    State(state): State<AppState>,
    Json(body): Json<Registration>,
) -> ApiResult<(StatusCode, axum::Json<SignedIn>)> {
    let invite = body.invite.as_deref().filter(|code| !code.trim().is_empty());
    let (user, tokens) = state.auth.register(&body.email, &body.password, invite).await?;
    let user = UserView::from(&user);
    Ok((StatusCode::CREATED, axum::Json(SignedIn { user, tokens })))
}

/// Signs in. Failures back off per account and client address, and are limited per
/// address; in a rush the password check waits its turn.
#[utoipa::path(post, path = "/api/v1/auth/login", tag = "auth", request_body = Credentials,
    responses((status = 200, body = SignedIn), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn login(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    Json(body): Json<Credentials>,
) -> ApiResult<axum::Json<SignedIn>> {
    let (user, tokens) = state.auth.login(&body.email, &body.password, client).await?;
    let user = UserView::from(&user);
    Ok(axum::Json(SignedIn { user, tokens }))
}

/// Exchanges a refresh token for a new pair; the old one is spent. Reusing a spent one
/// ends every sign-in descended from the same login.
#[utoipa::path(post, path = "/api/v1/auth/refresh", tag = "auth", request_body = RefreshRequest,
    responses((status = 200, body = TokenPair), (status = 401, body = ErrorBody)))]
async fn refresh(
    State(state): State<AppState>,
    Json(body): Json<RefreshRequest>,
) -> ApiResult<axum::Json<TokenPair>> {
    Ok(axum::Json(state.auth.refresh(&body.refresh_token).await?))
}

/// Ends this sign-in: the access token stops working now.
#[utoipa::path(post, path = "/api/v1/auth/logout", tag = "auth", request_body = LogoutRequest,
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn logout(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<LogoutRequest>,
) -> ApiResult<StatusCode> {
    state
        .auth
        .logout(&principal, body.refresh_token.as_deref())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Ends every sign-in of the caller, on every device.
#[utoipa::path(post, path = "/api/v1/auth/logout-all", tag = "auth",
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn logout_all(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> ApiResult<StatusCode> {
    state.auth.logout_all(&principal.user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The signed-in account.
#[utoipa::path(get, path = "/api/v1/auth/me", tag = "auth",
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody)))]
async fn me(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> ApiResult<axum::Json<UserView>> {
    Ok(axum::Json(UserView::from(&state.auth.me(&principal).await?)))
}

/// Changes the password and ends every other sign-in; returns a fresh pair.
#[utoipa::path(post, path = "/api/v1/auth/password", tag = "auth", request_body = PasswordChange,
    responses((status = 200, body = TokenPair), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "too many password checks waiting; retry after `Retry-After` seconds")))]
async fn change_password(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<PasswordChange>,
) -> ApiResult<axum::Json<TokenPair>> {
    let tokens = state
        .auth
        .change_password(&principal, &body.current_password, &body.new_password)
        .await?;
    Ok(axum::Json(tokens))
}
