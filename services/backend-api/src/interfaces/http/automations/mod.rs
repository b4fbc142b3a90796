//! `/api/v1/automations`: a person's automations — make, list, read, change, delete,
//! run now, read the history, rotate a webhook's secret — and `/api/v1/hooks/{id}`, where
//! signed webhook deliveries fire them ([`hooks`]). A `jobs`-scoped API key may manage
//! its person's automations; another person's is not found.

mod hooks;
mod views;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::{read_body, CurrentUser, Json, Path, Query};
use super::jobs::says_json;
use super::AppState;
use crate::application::automations::input::{AutomationEdit, NewAutomation};
use crate::application::automations::triggers::{self, NewTrigger};
use crate::application::automations::MAX_RUNS_LISTED;
use crate::application::sessions::MAX_MESSAGE_BYTES;
use crate::application::{AppError, AppResult};
use views::{hook_url, AutomationView, RunView, NEXT_RUNS};

/// Room in a body for the JSON around its prompt and files.
const JSON_ROOM: usize = 64 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(preview))
        .routes(routes!(get, edit, delete))
        .routes(routes!(run_now))
        .routes(routes!(runs))
        .routes(routes!(rotate))
        .routes(routes!(hooks::deliver))
}

#[derive(Serialize, ToSchema)]
pub struct AutomationList {
    pub automations: Vec<AutomationView>,
}

#[derive(Serialize, ToSchema)]
pub struct RunStarted {
    /// The run's job (`GET /api/v1/jobs/{id}`).
    pub job_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct RunList {
    /// Newest first.
    pub runs: Vec<RunView>,
}

#[derive(Serialize, ToSchema)]
pub struct RotatedSecret {
    pub id: String,
    pub url: String,
    /// The new signing secret, shown only here.
    pub secret: String,
    /// Until when the secret it replaced is still taken beside it (the rotation's grace,
    /// `AUTOMATIONS__ROTATION_GRACE_SECS`); after, only the new one.
    pub previous_valid_until: DateTime<Utc>,
}

#[derive(Deserialize, IntoParams)]
pub struct RunsQuery {
    /// 1–100, default 30.
    pub limit: Option<usize>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewRequest {
    pub triggers: Vec<NewTrigger>,
}

#[derive(Serialize, ToSchema)]
pub struct Preview {
    /// The next 5 fire times, merged across the triggers (fewer when they end).
    pub next_runs: Vec<chrono::DateTime<chrono::Utc>>,
}

/// The next 5 fire times of triggers not saved yet, checked as a save checks them: the
/// editor's preview. Saves nothing.
#[utoipa::path(post, path = "/api/v1/automations/preview", tag = "automations", request_body = PreviewRequest,
    responses((status = 200, body = Preview), (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "a bad field, named in `field`: cron, timezone, at, triggers…")))]
async fn preview(
    State(state): State<AppState>,
    CurrentUser(_principal): CurrentUser,
    Json(body): Json<PreviewRequest>,
) -> AppResult<axum::Json<Preview>> {
    let next_runs = triggers::preview(body.triggers, NEXT_RUNS, state.automations.rules())?;
    Ok(axum::Json(Preview { next_runs }))
}

/// An automation's body, which may carry its files inline: read up to their cap in
/// base64, the prompt and the JSON around them (a `Request` is not held to the
/// server-wide limit).
async fn body_of<T: DeserializeOwned>(state: &AppState, request: Request) -> AppResult<T> {
    if !says_json(request.headers()) {
        return Err(AppError::Malformed(
            "send the automation as JSON (`Content-Type: application/json`)".into(),
        ));
    }
    let files =
        usize::try_from(state.automations.rules().max_file_bytes.div_ceil(3) * 4).unwrap_or(usize::MAX);
    let limit = files.saturating_add(MAX_MESSAGE_BYTES + JSON_ROOM);
    let bytes = read_body(request.into_body(), limit, || {
        format!("the request body is larger than {} KiB", limit / 1024)
    })
    .await?;
    let axum::Json(body) = axum::Json::<T>::from_bytes(&bytes).map_err(AppError::from)?;
    Ok(body)
}

/// Makes an automation. The answer has each trigger's `id`, a webhook's `url` and its
/// `secret` (shown only here), and the next 5 fire times.
#[utoipa::path(post, path = "/api/v1/automations", tag = "automations", request_body = NewAutomation,
    responses((status = 201, body = AutomationView), (status = 401, body = ErrorBody),
        (status = 413, body = ErrorBody, description = "its files hold more than the cap, which the message says"),
        (status = 422, body = ErrorBody, description = "a bad field, named in `field`: cron, timezone, at, filter, prompt…")))]
async fn create(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    request: Request,
) -> AppResult<(StatusCode, axum::Json<AutomationView>)> {
    let body: NewAutomation = body_of(&state, request).await?;
    let key = principal.key.map(|used| used.id);
    let saved = state.automations.create(&principal.user_id, key, body).await?;
    let base = state.automations.public_url();
    Ok((
        StatusCode::CREATED,
        axum::Json(AutomationView::saved(&saved, base)),
    ))
}

/// Your automations, oldest first, each with its next fire time and last run.
#[utoipa::path(get, path = "/api/v1/automations", tag = "automations",
    responses((status = 200, body = AutomationList), (status = 401, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
) -> AppResult<axum::Json<AutomationList>> {
    let listed = state.automations.list(&principal.user_id).await?;
    Ok(axum::Json(AutomationList {
        automations: listed
            .iter()
            .map(|listed| AutomationView::listed(listed, state.automations.public_url()))
            .collect(),
    }))
}

/// One of your automations.
#[utoipa::path(get, path = "/api/v1/automations/{id}", tag = "automations",
    responses((status = 200, body = AutomationView), (status = 404, body = ErrorBody)))]
async fn get(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<AutomationView>> {
    let automation = state.automations.get(&principal.user_id, &id).await?;
    Ok(axum::Json(AutomationView::of(
        &automation,
        &[],
        state.automations.public_url(),
    )))
}

/// Changes an automation (what is left out stays; `triggers` replaces them all, one
/// given with its `id` staying that trigger; `attachments` adds files,
/// `remove_attachments` removes them). Enabling one that paused itself clears its
/// failures.
#[utoipa::path(patch, path = "/api/v1/automations/{id}", tag = "automations", request_body = AutomationEdit,
    responses((status = 200, body = AutomationView), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "it fired meanwhile; send the change again"),
        (status = 413, body = ErrorBody, description = "its files would hold more than the cap, which the message says"),
        (status = 422, body = ErrorBody)))]
async fn edit(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    request: Request,
) -> AppResult<axum::Json<AutomationView>> {
    let body: AutomationEdit = body_of(&state, request).await?;
    let saved = state.automations.edit(&principal.user_id, &id, body).await?;
    Ok(axum::Json(AutomationView::saved(
        &saved,
        state.automations.public_url(),
    )))
}

/// Deletes an automation with its history (its runs' jobs and sessions stay).
#[utoipa::path(delete, path = "/api/v1/automations/{id}", tag = "automations",
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn delete(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    state.automations.delete(&principal.user_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Runs the automation now, whatever its schedule (also when disabled). The run is a
/// job, queued behind your other jobs like any.
#[utoipa::path(post, path = "/api/v1/automations/{id}/run", tag = "automations",
    responses((status = 202, body = RunStarted), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "nothing ran; the message says why (the history has it too)")))]
async fn run_now(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<(StatusCode, axum::Json<RunStarted>)> {
    let job = state.automations.run_now(&principal.user_id, &id).await?;
    let started = RunStarted {
        job_id: job.as_str().to_owned(),
    };
    Ok((StatusCode::ACCEPTED, axum::Json(started)))
}

/// The automation's history, newest first: each fire with its job's status, or why
/// nothing ran.
#[utoipa::path(get, path = "/api/v1/automations/{id}/runs", tag = "automations", params(RunsQuery),
    responses((status = 200, body = RunList), (status = 404, body = ErrorBody)))]
async fn runs(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<RunsQuery>,
) -> AppResult<axum::Json<RunList>> {
    let limit = query.limit.unwrap_or(30).min(MAX_RUNS_LISTED);
    let reports = state.automations.runs(&principal.user_id, &id, limit).await?;
    Ok(axum::Json(RunList {
        runs: reports.iter().map(RunView::from).collect(),
    }))
}

/// A new signing secret for a webhook trigger; the old one is still taken until
/// `previous_valid_until`, so senders can move to the new one without losing deliveries.
#[utoipa::path(post, path = "/api/v1/automations/{id}/triggers/{trigger_id}/rotate", tag = "automations",
    responses((status = 200, body = RotatedSecret), (status = 404, body = ErrorBody)))]
async fn rotate(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path((id, trigger)): Path<(String, String)>,
) -> AppResult<axum::Json<RotatedSecret>> {
    let (trigger, secret, previous_valid_until) = state
        .automations
        .rotate(&principal.user_id, &id, &trigger)
        .await?;
    Ok(axum::Json(RotatedSecret {
        id: trigger.as_str().to_owned(),
        url: hook_url(state.automations.public_url(), &trigger),
        secret,
        previous_valid_until,
    }))
}
