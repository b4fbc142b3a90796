//! File operations through HTTP against the real server, on real files in a temporary
//! workspace: read, write, replace, find, search, list, stat, mkdir, move, delete, watch.
//! Transfers (upload, download, archive) are in `files_transfer.rs`.

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

// ---- read ----

#[tokio::test]
async fn read_returns_the_whole_file_or_a_line_range() {
    let app = spawn_app().await;
    std::fs::write(app.path("poem.txt"), "one\ntwo\nthree\nfour").unwrap();

    let all = app.client.read_file(&read("poem.txt")).await.unwrap();
    assert_eq!(all.path, shown(&app, "poem.txt"));
    assert_eq!(all.content, "one\ntwo\nthree\nfour");
    assert_eq!((all.start_line, all.end_line, all.total_lines), (1, 4, Some(4)));
    assert_eq!(all.size, 18);
    assert!(!all.binary && !all.lossy && !all.truncated);

    let middle = app
        .client
        .read_file(&lines("poem.txt", Some(2), Some(3)))
        .await
        .unwrap();
    assert_eq!(middle.content, "two\nthree\n");
    assert_eq!(
        (middle.start_line, middle.end_line, middle.total_lines),
        (2, 3, Some(4))
    );

    let tail = app
        .client
        .read_file(&lines("poem.txt", Some(4), None))
        .await
        .unwrap();
    assert_eq!(
        (tail.content.as_str(), tail.start_line, tail.end_line),
        ("four", 4, 4)
    );

    let absolute = app
        .client
        .read_file(&read(&shown(&app, "poem.txt")))
        .await
        .unwrap();
    assert_eq!(absolute.content, all.content);
}

#[tokio::test]
async fn read_past_the_end_and_huge_numbers_are_empty_not_errors() {
    let app = spawn_app().await;
    std::fs::write(app.path("short.txt"), "a\nb\n").unwrap();

    for start in [3, 1000, u64::MAX] {
        let past = app
            .client
            .read_file(&lines("short.txt", Some(start), None))
            .await
            .unwrap();
        assert_eq!(past.content, "", "start {start}");
        assert_eq!(
            (past.start_line, past.end_line, past.total_lines),
            (0, 0, Some(2))
        );
        assert!(!past.truncated);
    }

    let request = ReadFileRequest {
        end_line: Some(u64::MAX),
        max_bytes: Some(u64::MAX),
        ..read("short.txt")
    };
    let everything = app.client.read_file(&request).await.unwrap();
    assert_eq!((everything.content.as_str(), everything.end_line), ("a\nb\n", 2));

    let empty = app.client.read_file(&read("short.txt")).await.unwrap();
    assert_eq!(empty.total_lines, Some(2));
    std::fs::write(app.path("empty.txt"), "").unwrap();
    let empty = app.client.read_file(&read("empty.txt")).await.unwrap();
    assert_eq!(
        (empty.content.as_str(), empty.start_line, empty.total_lines),
        ("", 0, Some(0))
    );
}

#[tokio::test]
async fn read_rejects_reversed_and_zero_line_numbers() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "a\nb\nc\n").unwrap();
    let message = expect_code(
        app.client.read_file(&lines("f.txt", Some(3), Some(2))).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("start_line 3 is after end_line 2"), "{message}");
    expect_code(
        app.client.read_file(&lines("f.txt", Some(0), None)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client
            .read_file(&lines("f.txt", Some(u64::MAX), Some(1)))
            .await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn numbers_json_cannot_hold_and_malformed_bodies_are_400() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "a\n").unwrap();
    for body in [
        r#"{"path":"f.txt","start_line":18446744073709551616}"#,
        r#"{"path":"f.txt","start_line":1e30}"#,
        r#"{"path":"f.txt","start_line":-1}"#,
        r#"{"path":"f.txt","end_line":"2"}"#,
        r#"{"path":"f.txt","max_bytes":1.5}"#,
        r#"{"path":"f.txt""#,
        r#"{"start_line":1}"#,
        "not json",
    ] {
        let (status, error) = post_raw(&app, "/v1/files/read", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(error.error.code, ErrorCode::MalformedRequest, "{body}");
    }
    // The largest number JSON can carry into a u64 is accepted.
    let response = app
        .request(Method::POST, "/v1/files/read")
        .json(&json!({"path": "f.txt", "start_line": 18446744073709551615u64}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for route in [
        "/v1/files/write",
        "/v1/files/replace",
        "/v1/files/find",
        "/v1/files/delete",
    ] {
        let (status, _) = post_raw(&app, route, "{").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{route}");
    }
}

#[tokio::test]
async fn binary_files_are_flagged_and_invalid_utf8_is_decoded_lossily() {
    let app = spawn_app().await;
    let mut binary = b"\x7fELF\x02\x01".to_vec();
    binary.extend_from_slice(&[0u8; 64]);
    std::fs::write(app.path("prog"), &binary).unwrap();
    let read_binary = app.client.read_file(&read("prog")).await.unwrap();
    assert!(read_binary.binary);
    assert_eq!(read_binary.content, "");
    assert_eq!(read_binary.size, binary.len() as u64);

    std::fs::write(app.path("latin1.txt"), b"caf\xe9\nna\xefve\n").unwrap();
    let latin1 = app.client.read_file(&read("latin1.txt")).await.unwrap();
    assert!(latin1.lossy && !latin1.binary);
    assert_eq!(latin1.content, "caf\u{FFFD}\nna\u{FFFD}ve\n");

    std::fs::write(app.path("utf8.txt"), "grüße ☃\n").unwrap();
    let utf8 = app.client.read_file(&read("utf8.txt")).await.unwrap();
    assert!(!utf8.lossy);
    assert_eq!(utf8.content, "grüße ☃\n");
}

#[tokio::test]
async fn reads_stop_at_the_byte_limit_without_splitting_characters() {
    let app = spawn_app_with(|settings| settings.limits.read_max_bytes = 10).await;
    std::fs::write(app.path("long.txt"), "0123456\n89abcdef\nmore\n").unwrap();
    let capped = app.client.read_file(&read("long.txt")).await.unwrap();
    assert_eq!(capped.content, "0123456\n89");
    assert!(capped.truncated);
    assert_eq!((capped.start_line, capped.end_line), (1, 2));

    let smaller = ReadFileRequest {
        max_bytes: Some(4),
        ..read("long.txt")
    };
    let smaller = app.client.read_file(&smaller).await.unwrap();
    assert_eq!((smaller.content.as_str(), smaller.truncated), ("0123", true));

    // ☃ is 3 bytes; a cut through it drops it instead of producing U+FFFD.
    std::fs::write(app.path("snow.txt"), "abcdefgh☃").unwrap();
    let snow = app.client.read_file(&read("snow.txt")).await.unwrap();
    assert_eq!(
        (snow.content.as_str(), snow.lossy, snow.truncated),
        ("abcdefgh", false, true)
    );
}

#[tokio::test]
async fn read_errors_name_the_problem() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("dir")).unwrap();
    let missing = expect_code(app.client.read_file(&read("nope.txt")).await, ErrorCode::NotFound);
    assert!(missing.contains(&shown(&app, "nope.txt")), "{missing}");
    expect_code(app.client.read_file(&read("dir")).await, ErrorCode::WrongKind);
    let nul = expect_code(app.client.read_file(&read("a\0b")).await, ErrorCode::InvalidInput);
    assert!(nul.contains("NUL"), "{nul}");
    expect_code(app.client.read_file(&read("")).await, ErrorCode::InvalidInput);
    expect_code(
        app.client.read_file(&read(&"x/".repeat(3000))).await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn files_routes_need_the_token() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(format!("{}/v1/files/read", app.base))
        .json(&read("x"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

// ---- paths ----

#[tokio::test]
async fn dot_dot_resolves_lexically_from_the_workspace() {
    let app = spawn_app().await;
    app.client
        .write_file(&write("a/../b.txt", "inside"))
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(app.path("b.txt")).unwrap(), "inside");

    // Enough `..` to reach `/`, then a detour through /etc: the path is taken apart
    // lexically, so this lands in /tmp, outside the workspace.
    let unique = format!("tool-api-escape-{}", std::process::id());
    let depth = app.root().components().count();
    let raw = format!("{}etc/../tmp/{unique}/x.txt", "../".repeat(depth + 2));
    let written = app.client.write_file(&write(&raw, "outside")).await.unwrap();
    assert_eq!(written.path, format!("/tmp/{unique}/x.txt"));
    assert_eq!(std::fs::read_to_string(&written.path).unwrap(), "outside");
    std::fs::remove_dir_all(format!("/tmp/{unique}")).unwrap();
}

// ---- write ----

#[tokio::test]
async fn write_creates_parents_replaces_and_appends() {
    let app = spawn_app().await;
    let first = app
        .client
        .write_file(&write("deep/er/notes.md", "hello\n"))
        .await
        .unwrap();
    assert_eq!(first.path, shown(&app, "deep/er/notes.md"));
    assert_eq!((first.bytes_written, first.size), (6, 6));

    let appended = WriteFileRequest {
        append: true,
        ..write("deep/er/notes.md", "world\n")
    };
    let appended = app.client.write_file(&appended).await.unwrap();
    assert_eq!((appended.bytes_written, appended.size), (6, 12));
    assert_eq!(
        std::fs::read_to_string(app.path("deep/er/notes.md")).unwrap(),
        "hello\nworld\n"
    );

    let replaced = app
        .client
        .write_file(&write("deep/er/notes.md", "new"))
        .await
        .unwrap();
    assert_eq!(replaced.size, 3);
    assert_eq!(
        std::fs::read_to_string(app.path("deep/er/notes.md")).unwrap(),
        "new"
    );

    let fresh_append = WriteFileRequest {
        append: true,
        ..write("new/log.txt", "line\n")
    };
    app.client.write_file(&fresh_append).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(app.path("new/log.txt")).unwrap(),
        "line\n"
    );

    // No staging file is left beside the target.
    assert_eq!(names_in_dir(&app, "deep/er"), ["notes.md"]);
}

#[tokio::test]
async fn write_keeps_permissions_and_symlinks() {
    let app = spawn_app().await;
    std::fs::write(app.path("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(app.path("run.sh"), std::fs::Permissions::from_mode(0o751)).unwrap();
    app.client
        .write_file(&write("run.sh", "#!/bin/sh\necho hi\n"))
        .await
        .unwrap();
    let mode = std::fs::metadata(app.path("run.sh"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(mode, 0o751);

    std::fs::write(app.path("real.txt"), "old").unwrap();
    std::os::unix::fs::symlink(app.path("real.txt"), app.path("link.txt")).unwrap();
    app.client
        .write_file(&write("link.txt", "through the link"))
        .await
        .unwrap();
    assert!(std::fs::symlink_metadata(app.path("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(app.path("real.txt")).unwrap(),
        "through the link"
    );
}

#[tokio::test]
async fn write_to_a_directory_is_refused() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(
        app.client.write_file(&write("dir", "x")).await,
        ErrorCode::WrongKind,
    );
    let append = WriteFileRequest {
        append: true,
        ..write("dir", "x")
    };
    expect_code(app.client.write_file(&append).await, ErrorCode::WrongKind);
    std::fs::write(app.path("file"), "").unwrap();
    expect_code(
        app.client.write_file(&write("file/child", "x")).await,
        ErrorCode::WrongKind,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_never_tear_a_file() {
    let app = spawn_app().await;
    let a = "a".repeat(1 << 20);
    let b = "b".repeat(1 << 20);
    std::fs::write(app.path("shared.txt"), &a).unwrap();
    // A reader alongside the writers must never see a partial file either.
    let stop = Arc::new(AtomicBool::new(false));
    let reader = tokio::task::spawn_blocking({
        let (path, a, b, stop) = (app.path("shared.txt"), a.clone(), b.clone(), stop.clone());
        move || {
            let mut reads = 0;
            while !stop.load(Ordering::Relaxed) {
                let content = std::fs::read_to_string(&path).unwrap();
                assert!(
                    content == a || content == b,
                    "a reader saw {} bytes",
                    content.len()
                );
                reads += 1;
            }
            reads
        }
    });
    let (write_a, write_b) = (write("shared.txt", &a), write("shared.txt", &b));
    for round in 0..20 {
        let (first, second) = tokio::join!(app.client.write_file(&write_a), app.client.write_file(&write_b));
        first.unwrap();
        second.unwrap();
        let content = std::fs::read_to_string(app.path("shared.txt")).unwrap();
        assert!(content == a || content == b, "round {round}: a torn file");
    }
    stop.store(true, Ordering::Relaxed);
    assert!(reader.await.unwrap() > 0);

    // Appends land whole: every line is one writer's complete line.
    let line_a = format!("{}\n", "A".repeat(1000));
    let line_b = format!("{}\n", "B".repeat(1000));
    let appender = |line: String| {
        let client = app.client.clone();
        tokio::spawn(async move {
            for _ in 0..25 {
                let request = WriteFileRequest {
                    append: true,
                    ..write("log.txt", &line)
                };
                client.write_file(&request).await.unwrap();
            }
        })
    };
    let (x, y) = tokio::join!(appender(line_a.clone()), appender(line_b.clone()));
    x.unwrap();
    y.unwrap();
    let log = std::fs::read_to_string(app.path("log.txt")).unwrap();
    let lines: Vec<&str> = log.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 50);
    assert_eq!(lines.iter().filter(|l| **l == line_a).count(), 25);
    assert_eq!(lines.iter().filter(|l| **l == line_b).count(), 25);
}

// ---- replace ----

#[tokio::test]
async fn replace_swaps_exactly_one_occurrence() {
    let app = spawn_app().await;
    std::fs::write(
        app.path("main.rs"),
        "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
    )
    .unwrap();
    std::fs::set_permissions(app.path("main.rs"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let done = app
        .client
        .replace(&replace("main.rs", "let x = 1;", "let x = 42;"))
        .await
        .unwrap();
    assert_eq!(done.line, 2);
    assert_eq!(done.path, shown(&app, "main.rs"));
    let content = std::fs::read_to_string(app.path("main.rs")).unwrap();
    assert_eq!(
        content,
        "fn main() {\n    let x = 42;\n    println!(\"{x}\");\n}\n"
    );
    assert_eq!(done.size, content.len() as u64);
    let mode = std::fs::metadata(app.path("main.rs"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(mode, 0o600);

    // Multi-line text, replaced by nothing.
    let done = app
        .client
        .replace(&replace("main.rs", "    println!(\"{x}\");\n", ""))
        .await
        .unwrap();
    assert_eq!(done.line, 3);
    assert_eq!(
        std::fs::read_to_string(app.path("main.rs")).unwrap(),
        "fn main() {\n    let x = 42;\n}\n"
    );
}

#[tokio::test]
async fn replace_refuses_absent_ambiguous_and_empty_text() {
    let app = spawn_app().await;
    let original = "x = 1\nx = 1\ny = 2\nx = 1\n";
    std::fs::write(app.path("vars.txt"), original).unwrap();

    match app.client.replace(&replace("vars.txt", "x = 1", "x = 3")).await {
        Err(ClientError::Api { status, body }) => {
            assert_eq!(status, 409);
            assert_eq!(body.error.code, ErrorCode::AmbiguousMatch);
            assert_eq!(body.error.details, Some(json!({"count": 3})));
            assert!(body.error.message.contains("3 times"), "{}", body.error.message);
        }
        other => panic!("expected an ambiguous match, got {other:?}"),
    }
    expect_code(
        app.client.replace(&replace("vars.txt", "z = 9", "")).await,
        ErrorCode::NoMatch,
    );
    expect_code(
        app.client.replace(&replace("vars.txt", "", "x")).await,
        ErrorCode::InvalidInput,
    );
    assert_eq!(
        std::fs::read_to_string(app.path("vars.txt")).unwrap(),
        original,
        "nothing changed"
    );

    expect_code(
        app.client.replace(&replace("missing.txt", "a", "b")).await,
        ErrorCode::NotFound,
    );
    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(
        app.client.replace(&replace("dir", "a", "b")).await,
        ErrorCode::WrongKind,
    );
}

// ---- find and search ----

/// A small project: src/{main.rs, lib.rs, http/mod.rs}, README.md, docs/guide.md.
fn make_project(app: &TestApp) {
    for (path, content) in [
        ("proj/src/main.rs", "fn main() {\n    run();\n}\n"),
        ("proj/src/lib.rs", "pub fn run() {\n    // TODO: more\n}\n"),
        ("proj/src/http/mod.rs", "pub mod routes; // todo\n"),
        ("proj/README.md", "# Project\nRun it with `cargo run`.\n"),
        ("proj/docs/guide.md", "Nothing to do.\n"),
    ] {
        std::fs::create_dir_all(app.path(path).parent().unwrap()).unwrap();
        std::fs::write(app.path(path), content).unwrap();
    }
}

#[tokio::test]
async fn find_matches_relative_paths_or_names() {
    let app = spawn_app().await;
    make_project(&app);
    let rs = |relative: &[&str]| {
        relative
            .iter()
            .map(|r| shown(&app, &format!("proj/{r}")))
            .collect::<Vec<_>>()
    };

    let all_rs = app.client.find(&find("proj", "**/*.rs")).await.unwrap();
    assert_eq!(
        all_rs.matches,
        rs(&["src/http/mod.rs", "src/lib.rs", "src/main.rs"])
    );
    assert!(!all_rs.truncated);
    let by_name = app.client.find(&find("proj", "*.rs")).await.unwrap();
    assert_eq!(
        by_name.matches, all_rs.matches,
        "a glob without / matches names at any depth"
    );
    let direct = app.client.find(&find("proj", "src/*.rs")).await.unwrap();
    assert_eq!(direct.matches, rs(&["src/lib.rs", "src/main.rs"]));
    let dirs = app.client.find(&find("proj", "{docs,src}")).await.unwrap();
    assert_eq!(dirs.matches, rs(&["docs", "src"]));

    let capped = FindRequest {
        max_results: Some(2),
        ..find("proj", "**/*.rs")
    };
    let capped = app.client.find(&capped).await.unwrap();
    assert_eq!(capped.matches.len(), 2);
    assert!(capped.truncated);

    let message = expect_code(
        app.client.find(&find("proj", "src/[a")).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("glob"), "{message}");
    expect_code(
        app.client.find(&find("proj/README.md", "*")).await,
        ErrorCode::WrongKind,
    );
    expect_code(app.client.find(&find("nope", "*")).await, ErrorCode::NotFound);
}

#[tokio::test]
async fn find_lists_the_files_modified_since_a_time_without_hidden_ones() {
    let app = spawn_app().await;
    make_project(&app);
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for old in ["proj/README.md", "proj/docs/guide.md", "proj/src/lib.rs"] {
        let file = std::fs::File::options().write(true).open(app.path(old)).unwrap();
        file.set_modified(an_hour_ago).unwrap();
    }
    std::fs::create_dir_all(app.path("proj/.cache/pip")).unwrap();
    std::fs::write(app.path("proj/.cache/pip/wheel"), "x").unwrap();
    let a_minute_ago = std::time::SystemTime::now() - Duration::from_secs(60);
    let since = a_minute_ago
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;

    let recent = FindRequest {
        modified_since_ms: Some(since),
        skip_hidden: true,
        ..find("proj", "**")
    };
    let recent = app.client.find(&recent).await.unwrap();
    assert_eq!(
        recent.matches,
        [
            shown(&app, "proj/src/http/mod.rs"),
            shown(&app, "proj/src/main.rs")
        ],
        "new files only: no folders, nothing older, nothing hidden"
    );

    let with_hidden = FindRequest {
        modified_since_ms: Some(since),
        ..find("proj", "**")
    };
    let with_hidden = app.client.find(&with_hidden).await.unwrap();
    assert!(
        with_hidden
            .matches
            .contains(&shown(&app, "proj/.cache/pip/wheel")),
        "{:?}",
        with_hidden.matches
    );
}

#[tokio::test]
async fn find_stops_at_the_scan_limit() {
    let app = spawn_app_with(|settings| settings.limits.scan_max_files = 3).await;
    make_project(&app);
    let found = app.client.find(&find("proj", "*")).await.unwrap();
    assert_eq!(found.matches.len(), 3);
    assert!(found.truncated);
}

#[tokio::test]
async fn search_finds_lines_with_numbers() {
    let app = spawn_app().await;
    make_project(&app);

    let todo = app.client.search(&search("proj", "TODO")).await.unwrap();
    assert_eq!(todo.matches.len(), 1);
    assert_eq!(todo.matches[0].path, shown(&app, "proj/src/lib.rs"));
    assert_eq!(todo.matches[0].line, 2);
    assert_eq!(todo.matches[0].text, "    // TODO: more");
    assert_eq!(todo.files_scanned, 5);
    assert!(!todo.truncated);

    let any_case = SearchRequest {
        case_insensitive: true,
        ..search("proj", "todo|to do")
    };
    let any_case = app.client.search(&any_case).await.unwrap();
    let found: Vec<(String, u64)> = any_case
        .matches
        .iter()
        .map(|m| (m.path.clone(), m.line))
        .collect();
    assert_eq!(
        found,
        [
            (shown(&app, "proj/docs/guide.md"), 1),
            (shown(&app, "proj/src/http/mod.rs"), 1),
            (shown(&app, "proj/src/lib.rs"), 2),
        ]
    );

    let only_md = SearchRequest {
        glob: Some("*.md".into()),
        ..search("proj", "(?i)run")
    };
    let only_md = app.client.search(&only_md).await.unwrap();
    assert_eq!(only_md.matches.len(), 1);
    assert_eq!(only_md.matches[0].path, shown(&app, "proj/README.md"));
    assert_eq!(only_md.files_scanned, 2);

    let anchored = app.client.search(&search("proj", r"^\}$")).await.unwrap();
    assert_eq!(anchored.matches.len(), 2, "line ends do not get in the way of $");

    let one_file = app
        .client
        .search(&search("proj/src/main.rs", "run"))
        .await
        .unwrap();
    assert_eq!((one_file.matches.len(), one_file.files_scanned), (1, 1));
}

#[tokio::test]
async fn search_skips_binary_files_cuts_long_lines_and_caps_results() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("s")).unwrap();
    std::fs::write(app.path("s/blob.bin"), b"needle\0needle\n").unwrap();
    let long_line = format!("{}needle{}\n", "x".repeat(3000), "y".repeat(3000));
    std::fs::write(app.path("s/long.txt"), &long_line).unwrap();
    std::fs::write(app.path("s/many.txt"), "needle\n".repeat(50)).unwrap();

    let found = app.client.search(&search("s", "needle")).await.unwrap();
    assert!(
        found.matches.iter().all(|m| !m.path.ends_with("blob.bin")),
        "binary files are skipped"
    );
    let long = found
        .matches
        .iter()
        .find(|m| m.path.ends_with("long.txt"))
        .unwrap();
    assert!(long.text.contains("needle"), "the excerpt shows the match");
    assert!(
        long.text.chars().count() <= 502,
        "{} chars",
        long.text.chars().count()
    );
    assert_eq!(found.matches.len(), 51);
    assert_eq!(found.files_scanned, 3);

    let capped = SearchRequest {
        max_results: Some(5),
        ..search("s", "needle")
    };
    let capped = app.client.search(&capped).await.unwrap();
    assert_eq!(capped.matches.len(), 5);
    assert!(capped.truncated);
}

#[tokio::test]
async fn search_rejects_invalid_patterns() {
    let app = spawn_app().await;
    make_project(&app);
    let message = expect_code(
        app.client.search(&search("proj", "fn (")).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("regex"), "{message}");
    let bad_glob = SearchRequest {
        glob: Some("**/*.{rs".into()),
        ..search("proj", "fn")
    };
    expect_code(app.client.search(&bad_glob).await, ErrorCode::InvalidInput);
    expect_code(
        app.client.search(&search("nope", "fn")).await,
        ErrorCode::NotFound,
    );
}

// ---- list and stat ----

#[tokio::test]
async fn list_puts_directories_first_then_names() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("d/zeta")).unwrap();
    std::fs::create_dir_all(app.path("d/alpha")).unwrap();
    std::fs::write(app.path("d/b.txt"), "12345").unwrap();
    std::fs::write(app.path("d/a.txt"), "").unwrap();
    std::fs::set_permissions(app.path("d/a.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("b.txt", app.path("d/c-link")).unwrap();

    let listing = app.client.list("d").await.unwrap();
    assert_eq!(listing.path, shown(&app, "d"));
    let names: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["alpha", "zeta", "a.txt", "b.txt", "c-link"]);
    let kinds: Vec<FileKind> = listing.entries.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            FileKind::Dir,
            FileKind::Dir,
            FileKind::File,
            FileKind::File,
            FileKind::Symlink
        ]
    );
    let b = &listing.entries[3];
    assert_eq!((b.size, b.path.as_str()), (5, shown(&app, "d/b.txt").as_str()));
    assert_eq!(listing.entries[2].mode, 0o640);
    assert_eq!(listing.entries[4].symlink_target.as_deref(), Some("b.txt"));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(
        (now_ms - b.mtime_ms).abs() < 60_000,
        "mtime {} vs now {now_ms}",
        b.mtime_ms
    );

    expect_code(app.client.list("d/b.txt").await, ErrorCode::WrongKind);
    expect_code(app.client.list("nope").await, ErrorCode::NotFound);
}

#[tokio::test]
async fn stat_describes_without_following_symlinks() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "abc").unwrap();
    std::os::unix::fs::symlink("gone", app.path("dangling")).unwrap();

    let file = app.client.stat("f.txt").await.unwrap();
    assert_eq!(
        (file.name.as_str(), file.kind, file.size),
        ("f.txt", FileKind::File, 3)
    );
    assert_eq!(file.symlink_target, None);
    let link = app.client.stat("dangling").await.unwrap();
    assert_eq!(link.kind, FileKind::Symlink);
    assert_eq!(link.symlink_target.as_deref(), Some("gone"));
    let root = app.client.stat("/").await.unwrap();
    assert_eq!((root.name.as_str(), root.kind), ("/", FileKind::Dir));
    expect_code(app.client.stat("missing").await, ErrorCode::NotFound);
}

// ---- mkdir, move, delete ----

#[tokio::test]
async fn mkdir_creates_parents_and_accepts_existing_directories() {
    let app = spawn_app().await;
    let mkdir = |path: &str, parents: bool| MkdirRequest {
        path: path.into(),
        parents,
    };
    let made = app.client.mkdir(&mkdir("x/y/z", true)).await.unwrap();
    assert_eq!(
        (made.kind, made.path.as_str()),
        (FileKind::Dir, shown(&app, "x/y/z").as_str())
    );
    assert!(app.path("x/y/z").is_dir());
    app.client.mkdir(&mkdir("x/y/z", true)).await.unwrap();
    app.client.mkdir(&mkdir("x/y/z", false)).await.unwrap();

    expect_code(app.client.mkdir(&mkdir("p/q", false)).await, ErrorCode::NotFound);
    std::fs::write(app.path("file"), "").unwrap();
    expect_code(
        app.client.mkdir(&mkdir("file", true)).await,
        ErrorCode::AlreadyExists,
    );
    expect_code(
        app.client.mkdir(&mkdir("file/sub", true)).await,
        ErrorCode::WrongKind,
    );
}

#[tokio::test]
async fn move_renames_and_respects_overwrite() {
    let app = spawn_app().await;
    std::fs::write(app.path("a.txt"), "A").unwrap();
    std::fs::write(app.path("b.txt"), "B").unwrap();

    let moved = app
        .client
        .move_path(&moving("a.txt", "sub/dir/a2.txt", false))
        .await
        .unwrap();
    assert_eq!(
        (moved.path.as_str(), moved.size),
        (shown(&app, "sub/dir/a2.txt").as_str(), 1)
    );
    assert!(!app.path("a.txt").exists());
    assert_eq!(std::fs::read_to_string(app.path("sub/dir/a2.txt")).unwrap(), "A");

    let message = expect_code(
        app.client
            .move_path(&moving("sub/dir/a2.txt", "b.txt", false))
            .await,
        ErrorCode::AlreadyExists,
    );
    assert!(message.contains("overwrite"), "{message}");
    assert_eq!(
        std::fs::read_to_string(app.path("b.txt")).unwrap(),
        "B",
        "the target is untouched"
    );

    app.client
        .move_path(&moving("sub/dir/a2.txt", "b.txt", true))
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(app.path("b.txt")).unwrap(), "A");

    app.client
        .move_path(&moving("sub", "renamed", false))
        .await
        .unwrap();
    assert!(app.path("renamed/dir").is_dir());

    expect_code(
        app.client.move_path(&moving("ghost", "x", false)).await,
        ErrorCode::NotFound,
    );
    expect_code(
        app.client.move_path(&moving(".", "elsewhere", false)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client.move_path(&moving("b.txt", "/", true)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client
            .move_path(&moving("renamed", "renamed/inside", false))
            .await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn move_copies_files_across_filesystems() {
    let app = spawn_app().await;
    // /dev/shm is a tmpfs: a rename from there into the workspace crosses filesystems.
    let outside = tempfile::tempdir_in("/dev/shm").unwrap();
    let source = outside.path().join("report.txt");
    std::fs::write(&source, "from another filesystem").unwrap();
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::write(app.path("taken.txt"), "keep").unwrap();

    let from = source.display().to_string();
    expect_code(
        app.client.move_path(&moving(&from, "taken.txt", false)).await,
        ErrorCode::AlreadyExists,
    );
    let moved = app
        .client
        .move_path(&moving(&from, "in/report.txt", false))
        .await
        .unwrap();
    assert_eq!((moved.size, moved.mode), (23, 0o640));
    assert!(!source.exists(), "the original is removed");
    assert_eq!(
        std::fs::read_to_string(app.path("in/report.txt")).unwrap(),
        "from another filesystem"
    );
    assert_eq!(names_in_dir(&app, "in"), ["report.txt"]);
}

#[tokio::test]
async fn delete_needs_recursive_for_full_directories_and_spares_the_workspace() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("full/inner")).unwrap();
    std::fs::write(app.path("full/inner/f"), "x").unwrap();
    std::fs::create_dir(app.path("empty")).unwrap();
    std::fs::write(app.path("target.txt"), "keep me").unwrap();
    std::os::unix::fs::symlink(app.path("target.txt"), app.path("link")).unwrap();

    app.client.delete(&delete("link", false)).await.unwrap();
    assert!(std::fs::symlink_metadata(app.path("link")).is_err());
    assert_eq!(
        std::fs::read_to_string(app.path("target.txt")).unwrap(),
        "keep me"
    );

    app.client.delete(&delete("target.txt", false)).await.unwrap();
    assert!(!app.path("target.txt").exists());
    app.client.delete(&delete("empty", false)).await.unwrap();
    assert!(!app.path("empty").exists());

    let message = expect_code(
        app.client.delete(&delete("full", false)).await,
        ErrorCode::DirectoryNotEmpty,
    );
    assert!(message.contains("recursive"), "{message}");
    assert!(app.path("full/inner/f").exists());
    app.client.delete(&delete("full", true)).await.unwrap();
    assert!(!app.path("full").exists());

    for protected in ["/", ".", "", "..", &shown(&app, ""), "sub/../.."] {
        let result = app.client.delete(&delete(protected, true)).await;
        expect_code(result, ErrorCode::InvalidInput);
    }
    assert!(app.root().is_dir());
    expect_code(
        app.client.delete(&delete("missing", false)).await,
        ErrorCode::NotFound,
    );
}

// ---- watch ----

/// Reads events until one matches, within a few seconds.
async fn expect_event(events: &mut SseReader, kind: FileEventKind, path: &str) {
    let wanted = FileEvent {
        kind,
        path: path.to_owned(),
    };
    let found = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(event) = events.next().await {
            assert_eq!(event.event, "file");
            if serde_json::from_str::<FileEvent>(&event.data).unwrap() == wanted {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(found, Ok(true), "no {wanted:?}");
}

/// inotify instances open in this process (the server runs in it).
fn inotify_instances() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.unwrap().path()).ok())
        .filter(|target| target.to_string_lossy().contains("inotify"))
        .count()
}

#[tokio::test]
async fn watch_reports_changes_and_ends_with_the_client() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("w/nested")).unwrap();
    let before = inotify_instances();

    let mut events = SseReader::new(app.client.watch("w", true).await.unwrap());
    assert_eq!(inotify_instances(), before + 1);

    app.client
        .write_file(&write("w/api.txt", "via the API"))
        .await
        .unwrap();
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/api.txt")).await;

    std::fs::write(app.path("w/nested/std.txt"), "via std::fs").unwrap();
    expect_event(
        &mut events,
        FileEventKind::Created,
        &shown(&app, "w/nested/std.txt"),
    )
    .await;
    expect_event(
        &mut events,
        FileEventKind::Modified,
        &shown(&app, "w/nested/std.txt"),
    )
    .await;

    let shell = tool_api_contract::shell::ExecRequest {
        command: "echo from-a-shell > w/shell.txt".into(),
        ..Default::default()
    };
    app.client.exec("watcher", &shell).await.unwrap();
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/shell.txt")).await;

    std::fs::rename(app.path("w/api.txt"), app.path("w/renamed.txt")).unwrap();
    expect_event(&mut events, FileEventKind::Removed, &shown(&app, "w/api.txt")).await;
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/renamed.txt")).await;

    app.client.delete(&delete("w/renamed.txt", false)).await.unwrap();
    expect_event(&mut events, FileEventKind::Removed, &shown(&app, "w/renamed.txt")).await;

    drop(events);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while inotify_instances() > before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the watcher outlived its client"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    expect_code(app.client.watch("nope", true).await, ErrorCode::NotFound);
}

#[tokio::test]
async fn openapi_lists_the_files_routes() {
    let app = spawn_app().await;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", app.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for (route, method) in [
        ("/v1/files/read", "post"),
        ("/v1/files/write", "post"),
        ("/v1/files/replace", "post"),
        ("/v1/files/find", "post"),
        ("/v1/files/search", "post"),
        ("/v1/files/list", "post"),
        ("/v1/files/stat", "post"),
        ("/v1/files/mkdir", "post"),
        ("/v1/files/move", "post"),
        ("/v1/files/delete", "post"),
        ("/v1/files/upload", "put"),
        ("/v1/files/download", "get"),
        ("/v1/files/archive", "get"),
        ("/v1/files/watch", "get"),
    ] {
        let operation = &doc["paths"][route][method];
        assert_eq!(operation["tags"], json!(["files"]), "{method} {route}");
    }
}
