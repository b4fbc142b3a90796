//! E2B's envd protocol under `/e2b/envd`: the Connect-RPC services `process.Process` and
//! `filesystem.Filesystem` (JSON codec, see [`connect`]) and the REST routes `health`,
//! `init`, `envs` and `files`. backend-api's `/e2b/sandbox` proxy forwards E2B's SDKs
//! here with the sandbox's bearer token, and names the user the SDK asked for in the
//! `E2b-User` header. The work is done in [`crate::envd`].

pub mod connect;
mod files;
mod filesystem;
mod messages;
mod process;
mod process_messages;
mod rest;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Extension;
use utoipa_axum::router::OpenApiRouter;

use super::AppState;
use crate::envd::error::{EnvdError, EnvdResult};
use crate::envd::{check_user, Envd};

/// Names the home directory the envd surface works in, when it is not `$HOME`.
const E2B_HOME: &str = "TOOL_API_E2B_HOME";

/// The header in which backend-api names the user an E2B request runs as.
const USER_HEADER: &str = "e2b-user";

/// The header in which a client asks for keepalive events, in seconds.
const KEEPALIVE_HEADER: &str = "keepalive-ping-interval";

type SharedEnvd = Arc<Envd>;

pub fn router() -> OpenApiRouter<AppState> {
    // E2B's home (`/home/user` in the image, a link to the sandbox user's home): paths
    // are answered as E2B's SDKs expect them, under it.
    let home = std::env::var_os(E2B_HOME)
        .or_else(|| std::env::var_os("HOME"))
        .map_or_else(|| "/".into(), Into::into);
    let envd: SharedEnvd = Arc::new(Envd::new(home));
    let rpc = |method: &str| format!("/e2b/envd/process.Process/{method}");
    let fs = |method: &str| format!("/e2b/envd/filesystem.Filesystem/{method}");
    OpenApiRouter::new()
        .route("/e2b/envd/health", get(rest::health))
        .route("/e2b/envd/init", post(rest::init))
        .route("/e2b/envd/envs", get(rest::envs))
        // Uploads stream their bodies within their own limits.
        .route(
            "/e2b/envd/files",
            get(files::download)
                .post(files::upload)
                .layer(DefaultBodyLimit::disable()),
        )
        .route(&rpc("Start"), post(process::start))
        .route(&rpc("Connect"), post(process::connect))
        .route(&rpc("List"), post(process::list))
        .route(&rpc("SendInput"), post(process::send_input))
        .route(&rpc("StreamInput"), post(process::stream_input))
        .route(&rpc("CloseStdin"), post(process::close_stdin))
        .route(&rpc("SendSignal"), post(process::send_signal))
        .route(&rpc("Update"), post(process::update))
        .route(&fs("Stat"), post(filesystem::stat))
        .route(&fs("MakeDir"), post(filesystem::make_dir))
        .route(&fs("Move"), post(filesystem::move_path))
        .route(&fs("ListDir"), post(filesystem::list_dir))
        .route(&fs("Remove"), post(filesystem::remove))
        .route(&fs("WatchDir"), post(filesystem::watch_dir))
        .route(&fs("CreateWatcher"), post(filesystem::create_watcher))
        .route(&fs("GetWatcherEvents"), post(filesystem::get_watcher_events))
        .route(&fs("RemoveWatcher"), post(filesystem::remove_watcher))
        .layer(Extension(envd))
}

/// Checks the user named by the request's `E2b-User` header.
fn check_request_user(headers: &HeaderMap) -> EnvdResult<()> {
    let user = headers
        .get(USER_HEADER)
        .map(|value| value.to_str().unwrap_or("\u{fffd}"));
    check_user(user)
}

/// How long a Connect request may take, in milliseconds (its `Connect-Timeout-Ms`).
const TIMEOUT_HEADER: &str = "connect-timeout-ms";

/// The time a request may take, when it names one: at most 10 digits of milliseconds,
/// as Connect defines the header; 0 is no limit, as E2B's envd reads it.
fn deadline(headers: &HeaderMap) -> EnvdResult<Option<Duration>> {
    let Some(value) = headers.get(TIMEOUT_HEADER) else {
        return Ok(None);
    };
    let millis = value
        .to_str()
        .ok()
        .map(str::trim)
        .filter(|v| (1..=10).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| EnvdError::invalid("Connect-Timeout-Ms is at most 10 digits of milliseconds"))?;
    Ok((millis > 0).then(|| Duration::from_millis(millis)))
}

/// The keepalive period a streaming request asks for.
fn keepalive(headers: &HeaderMap) -> Option<Duration> {
    let seconds: u64 = headers
        .get(KEEPALIVE_HEADER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds.max(1)))
}
