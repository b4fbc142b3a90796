//! `/api/v1/users`: the admin's view of accounts — list, deactivate, activate.

use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Path, Query};
use super::views::UserView;
use super::AppState;
use crate::application::AppResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(activate))
        .routes(routes!(deactivate))
}

#[derive(Deserialize, IntoParams)]
pub struct Page {
    #[serde(default)]
    pub offset: usize,
    /// 1–200, default 50.
    pub limit: Option<usize>,
}

/// Every account, oldest first (admins only).
#[utoipa::path(get, path = "/api/v1/users", tag = "users", params(Page),
    responses((status = 200, body = Vec<UserView>), (status = 403, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Query(page): Query<Page>,
) -> AppResult<axum::Json<Vec<UserView>>> {
    let users = state
        .auth
        .list_users(&principal, page.offset, page.limit.unwrap_or(50))
        .await?;
    Ok(axum::Json(users.iter().map(UserView::from).collect()))
}

/// Lets the account sign in again (admins only).
#[utoipa::path(post, path = "/api/v1/users/{id}/activate", tag = "users",
    responses((status = 200, body = UserView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn activate(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<UserView>> {
    let user = state.auth.set_active(&principal, &id, true).await?;
    Ok(axum::Json(UserView::from(&user)))
}

/// Stops the account from signing in and ends its sign-ins, its running E2B sandboxes
/// (whose tokens stop working at once) and its automations, which pause (admins only).
#[utoipa::path(post, path = "/api/v1/users/{id}/deactivate", tag = "users",
    responses((status = 200, body = UserView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn deactivate(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<UserView>> {
    let user = state.auth.set_active(&principal, &id, false).await?;
    let ended = state.e2b.end_all_of(&user.id).await?;
    let why = "paused: its owner's account was deactivated";
    let paused = state.automations.pause_all(&user.id, None, why).await?;
    tracing::info!(
        user = user.id.0.as_str(),
        ended,
        paused,
        "an account was deactivated"
    );
    Ok(axum::Json(UserView::from(&user)))
}
