//! File operations through HTTP against the real server, on real files in a temporary
//! workspace. Transfers (upload, download, archive) are in `files_transfer.rs`.
//!
//! # Layout
//!
//! - `read.rs`: reading, by lines and bytes, and how paths resolve;
//! - `write.rs`: writing and replacing;
//! - `find.rs`: finding files and searching their lines;
//! - `tree.rs`: listing, stat, mkdir, move and delete;
//! - `watch.rs`: watching a directory;
//! - `routes.rs`: the routes' token and their OpenAPI entries.
//!
//! This file holds the requests and helpers they share.

mod find;
mod read;
mod routes;
mod tree;
mod watch;
mod write;

use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;
use support::sse::SseReader;
use support::{expect_code, spawn_app, spawn_app_with, TestApp};
use tool_api_client::ClientError;
use tool_api_contract::files::{
    DeleteRequest, FileEvent, FileEventKind, FileKind, FindRequest, MkdirRequest, MoveRequest,
    ReadFileRequest, ReplaceRequest, SearchRequest, WriteFileRequest,
};
use tool_api_contract::{ErrorBody, ErrorCode};

fn read(path: &str) -> ReadFileRequest {
    ReadFileRequest {
        path: path.into(),
        ..Default::default()
    }
}

fn lines(path: &str, start: Option<u64>, end: Option<u64>) -> ReadFileRequest {
    ReadFileRequest {
        start_line: start,
        end_line: end,
        ..read(path)
    }
}

fn write(path: &str, content: &str) -> WriteFileRequest {
    WriteFileRequest {
        path: path.into(),
        content: content.into(),
        append: false,
    }
}

fn replace(path: &str, old: &str, new: &str) -> ReplaceRequest {
    ReplaceRequest {
        path: path.into(),
        old: old.into(),
        new: new.into(),
    }
}

fn find(path: &str, glob: &str) -> FindRequest {
    FindRequest {
        path: path.into(),
        glob: glob.into(),
        ..Default::default()
    }
}

fn search(path: &str, regex: &str) -> SearchRequest {
    SearchRequest {
        path: path.into(),
        regex: regex.into(),
        ..Default::default()
    }
}

fn delete(path: &str, recursive: bool) -> DeleteRequest {
    DeleteRequest {
        path: path.into(),
        recursive,
    }
}

fn moving(from: &str, to: &str, overwrite: bool) -> MoveRequest {
    MoveRequest {
        from: from.into(),
        to: to.into(),
        overwrite,
    }
}

/// Absolute path of a workspace entry, as the server shows it.
fn shown(app: &TestApp, relative: &str) -> String {
    app.path(relative).display().to_string()
}

/// Names in a workspace directory, staging files included, so leftovers show.
fn names_in_dir(app: &TestApp, relative: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(app.path(relative))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Sends a raw JSON body to a files route; for bodies the typed client cannot produce.
async fn post_raw(app: &TestApp, route: &str, body: &str) -> (StatusCode, ErrorBody) {
    let response = app
        .request(Method::POST, route)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}
