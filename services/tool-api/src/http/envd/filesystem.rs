//! `filesystem.Filesystem`: Stat, MakeDir, Move, ListDir and Remove; WatchDir streams a
//! directory's changes, and CreateWatcher, GetWatcherEvents and RemoveWatcher keep them
//! for a client that polls (E2B's Python SDK does).

use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;
use serde_json::{json, Value};

use super::connect::{failed_stream, streaming, StreamRequest, Unary, UnaryRequest};
use super::messages::Number;
use super::{check_request_user, keepalive, AppState, SharedEnvd};
use crate::envd::error::EnvdResult;
use crate::envd::{fs, watch};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PathRequest {
    path: String,
    depth: Option<Number>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MoveRequest {
    source: String,
    destination: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WatchRequest {
    path: String,
    recursive: bool,
    #[serde(alias = "include_entry")]
    include_entry: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WatcherRequest {
    #[serde(alias = "watcher_id")]
    watcher_id: String,
}

/// Runs `call` for a request whose user passed the check.
async fn unary<F>(headers: &HeaderMap, call: F) -> Unary<Value>
where
    F: std::future::Future<Output = EnvdResult<Value>>,
{
    Unary(match check_request_user(headers) {
        Ok(()) => call.await,
        Err(err) => Err(err),
    })
}

pub async fn stat(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<PathRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        let entry = fs::stat(envd.resolve(&request.path)?).await?;
        Ok(json!({ "entry": entry }))
    })
    .await
}

pub async fn make_dir(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<PathRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        let entry = fs::make_dir(envd.resolve(&request.path)?).await?;
        Ok(json!({ "entry": entry }))
    })
    .await
}

pub async fn move_path(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<MoveRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        let entry = fs::move_path(
            envd.resolve(&request.source)?,
            envd.resolve(&request.destination)?,
        )
        .await?;
        Ok(json!({ "entry": entry }))
    })
    .await
}

pub async fn list_dir(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<PathRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        let depth = request.depth.unwrap_or_default().to_u32("depth")?;
        let entries = fs::list_dir(envd.resolve(&request.path)?, depth).await?;
        Ok(json!({ "entries": entries }))
    })
    .await
}

pub async fn remove(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<PathRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        fs::remove(envd.resolve(&request.path)?).await?;
        Ok(json!({}))
    })
    .await
}

pub async fn watch_dir(
    State(state): State<AppState>,
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    StreamRequest(request): StreamRequest<WatchRequest>,
) -> Response {
    let started = check_request_user(&headers)
        .and_then(|()| envd.resolve(&request.path))
        .and_then(|dir| watch::watch(dir, request.recursive, request.include_entry));
    let mut watch = match started {
        Ok(watch) => watch,
        Err(err) => return failed_stream(err),
    };
    let period = keepalive(&headers).unwrap_or(Duration::from_secs(1 << 30));
    let stopping = state.stopping.clone();
    streaming(async_stream::stream! {
        yield Ok(json!({ "start": {} }));
        let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        loop {
            let next = tokio::select! {
                event = watch.next() => event.map(|event| json!({ "filesystem": event })),
                _ = ticker.tick() => Some(json!({ "keepalive": {} })),
                () = stopping.cancelled() => None,
            };
            match next {
                Some(message) => yield Ok(message),
                None => break,
            }
        }
    })
}

pub async fn create_watcher(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<WatchRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        let dir = envd.resolve(&request.path)?;
        let watch = watch::watch(dir, request.recursive, request.include_entry)?;
        Ok(json!({ "watcherId": envd.watchers.add(watch)? }))
    })
    .await
}

pub async fn get_watcher_events(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<WatcherRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        Ok(json!({ "events": envd.watchers.take(&request.watcher_id)? }))
    })
    .await
}

pub async fn remove_watcher(
    Extension(envd): Extension<SharedEnvd>,
    headers: HeaderMap,
    UnaryRequest(request): UnaryRequest<WatcherRequest>,
) -> Unary<Value> {
    unary(&headers, async {
        envd.watchers.remove(&request.watcher_id)?;
        Ok(json!({}))
    })
    .await
}
