//! The control plane E2B's SDKs call: create (`POST /sandboxes`, `/v2/sandboxes`), get,
//! list (`GET /v2/sandboxes`, paged with `X-Next-Token`), kill, set the timeout, pause,
//! connect (which resumes a paused sandbox) and metrics. Bodies are parsed here into the
//! domain's types.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::caller::E2bCaller;
use super::error::{E2bError, E2bResult};
use super::views::{Created, Detail, Metric};
use crate::application::e2b::{Cursor, NewSandbox, Order, SandboxFilter};
use crate::application::AppError;
use crate::domain::e2b::{self, E2bState, E2bTimeout, MetricsWindow, Template};
use crate::domain::session::Network;
use crate::interfaces::http::AppState;

/// The most a page of a listing holds, and what it holds when not told.
const PAGE_MAX: usize = 100;

/// `NewSandbox` of E2B's API; what is not listed here is ignored, as E2B ignores it
/// for sandboxes it cannot give it to.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateBody {
    #[serde(rename = "templateID")]
    template_id: String,
    timeout: Option<i64>,
    #[serde(default)]
    auto_pause: bool,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    #[serde(default)]
    env_vars: BTreeMap<String, String>,
    #[serde(rename = "allow_internet_access")]
    allow_internet_access: Option<bool>,
}

#[derive(Deserialize)]
struct TimeoutBody {
    timeout: Option<i64>,
}

fn parse<T: DeserializeOwned>(body: &Bytes) -> E2bResult<T> {
    let body = if body.is_empty() { b"{}".as_slice() } else { body };
    serde_json::from_slice(body)
        .map_err(|err| E2bError::Malformed(format!("the body is not what this route takes: {err}")))
}

pub async fn create(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    body: Bytes,
) -> E2bResult<Response> {
    let body: CreateBody = parse(&body)?;
    let new = NewSandbox {
        template: Template::parse(&body.template_id)?,
        timeout: E2bTimeout::parse(body.timeout)?,
        metadata: e2b::metadata(body.metadata)?,
        env_vars: e2b::env_vars(body.env_vars)?,
        network: match body.allow_internet_access {
            Some(false) => Network::Offline,
            _ => Network::Internet,
        },
        auto_pause: body.auto_pause,
    };
    let (sandbox, token) = state.e2b.create(&owner, new).await?;
    Ok((StatusCode::CREATED, Json(Created::new(&sandbox, token))).into_response())
}

pub async fn get(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
) -> E2bResult<Json<Detail>> {
    Ok(Json(Detail::from(&state.e2b.get(&owner, &id).await?)))
}

/// `GET /v2/sandboxes?metadata=&state=&order=&startedAfter=&template=&nextToken=&limit=`:
/// `metadata` is `key=value&…` URL-encoded once more as a whole, `state` is `running`
/// and/or `paused`, `order` `asc` or `desc` (the default: newest first) by start time,
/// `startedAfter` an RFC 3339 time, `template` a template's name. `X-Next-Token` is
/// where the next page starts, in the same order.
pub async fn list(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    RawQuery(query): RawQuery,
) -> E2bResult<Response> {
    let mut filter = SandboxFilter::default();
    let (mut order, mut after, mut limit) = (Order::default(), None, PAGE_MAX);
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        match name.as_ref() {
            "metadata" => filter.metadata.extend(
                url::form_urlencoded::parse(value.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())),
            ),
            "state" => {
                for name in value.split(',').map(str::trim) {
                    filter.states.push(match name {
                        "running" => E2bState::Running,
                        "paused" => E2bState::Paused,
                        other => {
                            return Err(E2bError::Malformed(format!(
                                "state `{other}` is not one of running, paused"
                            )))
                        }
                    });
                }
            }
            "order" => order = Order::parse(&value)?,
            "startedAfter" => {
                let at = DateTime::parse_from_rfc3339(&value).map_err(|_| {
                    E2bError::Malformed(format!(
                        "startedAfter `{value}` is not an RFC 3339 time, such as 2025-01-31T12:00:00Z"
                    ))
                })?;
                filter.started_after = Some(at.with_timezone(&Utc));
            }
            "template" => filter.template = Some(value.into_owned()),
            "nextToken" => after = Some(Cursor::parse(&value)?),
            "limit" => {
                limit = value
                    .parse::<usize>()
                    .map_err(|_| {
                        E2bError::Malformed(format!("limit is a number of sandboxes, 1 to {PAGE_MAX}"))
                    })?
                    .clamp(1, PAGE_MAX)
            }
            _ => {}
        }
    }
    let page = state
        .e2b
        .list(&owner, &filter, order, after.as_ref(), limit)
        .await?;
    let mut headers = HeaderMap::new();
    if let Some(next) = page
        .next
        .and_then(|next| HeaderValue::from_str(&next.token()).ok())
    {
        headers.insert("x-next-token", next);
    }
    let listed: Vec<Detail> = page.sandboxes.iter().map(Detail::from).collect();
    Ok((headers, Json(listed)).into_response())
}

pub async fn kill(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
) -> E2bResult<StatusCode> {
    state.e2b.kill(&owner, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

pub async fn set_timeout(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
    body: Bytes,
) -> E2bResult<StatusCode> {
    let body: TimeoutBody = parse(&body)?;
    let timeout = E2bTimeout::parse(Some(
        body.timeout
            .ok_or_else(|| E2bError::Malformed("give timeout in seconds".into()))?,
    ))?;
    state.e2b.set_timeout(&owner, &id, timeout).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `201` when a paused sandbox was resumed, `200` when it was running.
pub async fn connect(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
    body: Bytes,
) -> E2bResult<Response> {
    let body: TimeoutBody = parse(&body)?;
    let timeout = E2bTimeout::parse(body.timeout)?;
    let connected = state.e2b.connect(&owner, &id, timeout).await?;
    let status = if connected.resumed {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(Created::new(&connected.sandbox, connected.tokens))).into_response())
}

/// `204` once paused; `409` when it was paused already (the SDK then answers `False`).
/// Whatever the body asks (`memory`), only the files are kept: the processes end.
pub async fn pause(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
) -> E2bResult<StatusCode> {
    if state.e2b.pause(&owner, &id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::Conflict(format!("sandbox {id} is paused already")).into())
    }
}

/// `GET /sandboxes/{id}/metrics?start=&end=` (Unix seconds): the newest reading (none
/// while paused), when the span asked for reaches it; there is no older one.
pub async fn metrics(
    State(state): State<AppState>,
    E2bCaller(owner): E2bCaller,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> E2bResult<Json<Vec<Metric>>> {
    let (mut start, mut end) = (None, None);
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        let slot = match name.as_ref() {
            "start" => &mut start,
            "end" => &mut end,
            _ => continue,
        };
        *slot = Some(value.parse::<i64>().map_err(|_| {
            E2bError::Malformed(format!("{name} `{value}` is not a time: give Unix seconds"))
        })?);
    }
    let window = MetricsWindow::parse(start, end)?;
    let readings = state.e2b.metrics(&owner, &id, window).await?;
    Ok(Json(readings.iter().map(Metric::from).collect()))
}
