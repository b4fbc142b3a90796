//! `filesystem.Filesystem` over the wire, on real files: entries as E2B reads them, the
//! calls that change the tree (links behind a linked directory included), and watches
//! both streamed and polled, an upload showing as E2B's envd shows one.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::wire::{open_stream, unary, RpcStream};
use crate::support::{spawn_app, TestApp};

async fn call(app: &TestApp, method: &str, message: Value) -> (u16, Value) {
    unary(app, &format!("filesystem.Filesystem/{method}"), message).await
}

fn names(entries: &Value, root: &str) -> Vec<String> {
    entries["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().strip_prefix(root).unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn entries_are_made_listed_moved_and_removed() {
    let app = spawn_app().await;
    let root = format!("{}/", app.root().display());
    let (status, made) = call(&app, "MakeDir", json!({ "path": format!("{root}d/e") })).await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(made["entry"]["type"], "FILE_TYPE_DIRECTORY");
    assert_eq!(made["entry"]["name"], "e");
    let (status, again) = call(&app, "MakeDir", json!({ "path": format!("{root}d/e") })).await;
    assert_eq!(
        (status, again["code"].as_str()),
        (409, Some("already_exists")),
        "the SDK's make_dir says false"
    );

    std::fs::write(app.path("d/a.txt"), "hello").unwrap();
    let (status, stat) = call(&app, "Stat", json!({ "path": format!("{root}d/a.txt") })).await;
    assert_eq!(status, 200);
    let entry = &stat["entry"];
    assert_eq!(entry["name"], "a.txt");
    assert_eq!(entry["type"], "FILE_TYPE_FILE");
    assert_eq!(entry["path"], format!("{root}d/a.txt"));
    assert_eq!(entry["size"], "5", "an int64 is a string in protobuf JSON");
    assert!(
        entry["permissions"].as_str().unwrap().starts_with("-rw"),
        "{entry}"
    );
    let me = nix::unistd::User::from_uid(nix::unistd::getuid())
        .unwrap()
        .unwrap()
        .name;
    assert_eq!(entry["owner"], me);
    let modified = chrono::DateTime::parse_from_rfc3339(entry["modifiedTime"].as_str().unwrap()).unwrap();
    assert!((chrono::Utc::now() - modified.to_utc()).num_seconds() < 600);

    let (_, shallow) = call(&app, "ListDir", json!({ "path": root.clone(), "depth": 1 })).await;
    assert_eq!(names(&shallow, &root), ["d"]);
    let (_, deep) = call(&app, "ListDir", json!({ "path": root.clone(), "depth": 2 })).await;
    assert_eq!(names(&deep, &root), ["d", "d/a.txt", "d/e"]);

    let request = json!({ "source": format!("{root}d/a.txt"), "destination": format!("{root}d/sub/b.txt") });
    let (status, moved) = call(&app, "Move", request).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["entry"]["path"], format!("{root}d/sub/b.txt"));
    assert_eq!(std::fs::read_to_string(app.path("d/sub/b.txt")).unwrap(), "hello");
    let (status, gone) = call(&app, "Stat", json!({ "path": format!("{root}d/a.txt") })).await;
    assert_eq!((status, gone["code"].as_str()), (404, Some("not_found")));

    assert_eq!(
        call(&app, "Remove", json!({ "path": format!("{root}d") }))
            .await
            .0,
        200
    );
    assert!(!app.path("d").exists());
    // Removing what is not there succeeds, as with E2B's own daemon.
    let (status, answer) = call(&app, "Remove", json!({ "path": format!("{root}d") })).await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn symlinks_relative_paths_and_refusals() {
    let app = spawn_app().await;
    std::fs::write(app.path("target.txt"), "x").unwrap();
    std::os::unix::fs::symlink(app.path("target.txt"), app.path("link")).unwrap();
    let (_, stat) = call(
        &app,
        "Stat",
        json!({ "path": app.path("link").display().to_string() }),
    )
    .await;
    assert_eq!(stat["entry"]["isSymlink"], true, "{stat}");
    assert_eq!(
        stat["entry"]["symlinkTarget"],
        app.path("target.txt").display().to_string()
    );

    // Behind a linked directory (as /home/user is), the target is given under the link.
    std::fs::create_dir_all(app.path("real/d")).unwrap();
    std::os::unix::fs::symlink(app.path("real"), app.path("home")).unwrap();
    std::fs::write(app.path("real/d/t.txt"), "x").unwrap();
    std::os::unix::fs::symlink("t.txt", app.path("home/d/l.txt")).unwrap();
    let linked = app.path("home/d/l.txt").display().to_string();
    let (_, stat) = call(&app, "Stat", json!({ "path": linked })).await;
    assert_eq!(stat["entry"]["path"], linked);
    assert_eq!(
        stat["entry"]["symlinkTarget"],
        app.path("home/d/t.txt").display().to_string()
    );

    let (_, home) = call(&app, "Stat", json!({ "path": "." })).await;
    assert_eq!(
        home["entry"]["path"],
        std::env::var("HOME").unwrap(),
        "relative paths start at home"
    );

    let file = app.path("target.txt").display().to_string();
    let (status, error) = call(&app, "ListDir", json!({ "path": file })).await;
    assert_eq!((status, error["code"].as_str()), (400, Some("invalid_argument")));
    let (status, error) = call(&app, "CreateWatcher", json!({ "path": file })).await;
    assert_eq!((status, error["code"].as_str()), (400, Some("invalid_argument")));
    let response = app
        .request(reqwest::Method::POST, "/e2b/envd/filesystem.Filesystem/Stat")
        .header("E2b-User", "root")
        .json(&json!({ "path": "/" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["code"], "permission_denied");
}

#[tokio::test]
async fn a_polled_watcher_gathers_events_until_removed() {
    let app = spawn_app().await;
    let dir = app.root().display().to_string();
    let (status, created) = call(
        &app,
        "CreateWatcher",
        json!({ "path": dir, "includeEntry": true }),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["watcherId"].as_str().unwrap().to_owned();
    std::fs::write(app.path("new.txt"), "x").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|e: &Value| e["name"] == "new.txt" && e["type"] == "EVENT_TYPE_CREATE")
    {
        assert!(Instant::now() < deadline, "no create event: {seen:?}");
        let (status, events) = call(&app, "GetWatcherEvents", json!({ "watcherId": id })).await;
        assert_eq!(status, 200);
        seen.extend(events["events"].as_array().unwrap().iter().cloned());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let create = seen.iter().find(|e| e["type"] == "EVENT_TYPE_CREATE").unwrap();
    assert_eq!(
        create["entry"]["name"], "new.txt",
        "entries come with includeEntry"
    );
    assert_eq!(
        call(&app, "RemoveWatcher", json!({ "watcherId": id })).await.0,
        200
    );
    let (status, error) = call(&app, "GetWatcherEvents", json!({ "watcherId": id })).await;
    assert_eq!((status, error["code"].as_str()), (404, Some("not_found")));
}

#[tokio::test]
async fn a_streamed_watch_reports_changes_in_subdirectories() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("sub")).unwrap();
    let request = json!({ "path": app.root().display().to_string(), "recursive": true });
    let mut stream = open_stream(&app, "filesystem.Filesystem/WatchDir", request, &[]).await;
    assert_eq!(stream.next().await.unwrap(), json!({ "start": {} }));
    std::fs::write(app.path("sub/f.txt"), "x").unwrap();
    std::fs::remove_file(app.path("sub/f.txt")).unwrap();
    let mut kinds = Vec::new();
    while !kinds.contains(&"EVENT_TYPE_REMOVE".to_owned()) {
        let event = stream.next().await.unwrap();
        assert_eq!(event["filesystem"]["name"], "sub/f.txt", "{event}");
        assert!(
            event["filesystem"].get("entry").is_none(),
            "no entries unless asked for"
        );
        kinds.push(event["filesystem"]["type"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        kinds.first().map(String::as_str),
        Some("EVENT_TYPE_CREATE"),
        "{kinds:?}"
    );

    let missing = json!({ "path": app.path("nowhere").display().to_string() });
    let (_, end) = open_stream(&app, "filesystem.Filesystem/WatchDir", missing, &[])
        .await
        .collect()
        .await;
    assert_eq!(end["error"]["code"], "not_found", "{end}");
}

/// The types of the events a watch streams up to a WRITE and for a moment after, each
/// checked to be about `name`.
async fn kinds_until_written(stream: &mut RpcStream, name: &str) -> Vec<String> {
    let mut kinds = Vec::new();
    let mut take = |event: Value| {
        assert_eq!(event["filesystem"]["name"], name, "{event}");
        kinds.push(event["filesystem"]["type"].as_str().unwrap().to_owned());
        kinds.last().cloned()
    };
    // Up to its WRITE, however slow the watcher is on a loaded machine.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let event = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("no WRITE within 20 s")
            .expect("the watch ended");
        if take(event).as_deref() == Some("EVENT_TYPE_WRITE") {
            break;
        }
    }
    // Then whatever follows at once.
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_millis(500), stream.next()).await {
        take(event);
    }
    kinds
}

#[tokio::test]
async fn an_uploaded_file_shows_as_envd_reports_one() {
    let app = spawn_app().await;
    let request = json!({ "path": app.root().display().to_string() });
    let mut stream = open_stream(&app, "filesystem.Filesystem/WatchDir", request, &[]).await;
    assert_eq!(stream.next().await.unwrap(), json!({ "start": {} }));
    let url = format!("/e2b/envd/files?path={}", app.path("up.txt").display());
    let upload = |content: &'static str| {
        app.request(reqwest::Method::POST, &url)
            .header("content-type", "application/octet-stream")
            .body(content)
            .send()
    };

    // E2B's envd creates the file, hands it to the user (CHMOD) and fills it.
    assert_eq!(upload("first").await.unwrap().status(), 200);
    assert_eq!(
        kinds_until_written(&mut stream, "up.txt").await,
        ["EVENT_TYPE_CREATE", "EVENT_TYPE_CHMOD", "EVENT_TYPE_WRITE"]
    );
    assert_eq!(upload("second").await.unwrap().status(), 200);
    let kinds = kinds_until_written(&mut stream, "up.txt").await;
    assert_eq!(
        kinds.last().map(String::as_str),
        Some("EVENT_TYPE_WRITE"),
        "{kinds:?}"
    );
}
