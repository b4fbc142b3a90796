//! `/api/v1/api-keys`: a person makes (the key is shown once, in the answer), lists and
//! revokes their personal API keys; `/api/v1/admin/api-keys`: admins list and revoke
//! anyone's. Also the one rule of what a key's scope lets it call ([`within_scope`]),
//! which the signed-in-caller extractor applies to every request made with a key.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{CurrentUser, Json, Path};
use super::views::{ApiKeyView, NewApiKey, OwnedApiKeyView};
use super::AppState;
use crate::application::api_keys::NewKey;
use crate::application::AppResult;
use crate::domain::api_key::{self, ApiKey, ApiKeyId, ApiKeyName, ApiKeyScope};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(revoke))
        .routes(routes!(list_all))
        .routes(routes!(revoke_any))
}

/// The API key as the OpenAPI document describes it: a bearer token like the access
/// token, accepted wherever one is.
pub(super) struct ApiKeyBearer;

impl utoipa::Modify for ApiKeyBearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("sp_…")
            .description(Some(
                "A personal API key (`sp_` and 40 letters and digits) from `POST /api/v1/api-keys`, \
                 sent as `Authorization: Bearer sp_…`. It acts as its owner within its scope: \
                 `full`, or `jobs` (only `/api/v1/jobs`, `/api/v1/automations` and `GET /api/v1/auth/me`; elsewhere 403). \
                 A `sandboxes` key (`e2b_` and 40 hex digits) is for E2B's SDKs: sent as \
                 `X-API-Key` to the API under `/e2b`; here only `GET /api/v1/auth/me`. \
                 Revoked or expired: 401. Over its rate limit: 429 with `Retry-After`.",
            ));
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("api_key", SecurityScheme::Http(scheme.build()));
    }
}

#[derive(Deserialize, ToSchema)]
pub struct ApiKeyRequest {
    /// 1 to 100 characters, to tell the key apart.
    pub name: String,
    /// `full` (the default): everything you may do; `jobs`: only `/api/v1/jobs`, `/api/v1/automations` and
    /// `GET /api/v1/auth/me`; `sandboxes`: E2B's SDKs, the API under `/e2b` (the secret
    /// is shaped `e2b_<hex>`, as they require).
    #[serde(default)]
    pub scope: ApiKeyScope,
    /// When the key stops working (RFC 3339, in the future). Give this or
    /// `expires_in_days`, or neither for a key that never expires.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    /// Days until the key stops working, 1 to 3650.
    #[serde(default)]
    pub expires_in_days: Option<u32>,
}

/// Makes a personal API key. The key (`sp_…`) is in this answer only: the server keeps
/// just its SHA-256. Send it as `Authorization: Bearer <key>`. A key with scope `full`
/// may make keys too.
#[utoipa::path(post, path = "/api/v1/api-keys", tag = "api-keys", request_body = ApiKeyRequest,
    operation_id = "create_api_key", responses((status = 201, body = NewApiKey),
        (status = 409, body = ErrorBody, description = "you have as many keys as one person may"),
        (status = 422, body = ErrorBody, description = "a bad name, scope or expiry")))]
async fn create(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Json(body): Json<ApiKeyRequest>,
) -> AppResult<(StatusCode, axum::Json<NewApiKey>)> {
    let new = NewKey {
        name: ApiKeyName::parse(&body.name)?,
        scope: body.scope,
        expires_at: api_key::expiry(body.expires_at, body.expires_in_days, Utc::now())?,
    };
    let (key, secret) = state.api_keys.create(&principal, new).await?;
    Ok((StatusCode::CREATED, axum::Json(NewApiKey::new(&key, &secret))))
}

/// Your API keys (not revoked; expired ones too), oldest first.
#[utoipa::path(get, path = "/api/v1/api-keys", tag = "api-keys",
    operation_id = "list_api_keys", responses((status = 200, body = Vec<ApiKeyView>)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<Vec<ApiKeyView>>> {
    let keys = state.api_keys.list(&principal).await?;
    Ok(axum::Json(keys.iter().map(ApiKeyView::from).collect()))
}

/// Revokes one of your API keys: it stops working at once, everywhere, and the
/// automations made with it pause (saying why).
#[utoipa::path(delete, path = "/api/v1/api-keys/{id}", tag = "api-keys",
    operation_id = "revoke_api_key", responses((status = 204),
        (status = 404, body = ErrorBody, description = "none of your keys has this id")))]
async fn revoke(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let key = state.api_keys.revoke(&principal, &ApiKeyId::parse(&id)?).await?;
    pause_made_with(&state, &key).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Everyone's API keys (not revoked), with their owners, oldest first.
#[utoipa::path(get, path = "/api/v1/admin/api-keys", tag = "api-keys",
    operation_id = "list_all_api_keys", responses((status = 200, body = Vec<OwnedApiKeyView>),
        (status = 403, body = ErrorBody, description = "not an admin")))]
async fn list_all(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<Vec<OwnedApiKeyView>>> {
    let keys = state.api_keys.list_all(&principal).await?;
    Ok(axum::Json(keys.iter().map(OwnedApiKeyView::from).collect()))
}

/// Revokes anyone's API key; the automations made with it pause.
#[utoipa::path(delete, path = "/api/v1/admin/api-keys/{id}", tag = "api-keys",
    operation_id = "revoke_any_api_key", responses((status = 204),
        (status = 403, body = ErrorBody, description = "not an admin"),
        (status = 404, body = ErrorBody, description = "no key has this id")))]
async fn revoke_any(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let key = state
        .api_keys
        .revoke_any(&principal, &ApiKeyId::parse(&id)?)
        .await?;
    pause_made_with(&state, &key).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pauses the automations made with the revoked `key`: their runs would act for it.
async fn pause_made_with(state: &AppState, key: &ApiKey) -> AppResult<()> {
    let why = format!(
        "paused: the API key it was made with ({}) was revoked",
        key.name.as_str()
    );
    state
        .automations
        .pause_all(&key.owner, Some(&key.id), &why)
        .await?;
    Ok(())
}
