//! `/api/v1/jobs`: headless jobs for scripts — create one from a prompt, poll its status,
//! list, cancel, answer its question, follow its events, download what it made. A job is
//! a session, so its events and files are the session's, served by the same code.

use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, EXPECT};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::Response;
use futures::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::events::{session_stream, Resume};
use super::extract::{read_body, CurrentUser, Json, Path, Query};
use super::files::{archive_of, PathQuery};
use super::AppState;
use crate::application::jobs::views::{JobDetail, JobView};
use crate::application::jobs::{NewAttachment, NewJob};
use crate::application::sessions::MAX_MESSAGE_BYTES;
use crate::application::{AppError, AppResult};
use crate::domain::event::StoredEvent;

/// Room in a job's body for the JSON around its prompt and attachments.
const JSON_ROOM: usize = 64 * 1024;

/// How long a refused creation's body is read before the answer goes regardless.
const DISCARD_TIME: std::time::Duration = std::time::Duration::from_secs(30);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(get))
        .routes(routes!(cancel))
        .routes(routes!(reply))
        .routes(routes!(events))
        .routes(routes!(result))
}

#[derive(Deserialize, ToSchema)]
pub struct NewJobBody {
    /// What to do, as a person would write it in a chat.
    pub prompt: String,
    /// Files for the job, written to its workspace as `uploads/<name>` before the agent
    /// starts and named with the prompt: at most 20, at most 10 MiB decoded together
    /// (the operator's `BACKEND_JOBS__MAX_ATTACHMENT_BYTES`; 413 past it).
    #[serde(default)]
    pub attachments: Vec<NewAttachment>,
    /// The session's title; defaults to the start of the prompt.
    pub title: Option<String>,
    /// `internet` or `offline`; default: the sandbox-manager's.
    pub network: Option<String>,
    /// How long the job may take from its start, waiting included (default 1800).
    pub timeout_secs: Option<u64>,
    /// Gets the job (as `GET /jobs/{id}` shows it) when it starts waiting and when it
    /// ends, signed; a public address unless the operator allows private ones.
    pub webhook_url: Option<String>,
    /// The model to run it with: one of `GET /api/v1/models`' names (the default model
    /// when left out); another name is refused (422) rather than ignored.
    pub model: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct Reply {
    pub content: String,
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// Only jobs in this status.
    pub status: Option<String>,
    /// The `next_before` of the previous page.
    pub before: Option<String>,
    /// 1–100, default 30.
    pub limit: Option<usize>,
}

/// A job just made, with its webhook's signing key.
#[derive(Serialize, ToSchema)]
pub struct CreatedJob {
    #[serde(flatten)]
    pub job: JobView,
    /// The key the webhook's bodies are signed with (`X-Sandpiper-Signature:
    /// t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); shown only here.
    pub webhook_secret: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct JobPage {
    pub jobs: Vec<JobView>,
    /// Pass as `before` for the next page; absent on the last.
    pub next_before: Option<String>,
}

/// Runs a prompt as a job: a new session the agent works in without a chat window. It
/// starts at once, or waits as `queued` while the caller's other jobs run. A caller with
/// as many jobs queued as allowed gets 429; during a burst of creations a request waits
/// for a turn a few seconds, then gets 503 (both with `Retry-After`).
#[utoipa::path(post, path = "/api/v1/jobs", tag = "jobs", request_body = NewJobBody,
    responses((status = 201, body = CreatedJob), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, description = "the caller's job queue is full", body = ErrorBody),
        (status = 503, description = "too many jobs are being made at once", body = ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    request: Request,
) -> AppResult<(StatusCode, axum::Json<CreatedJob>)> {
    if !says_json(request.headers()) {
        return Err(AppError::Malformed(
            "send the job as JSON (`Content-Type: application/json`)".into(),
        ));
    }
    // Attachments come inline, so this body may be far larger than the server-wide limit
    // (`Request` is not held to it): room for the attachments in base64 (4 characters per
    // 3 bytes), the prompt, and the JSON around them.
    let limit = usize::try_from(state.jobs.max_attachment_bytes() / 3 * 4)
        .unwrap_or(usize::MAX)
        .saturating_add(MAX_MESSAGE_BYTES + JSON_ROOM);
    let _turn = match state.jobs.turn(&principal.user_id).await {
        Ok(turn) => turn,
        Err(refused) => {
            discard_body(request, limit).await;
            return Err(refused);
        }
    };
    let bytes = read_body(request.into_body(), limit, || {
        format!("the request body is larger than {} KiB", limit / 1024)
    })
    .await?;
    let axum::Json(body) = axum::Json::<NewJobBody>::from_bytes(&bytes).map_err(AppError::from)?;
    let new = NewJob {
        prompt: body.prompt,
        attachments: body.attachments,
        title: body.title,
        network: body.network,
        timeout_secs: body.timeout_secs,
        webhook_url: body.webhook_url,
        webhook_secret: None,
        model: body.model,
        session: None,
        automation: None,
    };
    let key = principal.key.map(|used| used.id);
    let job = state.jobs.create(&principal.user_id, key, new).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(CreatedJob {
            job: JobView::from(&job),
            webhook_secret: job.webhook.map(|hook| hook.secret),
        }),
    ))
}

/// Reads and drops what a refused creation still sends (at most `limit` bytes, for at
/// most [`DISCARD_TIME`]), holding no more than a chunk at a time: a client that writes
/// its whole body before it reads the answer (Python's `http.client`, many scripts) then
/// gets the `429`/`503` instead of a connection cut under it. A client that asked
/// `Expect: 100-continue` has sent nothing and is answered at once.
async fn discard_body(request: Request, limit: usize) {
    if request.headers().contains_key(EXPECT) {
        return;
    }
    let mut body = request.into_body().into_data_stream();
    let mut read = 0usize;
    let discard = async {
        while let Some(Ok(chunk)) = body.next().await {
            read = read.saturating_add(chunk.len());
            if read > limit {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(DISCARD_TIME, discard).await;
}

/// Whether the body is declared JSON (`application/json` or a `+json` type), as axum's
/// `Json` extractor asks; this route reads its body itself, for a larger limit.
pub(super) fn says_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The caller's jobs, newest first, a page at a time.
#[utoipa::path(get, path = "/api/v1/jobs", tag = "jobs", params(ListQuery),
    responses((status = 200, body = JobPage), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Query(query): Query<ListQuery>,
) -> AppResult<axum::Json<JobPage>> {
    let limit = query.limit.unwrap_or(30).clamp(1, 100);
    let jobs = state
        .jobs
        .list(
            &principal.user_id,
            query.status.as_deref(),
            query.before.as_deref(),
            limit,
        )
        .await?;
    let next_before = (jobs.len() == limit)
        .then(|| jobs.last().map(|job| job.id.as_str().to_owned()))
        .flatten();
    Ok(axum::Json(JobPage {
        jobs: jobs.iter().map(JobView::from).collect(),
        next_before,
    }))
}

/// One of the caller's jobs with its answer, usage and written files (others' are 404).
#[utoipa::path(get, path = "/api/v1/jobs/{id}", tag = "jobs",
    responses((status = 200, body = JobDetail), (status = 404, body = ErrorBody)))]
async fn get(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<JobDetail>> {
    let report = state.jobs.report(&principal.user_id, &id).await?;
    Ok(axum::Json(JobDetail::from(&report)))
}

/// Cancels a job that has not ended; a running one's run is stopped before this answers.
#[utoipa::path(post, path = "/api/v1/jobs/{id}/cancel", tag = "jobs",
    responses((status = 200, body = JobView), (status = 404, body = ErrorBody),
        (status = 409, description = "the job has ended already", body = ErrorBody)))]
async fn cancel(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
) -> AppResult<axum::Json<JobView>> {
    let job = state.jobs.cancel(&principal.user_id, &id).await?;
    Ok(axum::Json(JobView::from(&job)))
}

/// Answers the question a `waiting` job asked; the agent goes on.
#[utoipa::path(post, path = "/api/v1/jobs/{id}/reply", tag = "jobs", request_body = Reply,
    responses((status = 201, body = StoredEvent), (status = 404, body = ErrorBody),
        (status = 409, description = "the job is not waiting", body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn reply(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<Reply>,
) -> AppResult<(StatusCode, axum::Json<StoredEvent>)> {
    let event = state.jobs.reply(&principal.user_id, &id, &body.content).await?;
    Ok((StatusCode::CREATED, axum::Json(event)))
}

/// The job's session's events, as `GET /api/v1/sessions/{id}/events` streams them.
#[utoipa::path(get, path = "/api/v1/jobs/{id}/events", tag = "jobs", params(Resume),
    responses(
        (status = 200, description = "`text/event-stream`; each event's `id:` is its sequence number, `event:` its type, `data:` the stored event as JSON", content_type = "text/event-stream", body = String),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, description = "too many open streams", body = ErrorBody)))]
async fn events(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(resume): Query<Resume>,
    headers: HeaderMap,
) -> AppResult<Sse<impl Stream<Item = Result<Event, std::convert::Infallible>>>> {
    let job = state.jobs.get(&principal.user_id, &id).await?;
    session_stream(&state, &principal.user_id, job.session_id, &resume, &headers)
}

/// The job's workspace (or `?path=` a folder in it) as a zip, streamed as it is made.
#[utoipa::path(get, path = "/api/v1/jobs/{id}/result", tag = "jobs", params(PathQuery),
    responses((status = 200, description = "a zip archive", content_type = "application/zip", body = Vec<u8>),
        (status = 404, body = ErrorBody)))]
async fn result(
    State(state): State<AppState>,
    CurrentUser(principal): CurrentUser,
    Path(id): Path<String>,
    Query(query): Query<PathQuery>,
) -> AppResult<Response> {
    let job = state.jobs.get(&principal.user_id, &id).await?;
    archive_of(&state, &principal.user_id, job.session_id.as_str(), &query.path).await
}
