//! MongoDB and Redis as the production deployment uses them: two replicas sharing both
//! (fan-out between them, gap-free numbering under concurrent appends from both, exact
//! resume when a client moves from one replica to the other, an API key's rate limit,
//! use and revocation, the tokens of jobs added to their key, an append whose insert the
//! driver retried after it had landed), and outages — a store that goes away makes requests fail with
//! 503 and a JSON body, and the backend recovers by itself when it returns, with nothing
//! stored lost, and a turn under way keeps every event it makes meanwhile.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::servers::ServerProcess;
use support::TestApp;

/// Two servers over the same MongoDB database and Redis prefix, with `overrides`.
async fn two_replicas(
    mongodb: &ServerProcess,
    redis: &ServerProcess,
    overrides: &[(&str, &str)],
) -> (TestApp, TestApp, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (uri, url) = (mongodb.mongodb_uri(), redis.redis_url());
    let mut settings = vec![("mongodb_uri", uri.as_str()), ("redis_url", url.as_str())];
    settings.extend_from_slice(overrides);
    let a = TestApp::spawn_on(dir.path(), &settings).await;
    let b = TestApp::spawn_on(dir.path(), &settings).await;
    (a, b, dir)
}

#[tokio::test]
async fn two_replicas_share_the_log_and_fan_events_out() {
    let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let (a, b, _dir) = two_replicas(&mongodb, &redis, &[]).await;
    let (token, _, _) = a.register("ada@example.org").await;
    let id = b.new_session(&token).await;
    let mut on_a = a.events(&token, &id, None).await;
    let mut list_on_a = a.session_changes(&token).await;

    // Appends through both replicas at once: every number handed out once, no gap.
    const EACH: usize = 40;
    let writers: Vec<_> = [&a, &b]
        .into_iter()
        .map(|app| {
            let (http, base, token, id) = (app.http.clone(), app.base.clone(), token.clone(), id.clone());
            tokio::spawn(async move {
                let mut seqs = Vec::new();
                for i in 0..EACH {
                    let response = http
                        .post(format!("{base}/api/v1/sessions/{id}/messages"))
                        .bearer_auth(&token)
                        .json(&json!({ "content": format!("from {base}: {i}") }))
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(response.status(), StatusCode::CREATED);
                    seqs.push(response.json::<Value>().await.unwrap()["seq"].as_u64().unwrap());
                }
                seqs
            })
        })
        .collect();
    let mut seqs = Vec::new();
    for writer in writers {
        seqs.extend(writer.await.unwrap());
    }
    seqs.sort_unstable();
    let total = (2 * EACH) as u64;
    assert_eq!(seqs, (1..=total).collect::<Vec<_>>());

    // A stream on A saw what B stored, in order; the log agrees; the summary counted all.
    assert_eq!(on_a.seqs(total as usize).await, (1..=total).collect::<Vec<_>>());
    let session = a
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/sessions/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(session["last_seq"], json!(total));
    let update = list_on_a.next().await.expect("a change on the list stream");
    assert_eq!(update.event, "updated");

    // A client that moves to the other replica resumes exactly.
    let mut on_b = b.events(&token, &id, Some(total - 10)).await;
    assert_eq!(on_b.seqs(10).await, ((total - 9)..=total).collect::<Vec<_>>());
    a.post_message(&token, &id, "one more").await;
    assert_eq!(on_b.seqs(1).await, [total + 1]);
}

#[tokio::test]
async fn an_api_keys_rate_limit_use_and_revocation_hold_across_replicas() {
    let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let limits = [
        ("api_keys.requests_per_minute", "4"),
        ("api_keys.usage_write_secs", "1"),
    ];
    let (a, b, _dir) = two_replicas(&mongodb, &redis, &limits).await;
    let (token, _, _) = a.register("ada@example.org").await;
    let made = a
        .expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/api-keys",
            Some(&token),
            Some(json!({ "name": "shared" })),
        )
        .await;
    let key = made["key"].as_str().unwrap();
    // The limit's windows are the clock's minutes: start in a minute with time left.
    let second = chrono::Utc::now().timestamp().rem_euclid(60) as u64;
    if second > 50 {
        tokio::time::sleep(Duration::from_secs(61 - second)).await;
    }
    // Three requests to A, two to B: each replica alone stays within the limit of 4,
    // counted together the fifth is one too many.
    let mut got = Vec::new();
    for app in [&a, &b, &a, &b, &a] {
        got.push(
            app.call(Method::GET, "/api/v1/auth/me", Some(key), None)
                .await
                .status(),
        );
    }
    assert_eq!(&got[..4], [StatusCode::OK; 4]);
    assert_eq!(got[4], StatusCode::TOO_MANY_REQUESTS);

    // Both replicas' counts add up in the one record.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let listed = b
            .expect(
                StatusCode::OK,
                Method::GET,
                "/api/v1/api-keys",
                Some(&token),
                None,
            )
            .await;
        if listed[0]["requests"] == 4 {
            break;
        }
        assert!(Instant::now() < deadline, "{listed}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Revoked through one replica, refused by the other at once.
    let path = format!("/api/v1/api-keys/{}", made["id"].as_str().unwrap());
    b.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&token), None)
        .await;
    let refused = a.call(Method::GET, "/api/v1/auth/me", Some(key), None).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}

/// Retries `path` until it answers `status` (the backend reconnecting by itself).
async fn until_status(app: &TestApp, path: &str, token: Option<&str>, status: StatusCode) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let response = app.call(Method::GET, path, token, None).await;
        let got = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if got == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "GET {path} still answers {got}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_mongodb_outage_gives_503_then_recovers_with_nothing_lost() {
    let (mut mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let (app, _b, _dir) = two_replicas(&mongodb, &redis, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    app.post_message(&token, &id, "stored before the outage").await;

    mongodb.kill();
    let started = Instant::now();
    let response = app
        .call(Method::GET, "/api/v1/sessions", Some(&token), None)
        .await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("MongoDB"),
        "{body}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the 503 came fast: {:?}",
        started.elapsed()
    );
    let message = json!({ "content": "sent during the outage" });
    let path = format!("/api/v1/sessions/{id}/messages");
    let refused = app.call(Method::POST, &path, Some(&token), Some(message)).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let ready = app.call(Method::GET, "/ready", None, None).await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);

    mongodb.restart();
    until_status(&app, "/ready", None, StatusCode::OK).await;
    let sessions = until_status(&app, "/api/v1/sessions", Some(&token), StatusCode::OK).await;
    assert_eq!(
        sessions["sessions"][0]["last_message_preview"], "stored before the outage",
        "{sessions}"
    );
    assert_eq!(app.post_message(&token, &id, "after the outage").await, 2);
}

#[tokio::test]
async fn a_redis_outage_gives_503_then_recovers_and_streams_resume() {
    let (mongodb, mut redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let (a, b, _dir) = two_replicas(&mongodb, &redis, &[]).await;
    let (token, _, _) = a.register("ada@example.org").await;
    let id = a.new_session(&token).await;
    a.post_message(&token, &id, "before").await;
    let mut stream = a.events(&token, &id, None).await;
    assert_eq!(stream.seqs(1).await, [1]);

    redis.kill();
    // Revocations live in Redis: without it no token can be checked, so authenticated
    // requests are refused (503), not waved through; signing in (rate-limited in Redis)
    // likewise.
    let refused = a.call(Method::GET, "/api/v1/sessions", Some(&token), None).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("Redis"),
        "{body}"
    );
    let login = json!({ "email": "ada@example.org", "password": support::PASSWORD });
    let refused = a
        .call(Method::POST, "/api/v1/auth/login", None, Some(login))
        .await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);

    redis.restart();
    until_status(&a, "/ready", None, StatusCode::OK).await;
    until_status(&b, "/api/v1/sessions", Some(&token), StatusCode::OK).await;
    // Messages published while A's subscription was down are lost to it, so when the
    // subscription is back A ends its open streams...
    let ended = tokio::time::timeout(Duration::from_secs(20), stream.next_or_end()).await;
    assert!(
        matches!(ended, Ok(None)),
        "the stream ends once the subscription is back"
    );
    // ...and the client's resume gives everything exactly once.
    b.post_message(&token, &id, "after").await;
    let mut resumed = a.events(&token, &id, Some(1)).await;
    b.post_message(&token, &id, "and live").await;
    assert_eq!(resumed.seqs(2).await, [2, 3]);
}

#[tokio::test]
async fn jobs_ending_on_either_replica_add_their_tokens_to_their_key() {
    let llm = FakeLlm::start(vec![Reply::Text("Done."), Reply::Text("Done too.")]).await;
    let (mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let settings = llm.settings();
    let overrides = support::borrowed(&settings);
    let (a, b, _dir) = two_replicas(&mongodb, &redis, &overrides).await;
    let (token, _, _) = a.register("ada@example.org").await;
    let key = a.jobs_key(&token).await;
    let key = key.as_str();
    // One job made on each replica; each is charged where it ends, and the two add up
    // (the scripted model reports 100 prompt and 20 completion tokens per request).
    for app in [&a, &b] {
        app.expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/jobs",
            Some(key),
            Some(json!({ "prompt": "hi" })),
        )
        .await;
    }
    b.until_key_tokens(&token, &json!({ "prompt_tokens": 200, "completion_tokens": 40 }))
        .await;
}

#[tokio::test]
async fn an_append_whose_retried_insert_finds_itself_stored_stores_its_event_once() {
    use backend_api::domain::event::{AgentEvent, MessageRole, StoredEvent};
    use backend_api::domain::ports::{AppendId, EventLog, SessionRepository};
    use backend_api::domain::session::{Session, Title};
    use backend_api::domain::user::UserId;
    use backend_api::infrastructure::mongo::MongoStore;
    use mongodb::bson::{doc, oid::ObjectId, to_document, Document};

    let mongodb = ServerProcess::mongodb();
    let uri = mongodb.mongodb_uri();
    let store = MongoStore::connect(&uri, "retried_append").await.unwrap();
    let now = chrono::Utc::now();
    let session = Session::new(UserId::new(), Title::parse("New chat").unwrap(), None, None, now);
    store.insert(&session).await.unwrap();
    let message = |content: &str| AgentEvent::Message {
        role: MessageRole::User,
        content: content.into(),
        attachments: Vec::new(),
    };
    store
        .append(&session.id, message("first"), now, AppendId::new())
        .await
        .unwrap();

    // The driver's first attempt of the next append landed, its answer was lost, and
    // the server did not recognise the retry: the insert meets its own document.
    let write_id = ObjectId::new();
    let landed = StoredEvent {
        session_id: session.id.clone(),
        seq: 2,
        at: now,
        event: message("second"),
    };
    let mut record = to_document(&landed).unwrap();
    record.insert("_id", write_id);
    let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
    let events = client.database("retried_append").collection::<Document>("events");
    events.insert_one(record).await.unwrap();

    let (stored, summary) = store
        .append_as(&session.id, message("second"), now, write_id)
        .await
        .unwrap();
    assert_eq!(stored, landed);
    assert_eq!(summary.last_seq, 2);
    let log = store.read_after(&session.id, 0, 10).await.unwrap();
    let contents: Vec<_> = log
        .iter()
        .map(|e| match &e.event {
            AgentEvent::Message { content, .. } => (e.seq, content.as_str()),
            other => panic!("not a message: {other:?}"),
        })
        .collect();
    assert_eq!(contents, [(1, "first"), (2, "second")]);
    let stored_count = events
        .count_documents(doc! { "session_id": session.id.as_str() })
        .await
        .unwrap();
    assert_eq!(stored_count, 2);
}

#[tokio::test]
async fn a_turn_through_a_mongodb_outage_leaves_no_hole_in_its_log() {
    let answer = Arc::new(tokio::sync::Notify::new());
    let llm = FakeLlm::start(vec![Reply::Gated(
        answer.clone(),
        Box::new(Reply::Text("Answered through the outage.")),
    )])
    .await;
    let (mut mongodb, redis) = (ServerProcess::mongodb(), ServerProcess::redis());
    let settings = llm.settings();
    let (app, _b, _dir) = two_replicas(&mongodb, &redis, &support::borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    app.post_message(&token, &id, "A question").await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while llm.requests().is_empty() {
        assert!(Instant::now() < deadline, "the model was never asked");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The model answers while the store is down: every event the turn makes from here on
    // meets the outage (the store's server selection gives up after 3 s).
    mongodb.kill();
    answer.notify_one();
    tokio::time::sleep(Duration::from_secs(5)).await;
    mongodb.restart();

    let mut stream = app.events(&token, &id, None).await;
    let events = stream
        .until(Duration::from_secs(60), |event| {
            event["type"] == "status" && event["status"] == "completed"
        })
        .await;
    let said: Vec<&Value> = events.iter().filter(|e| e["type"] == "message").collect();
    assert_eq!(said.len(), 2, "{events:?}");
    assert_eq!(said[1]["content"], "Answered through the outage.");
    let session = app.session(&token, &id).await;
    assert_eq!(session["last_seq"], json!(events.len()), "{events:?}");
}
