//! The event log over SSE: replay then live, exact resume with `Last-Event-ID` at random
//! points while events keep coming, resume across a restart, heartbeats, the live list
//! of sessions, a client too slow to keep up being cut off instead of buffered, and the
//! cap on the streams one person holds open.

use crate::support;

use std::time::Duration;

use futures::StreamExt;
use rand::Rng;
use reqwest::{Method, StatusCode};
use serde_json::json;
use support::TestApp;

#[tokio::test]
async fn a_stream_replays_the_log_then_follows_live() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    for i in 0..5 {
        app.post_message(&token, &id, &format!("before {i}")).await;
    }
    let mut stream = app.events(&token, &id, None).await;
    assert_eq!(stream.seqs(5).await, [1, 2, 3, 4, 5]);
    for i in 0..3 {
        app.post_message(&token, &id, &format!("after {i}")).await;
    }
    assert_eq!(stream.seqs(3).await, [6, 7, 8]);

    // `?after=` works like Last-Event-ID; the header wins over it.
    let response = app
        .http
        .get(format!("{}/api/v1/sessions/{id}/events?after=6", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let mut after = support::SseStream::from_response(response);
    assert_eq!(after.seqs(2).await, [7, 8]);
    let mut resumed = app.events(&token, &id, Some(3)).await;
    assert_eq!(resumed.seqs(5).await, [4, 5, 6, 7, 8]);
}

#[tokio::test]
async fn resuming_at_random_points_loses_and_repeats_nothing() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    const TOTAL: u64 = 150;
    let writer = {
        let (base, token, id) = (app.base.clone(), token.clone(), id.clone());
        tokio::spawn(async move {
            let http = reqwest::Client::new();
            for i in 0..TOTAL {
                let response = http
                    .post(format!("{base}/api/v1/sessions/{id}/messages"))
                    .bearer_auth(&token)
                    .json(&json!({ "content": format!("event {i}") }))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), StatusCode::CREATED);
                if i % 7 == 0 {
                    tokio::time::sleep(Duration::from_millis(3)).await;
                }
            }
        })
    };
    let mut seen = Vec::new();
    let mut reconnects = 0;
    while (seen.len() as u64) < TOTAL {
        let mut stream = app.events(&token, &id, seen.last().copied()).await;
        let take = rand::rng().random_range(1..=25).min(TOTAL as usize - seen.len());
        seen.extend(stream.seqs(take).await);
        reconnects += 1;
        // Dropped here, mid-stream.
    }
    writer.await.unwrap();
    assert_eq!(
        seen,
        (1..=TOTAL).collect::<Vec<_>>(),
        "after {reconnects} reconnects"
    );

    // And it is what the log holds.
    let share = app
        .expect(
            StatusCode::OK,
            Method::POST,
            &format!("/api/v1/sessions/{id}/share"),
            Some(&token),
            None,
        )
        .await;
    let log = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("/api/v1/shared/{}/events", share["share_token"].as_str().unwrap()),
            None,
            None,
        )
        .await;
    let contents: Vec<String> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"]["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        contents,
        (0..TOTAL).map(|i| format!("event {i}")).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn resume_works_across_a_restart_and_shutdown_ends_open_streams() {
    let mut first = TestApp::spawn(&[]).await;
    let (token, refresh, _) = first.register("ada@example.org").await;
    let id = first.new_session(&token).await;
    for i in 0..10 {
        first.post_message(&token, &id, &format!("m{i}")).await;
    }
    let mut stream = first.events(&token, &id, None).await;
    assert_eq!(stream.seqs(4).await, [1, 2, 3, 4]);
    let data = first.take_data().unwrap();
    let mut ended = tokio::spawn(async move {
        // Whatever was already sent, then the end: the shutdown closed the stream.
        let mut rest = Vec::new();
        while let Some(event) = stream.next().await {
            rest.push(event.id);
        }
        rest
    });
    first.stop().await;
    let rest = tokio::time::timeout(Duration::from_secs(5), &mut ended)
        .await
        .expect("the stream ended")
        .unwrap();
    assert!(rest.len() <= 6);

    let second = TestApp::spawn_on(data.path(), &[]).await;
    // Same secret, same store: the old access token still works.
    let mut resumed = second.events(&token, &id, Some(4)).await;
    assert_eq!(resumed.seqs(6).await, [5, 6, 7, 8, 9, 10]);
    second.post_message(&token, &id, "after the restart").await;
    assert_eq!(resumed.seqs(1).await, [11]);
    let refreshed = second.refresh(&refresh).await;
    assert_eq!(
        refreshed.status(),
        StatusCode::OK,
        "refresh tokens survive the restart"
    );
}

#[tokio::test]
async fn idle_streams_get_heartbeats() {
    let app = TestApp::spawn(&[("http.sse_heartbeat_secs", "1")]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let response = app
        .http
        .get(format!("{}/api/v1/sessions/{id}/events", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let mut body = response.bytes_stream();
    let chunk = tokio::time::timeout(Duration::from_millis(2500), body.next())
        .await
        .expect("something within 2.5 s")
        .unwrap()
        .unwrap();
    assert_eq!(&chunk[..], b": heartbeat\n\n");
}

#[tokio::test]
async fn the_session_list_follows_changes_live() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (other, _, _) = app.register("bob@example.org").await;
    let mut changes = app.session_changes(&token).await;
    app.new_session(&other).await; // not Ada's: not on her stream
    let id = app.new_session(&token).await;
    let created = changes.next().await.unwrap();
    assert_eq!(created.event, "updated");
    let session: serde_json::Value = serde_json::from_str(&created.data).unwrap();
    assert_eq!(session["id"], id.as_str());

    app.expect(
        StatusCode::OK,
        Method::PATCH,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        Some(json!({ "title": "Renamed" })),
    )
    .await;
    let renamed: serde_json::Value = serde_json::from_str(&changes.next().await.unwrap().data).unwrap();
    assert_eq!(renamed["title"], "Renamed");
    app.post_message(&token, &id, "hello").await;
    let messaged: serde_json::Value = serde_json::from_str(&changes.next().await.unwrap().data).unwrap();
    assert_eq!(messaged["last_message_preview"], "hello");
    app.expect(
        StatusCode::NO_CONTENT,
        Method::DELETE,
        &format!("/api/v1/sessions/{id}"),
        Some(&token),
        None,
    )
    .await;
    let deleted = changes.next().await.unwrap();
    assert_eq!(deleted.event, "deleted");
    assert_eq!(deleted.data, json!({ "id": id }).to_string());
}

#[tokio::test]
async fn a_client_that_stops_reading_is_cut_off_and_resumes_exactly() {
    let app = TestApp::spawn(&[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let mut stalled = app.events(&token, &id, None).await;
    // ~18 MB of large events fills the socket buffers of both ends, so the server stops
    // polling the stream; then more events than a subscriber may lag behind by.
    let big = "x".repeat(90 * 1024);
    for _ in 0..200 {
        app.post_message(&token, &id, &big).await;
    }
    let total = 200 + 1100;
    for i in 200..total {
        app.post_message(&token, &id, &format!("small {i}")).await;
    }
    let mut received = Vec::new();
    while let Some(event) = tokio::time::timeout(Duration::from_secs(10), stalled.next_or_end())
        .await
        .expect("the stream ends rather than hanging")
    {
        received.push(event.id.parse::<u64>().unwrap());
    }
    assert!(
        (received.len() as u64) < total,
        "the stalled client was dropped, not buffered for ({} events arrived)",
        received.len()
    );
    assert_eq!(received, (1..=received.len() as u64).collect::<Vec<_>>());
    let mut resumed = app.events(&token, &id, received.last().copied()).await;
    let rest = resumed.seqs((total - received.len() as u64) as usize).await;
    assert_eq!(rest, ((received.len() as u64 + 1)..=total).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_person_holds_at_most_the_cap_of_streams_and_closing_one_frees_a_slot() {
    // Heartbeats every second, so the server notices a closed connection soon.
    let app = TestApp::spawn(&[
        ("http.max_streams_per_person", "2"),
        ("http.sse_heartbeat_secs", "1"),
    ])
    .await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (other, _, _) = app.register("bob@example.org").await;
    let id = app.new_session(&token).await;
    let open = |token: String, path: String| {
        let request = app.http.get(format!("{}{path}", app.base)).bearer_auth(token);
        async move { request.send().await.unwrap() }
    };
    let events = format!("/api/v1/sessions/{id}/events");
    let first = open(token.clone(), events.clone()).await;
    let second = open(token.clone(), "/api/v1/sessions/stream".into()).await;
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let refused = open(token.clone(), events.clone()).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_open");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("close some tabs"));
    // Someone else is not affected.
    let theirs = open(other, "/api/v1/sessions/stream".into()).await;
    assert_eq!(theirs.status(), StatusCode::OK);
    // Closing one gives its slot back once the server sees the connection end.
    drop(first);
    let reopened = async {
        loop {
            let response = open(token.clone(), events.clone()).await;
            if response.status() == StatusCode::OK {
                return response;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), reopened)
        .await
        .expect("a closed stream's slot comes back within 5 s");
}
