//! What a job is given: its attachments in its workspace, and bad input refused.

use super::*;

#[tokio::test]
async fn a_jobs_attachments_are_in_its_workspace_and_named_with_its_prompt() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": "cat uploads/sales.csv" })),
        Reply::Text("Two rows."),
    ])
    .await;
    let manager = Manager::start();
    let app = backend(&llm, &manager.settings()).await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let csv = "region,total\nnorth,12\nsouth,30\n";
    let created = app
        .create_job(
            &key,
            json!({
                "prompt": "Sum the totals",
                "attachments": [{ "name": "sales.csv", "content_base64": BASE64.encode(csv) }],
            }),
        )
        .await;
    let done = app
        .until_job(&key, created["id"].as_str().unwrap(), "succeeded")
        .await;
    assert_eq!(done["answer"], "Two rows.");
    assert!(
        llm.last_message_text(0).contains("uploads/sales.csv"),
        "the prompt does not name the file: {}",
        llm.last_message_text(0)
    );
    let read = llm.last_message_text(1);
    assert!(read.contains("north,12") && read.contains("south,30"), "{read}");
    assert_eq!(
        done["files"],
        json!([]),
        "the attachment is the job's, not the run's"
    );
}

#[tokio::test]
async fn bad_input_is_refused() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(
        &llm,
        &[
            ("jobs.max_timeout_secs", "600".to_owned()),
            ("jobs.max_attachment_bytes", "1024".to_owned()),
        ],
    )
    .await;
    let (key, _) = jobs_key(&app, "ada@example.org").await;
    let (other, _) = jobs_key(&app, "bob@example.org").await;
    let refused = |body: Value, status: StatusCode| {
        let (app, key) = (&app, &key);
        async move {
            app.expect(status, Method::POST, JOBS, Some(key), Some(body))
                .await
        }
    };
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    refused(
        json!({ "prompt": "x".repeat(100 * 1024 + 1) }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    refused(json!({ "prompt": "  " }), unprocessable).await;
    refused(json!({ "prompt": "hi", "timeout_secs": 5 }), unprocessable).await;
    let too_long = refused(json!({ "prompt": "hi", "timeout_secs": 601 }), unprocessable).await;
    assert_eq!(too_long["error"]["field"], "timeout_secs", "{too_long}");
    let network = refused(json!({ "prompt": "hi", "network": "lan" }), unprocessable).await;
    assert_eq!(network["error"]["field"], "network", "{network}");
    let model = refused(json!({ "prompt": "hi", "model": "gpt-nope" }), unprocessable).await;
    assert_eq!(model["error"]["field"], "model", "{model}");
    assert!(
        model["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no model is named `gpt-nope`; GET /api/v1/models lists them (scripted)"),
        "{model}"
    );
    app.create_job(&key, json!({ "prompt": "hi", "model": "scripted" }))
        .await;
    let file = |name: &str, content: &str| json!({ "name": name, "content_base64": content });
    for attachments in [
        json!([file("../etc/passwd", "YQ==")]),
        json!([file("a/b.csv", "YQ==")]),
        json!([file("a.csv", "not base64!")]),
        json!([file("a.csv", "YQ=="), file("a.csv", "YQ==")]),
        json!((0..21)
            .map(|n| file(&format!("{n}.txt"), "YQ=="))
            .collect::<Vec<_>>()),
    ] {
        let bad = refused(
            json!({ "prompt": "hi", "attachments": attachments }),
            unprocessable,
        )
        .await;
        assert_eq!(bad["error"]["field"], "attachments", "{bad}");
    }
    // Over the total (1 KiB here) when decoded, in one file or together.
    let big = BASE64.encode([0u8; 600]);
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &BASE64.encode([0u8; 1025]))] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &big), file("b", &big)] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    // A body past what the attachments could need is cut off before it is read whole.
    refused(
        json!({ "prompt": "hi", "attachments": [file("a", &"A".repeat(200 * 1024))] }),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    // Just under the total is fine.
    app.create_job(
        &key,
        json!({ "prompt": "hi", "attachments": [file("a", &BASE64.encode([0u8; 1024]))] }),
    )
    .await;
    // The body is read by the route itself, which still asks for JSON.
    let form = app
        .http
        .post(format!("{}{JOBS}", app.base))
        .bearer_auth(&key)
        .header("content-type", "text/plain")
        .body(r#"{"prompt": "hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), StatusCode::BAD_REQUEST);
    let form: Value = form.json().await.unwrap();
    assert_eq!(form["error"]["code"], "malformed_request", "{form}");
    app.expect(
        unprocessable,
        Method::GET,
        &format!("{JOBS}?status=done"),
        Some(&key),
        None,
    )
    .await;

    // Unknown, malformed and someone else's jobs are all simply not found.
    let mine = app.create_job(&key, json!({ "prompt": "hi" })).await;
    let mine = mine["id"].as_str().unwrap();
    for path in [
        format!("{JOBS}/{}", uuid::Uuid::now_v7()),
        format!("{JOBS}/nonsense"),
    ] {
        app.expect(StatusCode::NOT_FOUND, Method::GET, &path, Some(&key), None)
            .await;
    }
    for (method, path) in [
        (Method::GET, format!("{JOBS}/{mine}")),
        (Method::POST, format!("{JOBS}/{mine}/cancel")),
        (Method::GET, format!("{JOBS}/{mine}/result")),
        (Method::GET, format!("{JOBS}/{mine}/events")),
    ] {
        app.expect(StatusCode::NOT_FOUND, method, &path, Some(&other), None)
            .await;
    }
    let listed = app
        .expect(StatusCode::OK, Method::GET, JOBS, Some(&other), None)
        .await;
    assert_eq!(listed["jobs"], json!([]));
}
