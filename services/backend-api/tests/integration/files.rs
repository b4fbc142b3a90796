//! The file browser and attachments over a real sandbox: the real backend, the real
//! sandbox-manager binary, Docker and the sandbox image. Every request goes through the
//! backend (ownership checks, streaming both ways); the test checks the sandbox itself
//! through its own tool-api.
//!
//! Needs the Docker engine and the sandbox-manager binary (built by `cargo test
//! --workspace`, or `cargo build -p sandbox-manager`).

use crate::support;

use std::time::Duration;

use reqwest::header::{
    CONTENT_DISPOSITION, CONTENT_RANGE, CONTENT_SECURITY_POLICY, RANGE, X_CONTENT_TYPE_OPTIONS,
};
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::Manager;
use support::{borrowed, SseStream, TestApp};
use tool_api_client::contract::files::ReadFileRequest;

const UPLOAD_LIMIT: usize = 64 * 1024;

async fn backend(manager: &Manager, extra: Vec<(&'static str, String)>) -> TestApp {
    let mut settings = manager.settings();
    settings.push(("http.upload_limit_bytes", UPLOAD_LIMIT.to_string()));
    settings.extend(extra);
    TestApp::spawn(&borrowed(&settings)).await
}

fn files_url(app: &TestApp, session: &str, rest: &str) -> String {
    format!("{}/api/v1/sessions/{session}/{rest}", app.base)
}

async fn put(app: &TestApp, token: &str, url: String, body: impl Into<reqwest::Body>) -> Response {
    app.http
        .put(url)
        .bearer_auth(token)
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn json_of(response: Response, status: StatusCode) -> Value {
    let got = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(got, status, "{text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

#[tokio::test]
async fn the_file_browser_lists_reads_ranges_zips_uploads_watches_and_deletes() {
    let manager = Manager::start();
    let app = backend(&manager, Vec::new()).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&token).await;

    // An attachment lands in the workspace's uploads folder.
    let attached = app
        .http
        .post(files_url(&app, &id, "attachments?name=notes.txt"))
        .bearer_auth(&token)
        .body("hello\nworld\n")
        .send()
        .await
        .unwrap();
    let attached = json_of(attached, StatusCode::CREATED).await;
    assert_eq!(attached["path"], "/home/sandbox/workspace/uploads/notes.txt");
    assert_eq!(attached["size"], 12);
    assert_eq!(attached["kind"], "file");
    let listed = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}/attachments"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["name"], "notes.txt");

    // What the backend says is what the sandbox holds.
    let sandbox = manager.tool_api(&id).await;
    let read = sandbox
        .read_file(&ReadFileRequest {
            path: "uploads/notes.txt".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(read.content, "hello\nworld\n");

    // Listing the workspace (the default path) and stat.
    let workspace = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}/files"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(workspace["path"], "/home/sandbox/workspace");
    let names: Vec<&str> = workspace["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"uploads"), "{names:?}");
    let stat = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}/files/stat?path=uploads/notes.txt"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(stat["size"], 12);

    // Download: whole, a range, a range outside the file.
    let whole = app
        .http
        .get(files_url(&app, &id, "files/download?path=uploads/notes.txt"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(whole.status(), StatusCode::OK);
    assert!(whole.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("filename=\"notes.txt\""));
    // What the preview fetches: opened straight from the API, it runs nothing as this origin.
    assert_eq!(
        whole.headers()[CONTENT_SECURITY_POLICY],
        "default-src 'none'; frame-ancestors 'none'; sandbox"
    );
    assert_eq!(whole.headers()[X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(whole.text().await.unwrap(), "hello\nworld\n");
    let part = app
        .http
        .get(files_url(&app, &id, "files/download?path=uploads/notes.txt"))
        .bearer_auth(&token)
        .header(RANGE, "bytes=6-10")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.headers()[CONTENT_RANGE], "bytes 6-10/12");
    assert_eq!(part.text().await.unwrap(), "world");
    let outside = app
        .http
        .get(files_url(&app, &id, "files/download?path=uploads/notes.txt"))
        .bearer_auth(&token)
        .header(RANGE, "bytes=100-200")
        .send()
        .await
        .unwrap();
    let outside = json_of(outside, StatusCode::RANGE_NOT_SATISFIABLE).await;
    assert_eq!(outside["error"]["code"], "range_not_satisfiable");

    // Live changes: a watch on the workspace sees an upload.
    let watch = app
        .http
        .get(files_url(&app, &id, "files/watch"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(watch.status(), StatusCode::OK);
    let mut watch = SseStream::from_response(watch);

    // Upload: new, refused over an existing file, then overwriting.
    let url = files_url(&app, &id, "files/upload?path=project/src/main.py");
    let created = json_of(
        put(&app, &token, url.clone(), "print('v1')\n").await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(created["path"], "/home/sandbox/workspace/project/src/main.py");
    let taken = json_of(
        put(&app, &token, url.clone(), "print('v2')\n").await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(taken["error"]["code"], "conflict");
    let replaced = json_of(
        put(&app, &token, format!("{url}&overwrite=true"), "print('v2')\n").await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(replaced["size"], 12);

    let change = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let event = watch.next_or_end().await.expect("the watch stays open");
            let change: Value = serde_json::from_str(&event.data).unwrap();
            assert_eq!(event.event, "file");
            if change["path"].as_str().unwrap().ends_with("project/src/main.py") {
                return change;
            }
        }
    })
    .await
    .expect("the watch reports the upload within 10 s");
    assert!(
        ["created", "modified"].contains(&change["kind"].as_str().unwrap()),
        "{change}"
    );

    // A folder as a zip.
    let zip = app
        .http
        .get(files_url(&app, &id, "files/archive?path=project"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(zip.status(), StatusCode::OK);
    assert!(zip.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("project.zip"));
    let bytes = zip.bytes().await.unwrap();
    assert!(bytes.starts_with(b"PK\x03\x04"), "not a zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let names: Vec<String> = archive.file_names().map(|n| n.unwrap().into_owned()).collect();
    let name = names
        .iter()
        .find(|n| n.ends_with("src/main.py"))
        .unwrap_or_else(|| panic!("src/main.py is in the zip: {names:?}"));
    let mut main = String::new();
    std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut main).unwrap();
    assert_eq!(main, "print('v2')\n");

    // Over the limit: refused up front when declared, mid-stream when not; nothing stays.
    let big = vec![b'x'; UPLOAD_LIMIT + 1];
    let declared = put(
        &app,
        &token,
        files_url(&app, &id, "files/upload?path=big.bin"),
        big.clone(),
    )
    .await;
    assert_eq!(
        json_of(declared, StatusCode::PAYLOAD_TOO_LARGE).await["error"]["code"],
        "payload_too_large"
    );
    let chunks = futures::stream::iter(
        big.chunks(4096)
            .map(|c| Ok::<_, std::io::Error>(c.to_vec()))
            .collect::<Vec<_>>(),
    );
    let streamed = put(
        &app,
        &token,
        files_url(&app, &id, "files/upload?path=big.bin"),
        reqwest::Body::wrap_stream(chunks),
    )
    .await;
    assert_eq!(
        json_of(streamed, StatusCode::PAYLOAD_TOO_LARGE).await["error"]["code"],
        "payload_too_large"
    );
    let gone = app
        .call(
            Method::GET,
            &format!("/api/v1/sessions/{id}/files/stat?path=big.bin"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        gone.status(),
        StatusCode::NOT_FOUND,
        "a refused upload left a file behind"
    );

    // Bad input and other people.
    let bad_name = app
        .http
        .post(files_url(&app, &id, "attachments?name=../../etc/passwd"))
        .bearer_auth(&token)
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_of(bad_name, StatusCode::UNPROCESSABLE_ENTITY).await["error"]["code"],
        "invalid"
    );
    let missing = app
        .expect(
            StatusCode::BAD_REQUEST,
            Method::PUT,
            &format!("/api/v1/sessions/{id}/files/upload"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(missing["error"]["code"], "malformed_request");
    let no_path = app
        .expect(
            StatusCode::BAD_REQUEST,
            Method::DELETE,
            &format!("/api/v1/sessions/{id}/files"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        no_path["error"]["code"], "malformed_request",
        "deleting needs a path"
    );
    for path in ["files", "files/download?path=uploads/notes.txt", "attachments"] {
        let other = app
            .expect(
                StatusCode::NOT_FOUND,
                Method::GET,
                &format!("/api/v1/sessions/{id}/{path}"),
                Some(&bob),
                None,
            )
            .await;
        assert_eq!(other["error"]["message"], "session not found");
    }
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        &format!("/api/v1/sessions/{id}/files"),
        None,
        None,
    )
    .await;

    // Delete a folder with what it holds.
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}/files?path=project"),
        Some(&token),
        None,
    )
    .await;
    let deleted = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            &format!("/api/v1/sessions/{id}/files/stat?path=project"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(deleted["error"]["code"], "not_found");
}

#[tokio::test]
async fn an_attachment_reaches_the_agent_in_the_sandbox() {
    let llm = FakeLlm::start(vec![
        Reply::tool("file_read", json!({ "path": "uploads/data.csv" })),
        Reply::Text("The file has two rows."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&manager, llm.settings()).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let uploaded = app
        .http
        .post(files_url(&app, &id, "attachments?name=data.csv"))
        .bearer_auth(&token)
        .body("name,score\nada,10\nbob,7\n")
        .send()
        .await
        .unwrap();
    let uploaded = json_of(uploaded, StatusCode::CREATED).await;
    let mut stream = app.events(&token, &id, None).await;
    let posted = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            &format!("/api/v1/sessions/{id}/messages"),
            Some(&token),
            Some(json!({ "content": "How many rows?", "attachments": [uploaded["path"]] })),
        )
        .await;
    assert_eq!(
        posted["event"]["attachments"][0],
        "/home/sandbox/workspace/uploads/data.csv"
    );
    let events = stream
        .until(Duration::from_secs(120), |e| {
            e["type"] == "status" && e["status"] != "running"
        })
        .await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:?}");

    // The model was told about the file, and its read of it gave the content.
    let requests = llm.requests();
    let first = requests[0]["messages"].to_string();
    assert!(
        first.contains("uploads/data.csv"),
        "the attachment is named to the model: {first}"
    );
    let second = requests[1]["messages"].as_array().unwrap();
    let result = second.last().unwrap();
    assert_eq!(result["role"], "tool");
    assert!(result["content"].as_str().unwrap().contains("ada,10"), "{result}");
}

#[tokio::test]
async fn without_a_sandbox_manager_the_file_browser_is_unavailable_not_broken() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let body = app
        .expect(
            StatusCode::SERVICE_UNAVAILABLE,
            Method::GET,
            &format!("/api/v1/sessions/{id}/files"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(body["error"]["code"], "unavailable");
    let unknown = app
        .expect(
            StatusCode::NOT_FOUND,
            Method::GET,
            "/api/v1/sessions/not-a-session/files",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(unknown["error"]["code"], "not_found");
}
