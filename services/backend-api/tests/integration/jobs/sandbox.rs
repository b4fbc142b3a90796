//! Jobs in real sandboxes: one that writes a file (its answer, files and zip), and every
//! sandbox of an offline job offline.

use super::*;

#[tokio::test]
async fn a_job_writes_a_file_in_a_sandbox_and_its_result_holds_it() {
    let llm = FakeLlm::start(vec![
        Reply::tool(
            "file_write",
            json!({ "path": "fib.py", "content": "print([0, 1, 1, 2, 3, 5])\n" }),
        ),
        // Files made by a command count too; hidden ones (caches, tool state) do not.
        Reply::tool(
            "shell_exec",
            json!({ "command": "mkdir -p out .cache && python3 fib.py > out/fib.txt && touch .cache/junk" }),
        ),
        Reply::Text("Wrote fib.py."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;

    let created = app
        .create_job(
            &key,
            json!({ "prompt": "Write fib.py", "title": "Fibonacci", "network": "offline" }),
        )
        .await;
    assert!(
        ["queued", "running"].contains(&created["status"].as_str().unwrap()),
        "{created}"
    );
    let id = created["id"].as_str().unwrap();
    let done = app.until_job(&key, id, "succeeded").await;
    assert_eq!(done["answer"], "Wrote fib.py.");
    assert_eq!(done["files"], json!(["fib.py", "out/fib.txt"]), "{done}");
    assert_eq!(done["files_truncated"], false);
    assert_eq!(done["network"], "offline");
    // The scripted model reports 100 prompt and 20 completion tokens per request; the
    // job's three requests are added to the key it was made with.
    assert_eq!(
        done["usage"],
        json!({ "prompt_tokens": 300, "completion_tokens": 60 }),
        "{done}"
    );
    app.until_key_tokens(&token, &done["usage"]).await;
    assert!(
        done["started_at"].is_string() && done["finished_at"].is_string(),
        "{done}"
    );
    assert!(done["error"].is_null());
    // Its sandbox was made with the network the job asked for (the manager's default is
    // the internet).
    let query = ListQuery {
        session_id: created["session_id"].as_str().map(str::to_owned),
        ..Default::default()
    };
    let sandboxes = manager.client().list(&query).await.unwrap();
    assert_eq!(sandboxes[0].network, NetworkMode::Offline);

    // The job is a session in the person's list.
    let sessions = app
        .expect(
            StatusCode::OK,
            Method::GET,
            "/api/v1/sessions",
            Some(&token),
            None,
        )
        .await;
    let session = &sessions["sessions"][0];
    assert_eq!(session["id"], created["session_id"]);
    assert_eq!(session["title"], "Fibonacci");

    // The workspace as a zip, with the file.
    let zip = app
        .call(Method::GET, &format!("{JOBS}/{id}/result"), Some(&key), None)
        .await;
    assert_eq!(zip.status(), StatusCode::OK);
    let bytes = zip.bytes().await.unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let names: Vec<String> = archive.file_names().map(|n| n.unwrap().into_owned()).collect();
    let name = names
        .iter()
        .find(|n| n.ends_with("fib.py"))
        .unwrap_or_else(|| panic!("fib.py is in the zip: {names:?}"));
    let mut script = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut script)
        .unwrap();
    assert_eq!(script, "print([0, 1, 1, 2, 3, 5])\n");

    // The events are the session's, replayed from the start.
    let mut events = app
        .call(Method::GET, &format!("{JOBS}/{id}/events"), Some(&key), None)
        .await;
    assert_eq!(events.status(), StatusCode::OK);
    let first = events.chunk().await.unwrap().unwrap();
    let first = String::from_utf8_lossy(&first);
    assert!(first.contains("Write fib.py"), "{first}");

    // The key is for jobs only.
    let sessions = app.call(Method::GET, "/api/v1/sessions", Some(&key), None).await;
    assert_eq!(sessions.status(), StatusCode::FORBIDDEN);
}

/// An offline job's network holds for every sandbox its session ever gets: each time the
/// manager removes it (as its idle time limit does), the one a file request, the result
/// zip or the agent's next tool call makes is offline too (the manager's default is the
/// internet).
#[tokio::test]
async fn every_sandbox_of_an_offline_job_is_offline() {
    let llm = FakeLlm::start(vec![
        Reply::tool("file_write", json!({ "path": "a.txt", "content": "a\n" })),
        Reply::Text("Wrote a.txt."),
        Reply::tool("shell_exec", json!({ "command": "echo again > b.txt" })),
        Reply::Text("Wrote b.txt."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, token) = jobs_key(&app, "ada@example.org").await;
    let created = app
        .create_job(&key, json!({ "prompt": "Write a.txt", "network": "offline" }))
        .await;
    let id = created["id"].as_str().unwrap();
    let session = created["session_id"].as_str().unwrap();
    app.until_job(&key, id, "succeeded").await;
    assert_eq!(manager.network_label_of(session), "offline");

    // A file request.
    manager.remove_sandbox_of(session).await;
    app.expect(
        StatusCode::OK,
        Method::GET,
        &format!("/api/v1/sessions/{session}/files?path=."),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(manager.network_label_of(session), "offline");

    // The job's result.
    manager.remove_sandbox_of(session).await;
    let zip = app
        .call(Method::GET, &format!("{JOBS}/{id}/result"), Some(&key), None)
        .await;
    assert_eq!(zip.status(), StatusCode::OK);
    assert_eq!(manager.network_label_of(session), "offline");

    // The agent's next tool call, in a turn the person asks for in the job's session.
    manager.remove_sandbox_of(session).await;
    let events = app.turn(&token, session, "Write b.txt").await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    assert_eq!(manager.network_label_of(session), "offline");
}
