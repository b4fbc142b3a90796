//! The files sent with jobs, on either store: a queued job's record holds their names
//! and sizes only while the files wait in the store apart from it (read from the store
//! itself), they reach the workspace byte for byte also across a restart, and leave the
//! store once written or once the job is cancelled; the queued jobs' files together are
//! capped (429 with `Retry-After`, nothing made); and a refused creation is answered to a
//! client that writes its whole body before it reads.

use std::path::Path;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, shared_stores, store_name, TestApp};

const JOBS: &str = "/api/v1/jobs";

/// What the store holds for a job: the size of its record as stored, and the bytes of
/// its files waiting apart from it. The embedded store is read with its server stopped.
async fn stored(data_dir: &Path, job: &str) -> (usize, usize) {
    match shared_stores() {
        None => {
            use redb::{ReadableDatabase, ReadableTable, TableDefinition};
            let jobs: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");
            let files: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("job_attachments");
            // The stopped server's last tasks (a job's follower) may still hold the file
            // a moment: redb refuses a second open in one process until they let go.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            let db = loop {
                match redb::Database::open(data_dir.join("sandpiper.redb")) {
                    Err(redb::DatabaseError::DatabaseAlreadyOpen) if std::time::Instant::now() < deadline => {
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    }
                    opened => break opened.unwrap(),
                }
            };
            let txn = db.begin_read().unwrap();
            let record = txn
                .open_table(jobs)
                .unwrap()
                .get(job)
                .unwrap()
                .unwrap()
                .value()
                .len();
            let mut waiting = 0;
            for entry in txn.open_table(files).unwrap().iter().unwrap() {
                let (key, value) = entry.unwrap();
                if key.value().0 == job {
                    waiting += value.value().len();
                }
            }
            (record, waiting)
        }
        Some((uri, _)) => {
            use futures::TryStreamExt;
            use mongodb::bson::{doc, Document};
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            let db = client.database(&store_name(data_dir));
            let record = db
                .collection::<Document>("jobs")
                .find_one(doc! { "id": job })
                .await
                .unwrap()
                .unwrap();
            let pieces: Vec<Document> = db
                .collection::<Document>("job_attachments")
                .find(doc! { "job_id": job })
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            let waiting = pieces
                .iter()
                .map(|piece| piece.get_binary_generic("bytes").unwrap().len())
                .sum();
            (mongodb::bson::to_vec(&record).unwrap().len(), waiting)
        }
    }
}

fn attachment(name: &str, content: &[u8]) -> Value {
    json!([{ "name": name, "content_base64": BASE64.encode(content) }])
}

#[tokio::test]
async fn a_queued_jobs_file_waits_apart_from_its_record_and_reaches_the_workspace_after_a_restart() {
    // 9 MiB and a byte: more than one piece of a MongoDB document.
    let content: Vec<u8> = (0..9 * 1024 * 1024 + 1).map(|i: u32| (i % 251) as u8).collect();
    let digest: String = Sha256::digest(&content)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("first done"),
        Reply::tool("shell_exec", json!({ "command": "sha256sum uploads/data.bin" })),
        Reply::Text("hashed"),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.push(("jobs.max_running_per_person", "1".to_owned()));
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    let first = first["id"].as_str().unwrap().to_owned();
    app.until_job(&key, &first, "waiting").await;
    let second = app
        .create_job(
            &key,
            json!({ "prompt": "Hash it", "attachments": attachment("data.bin", &content) }),
        )
        .await;
    assert_eq!(second["status"], "queued");
    let second = second["id"].as_str().unwrap().to_owned();

    let data = app.take_data().unwrap();
    app.stop().await;
    let (record, waiting) = stored(data.path(), &second).await;
    assert!(record < 4096, "the queued job's record is {record} bytes");
    assert_eq!(waiting, content.len(), "the file waits whole in the store");

    let mut app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &format!("{JOBS}/{first}/reply"),
        Some(&key),
        Some(json!({ "content": "yes" })),
    )
    .await;
    let done = app.until_job(&key, &second, "succeeded").await;
    assert_eq!(done["answer"], "hashed");
    assert!(llm.last_message_text(2).contains("uploads/data.bin"));
    let hashed = llm.last_message_text(3);
    assert!(hashed.contains(&digest), "{hashed} does not hold {digest}");

    app.stop().await;
    assert_eq!(
        stored(data.path(), &second).await.1,
        0,
        "a written file leaves the store"
    );
}

#[tokio::test]
async fn queued_jobs_files_are_capped_together_and_a_cancel_frees_their_room() {
    let llm = FakeLlm::start(vec![
        Reply::tool("message_ask_user", json!({ "question": "Sure?" })),
        Reply::Text("bob's"),
    ])
    .await;
    let mut settings = llm.settings();
    settings.push(("jobs.max_running_per_person", "1".to_owned()));
    settings.push(("jobs.max_queued_attachment_bytes", (1024 * 1024).to_string()));
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    app.until_job(&key, first["id"].as_str().unwrap(), "waiting")
        .await;
    let file = vec![1u8; 700 * 1024];
    let second = app
        .create_job(
            &key,
            json!({ "prompt": "two", "attachments": attachment("a.bin", &file) }),
        )
        .await;
    assert_eq!(second["status"], "queued");
    let second = second["id"].as_str().unwrap().to_owned();

    // Another person's files count too: the cap is the deployment's.
    let (bob_token, _, _) = app.register("bob@example.org").await;
    let bob = app.jobs_key(&bob_token).await;
    let refused = app
        .call(
            Method::POST,
            JOBS,
            Some(&bob),
            Some(json!({ "prompt": "three", "attachments": attachment("b.bin", &file) })),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "30");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("the most this server keeps is 1 MiB"),
        "{message}"
    );
    let sessions = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/sessions",
            Some(&bob_token),
            None,
        )
        .await;
    assert_eq!(sessions["sessions"], json!([]), "nothing was made");
    // A job without files takes no room.
    app.create_job(&bob, json!({ "prompt": "no files" })).await;

    // Cancelled, the queued job's file leaves the store and its room is free again.
    app.expect(
        StatusCode::OK,
        Method::POST,
        &format!("{JOBS}/{second}/cancel"),
        Some(&key),
        None,
    )
    .await;
    let made = app
        .create_job(
            &key,
            json!({ "prompt": "four", "attachments": attachment("c.bin", &file) }),
        )
        .await;
    assert_eq!(made["status"], "queued");
    let data = app.take_data().unwrap();
    app.stop().await;
    assert_eq!(
        stored(data.path(), &second).await.1,
        0,
        "a cancelled job's file leaves the store"
    );
}

/// A refused creation (full queue) answered to a client that writes its whole body before
/// it reads, as Python's `http.client` does: it reads the `429`, not a connection cut
/// under it; one that asks `Expect: 100-continue` gets the `429` without sending.
#[tokio::test]
async fn a_refused_creation_is_answered_to_a_client_that_sends_its_whole_body_first() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let llm = FakeLlm::start(vec![Reply::tool(
        "message_ask_user",
        json!({ "question": "Sure?" }),
    )])
    .await;
    let mut settings = llm.settings();
    settings.push(("jobs.max_running_per_person", "1".to_owned()));
    settings.push(("jobs.max_queued_per_person", "1".to_owned()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let key = app.jobs_key(&token).await;
    let first = app.create_job(&key, json!({ "prompt": "one" })).await;
    app.until_job(&key, first["id"].as_str().unwrap(), "waiting")
        .await;
    app.create_job(&key, json!({ "prompt": "two" })).await;

    // 9 MiB of files: far more than the socket buffers hold, so the body is only ever
    // written whole if the server reads it.
    let body =
        json!({ "prompt": "three", "attachments": attachment("a.bin", &vec![7u8; 9 << 20]) }).to_string();
    let address = app.base.trim_start_matches("http://").to_owned();
    let send = |expect: bool| {
        let (address, key, body) = (address.clone(), key.clone(), body.clone());
        async move {
            let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
            let expect = if expect { "Expect: 100-continue\r\n" } else { "" };
            let head = format!(
                "POST {JOBS} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {key}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n{expect}\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes()).await.unwrap();
            if expect.is_empty() {
                stream
                    .write_all(body.as_bytes())
                    .await
                    .expect("the whole body is taken");
            }
            let mut answer = Vec::new();
            let mut buffer = [0u8; 4096];
            while !String::from_utf8_lossy(&answer).contains("}}") {
                match stream.read(&mut buffer).await.expect("the answer is read") {
                    0 => break,
                    n => answer.extend_from_slice(&buffer[..n]),
                }
            }
            String::from_utf8_lossy(&answer).into_owned()
        }
    };
    for expect in [false, true] {
        let answer = send(expect).await;
        assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
        assert!(answer.contains("your job queue is full"), "{answer}");
    }
}
