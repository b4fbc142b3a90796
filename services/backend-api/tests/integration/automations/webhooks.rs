//! Webhook triggers: a signed delivery runs once, however it is sent again; bad deliveries
//! (unsigned, wrongly signed, signed too long ago or ahead, filtered out, too large) run
//! nothing; a rotated secret is taken for its grace only; their URLs are absolute under
//! the deployment's public URL when it has one.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, deliver, runs, AUTOMATIONS};
use crate::support::fake_llm::FakeLlm;
use crate::support::signatures::{github_signed, signed_at, signed_now};

const SIGNATURE: &str = "X-Sandpiper-Signature";

#[tokio::test]
async fn a_signed_webhook_runs_once_and_bad_deliveries_run_nothing() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[("automations.max_webhook_bytes", "2048".into())]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = create(
        &app,
        &token,
        json!({ "name": "PR review", "prompt": "Review {{ body.repository.name }}",
                "triggers": [{ "type": "webhook", "filter": "body.action == \"opened\"" }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let trigger = &created["triggers"][0];
    let (url, secret) = (
        trigger["url"].as_str().unwrap(),
        trigger["secret"].as_str().unwrap(),
    );
    assert!(url.starts_with("/api/v1/hooks/"), "{trigger}");
    // The secret is shown once.
    let again = app
        .expect(
            StatusCode::OK,
            Method::GET,
            &format!("{AUTOMATIONS}/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(again["triggers"][0]["secret"], Value::Null);

    let body = br#"{"action":"opened","repository":{"name":"sandpiper"}}"#;
    let now = chrono::Utc::now().timestamp();
    for (headers, says) in [
        (vec![], "not signed"),
        (
            vec![(SIGNATURE, signed_now("not-the-secret", body))],
            "not signed with this webhook's secret",
        ),
        (
            vec![("X-Hub-Signature-256", github_signed("not-the-secret", body))],
            "not signed with",
        ),
        // The body's signature alone, in Sandpiper's header: no time, so refused.
        (vec![(SIGNATURE, github_signed(secret, body))], "t=<unix seconds>"),
        // Captured and sent again later, or signed ahead: outside the 5 minutes.
        (
            vec![(SIGNATURE, signed_at(secret, now - 301, body))],
            "from this server's clock",
        ),
        (
            vec![(SIGNATURE, signed_at(secret, now + 301, body))],
            "from this server's clock",
        ),
        // A signature with its time moved: the time is signed too.
        (
            vec![(
                SIGNATURE,
                signed_at(secret, now - 400, body).replace(&format!("t={}", now - 400), &format!("t={now}")),
            )],
            "not signed with",
        ),
    ] {
        let (status, answer) = deliver(&app, url, body, &headers).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{says:?} in {answer}");
    }
    // Signed right, but another body than the one signed.
    let signature = signed_now(secret, body);
    let (status, _) = deliver(&app, url, b"{}", &[(SIGNATURE, signature.clone())]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let big = vec![b' '; 4096];
    let (status, _) = deliver(&app, url, &big, &[(SIGNATURE, signed_now(secret, &big))]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let closed = br#"{"action":"closed","repository":{"name":"sandpiper"}}"#;
    let (status, answer) = deliver(
        &app,
        url,
        closed,
        &[("X-Hub-Signature-256", github_signed(secret, closed))],
    )
    .await;
    assert_eq!(
        (status, answer["job_id"].clone()),
        (StatusCode::OK, Value::Null),
        "{answer}"
    );
    assert!(runs(&app, &token, id).await.is_empty(), "nothing ran so far");

    let headers = [
        (SIGNATURE, signature.clone()),
        ("Idempotency-Key", "delivery-1".to_owned()),
    ];
    let (status, first) = deliver(&app, url, body, &headers).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    let job = first["job_id"].as_str().unwrap();
    // Sent again as it was, with another Idempotency-Key, or with none: the signature
    // names the delivery, so it runs no more.
    for again in [
        headers.to_vec(),
        vec![
            (SIGNATURE, signature.clone()),
            ("Idempotency-Key", "another".to_owned()),
        ],
        vec![(SIGNATURE, signature.clone())],
    ] {
        let (status, replay) = deliver(&app, url, body, &again).await;
        assert_eq!(status, StatusCode::OK, "{replay}");
        assert_eq!(
            (replay["job_id"].as_str(), replay["repeated"].as_bool()),
            (Some(job), Some(true))
        );
    }
    // Signed again later by the sender, with the same Idempotency-Key: the key holds.
    let resigned = [
        (SIGNATURE, signed_at(secret, now - 5, body)),
        ("Idempotency-Key", "delivery-1".to_owned()),
    ];
    let (status, replay) = deliver(&app, url, body, &resigned).await;
    assert_eq!(
        (status, replay["job_id"].as_str()),
        (StatusCode::OK, Some(job)),
        "{replay}"
    );
    app.until_job(&token, job, "succeeded").await;
    let history = runs(&app, &token, id).await;
    assert_eq!(history.len(), 1, "{history:#?}");
    assert_eq!(history[0]["trigger"], "webhook");
    let asked = llm
        .requests()
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    // The delivery's value reached the model marked as anyone's text.
    assert!(asked.contains(r#"Review <untrusted-output id=\""#), "{asked}");
    assert!(
        asked.contains(r#"\nsandpiper\n</untrusted-output id=\""#),
        "{asked}"
    );

    // A rotated secret: the new one is taken, and the old one still, for the grace.
    let rotate = format!(
        "{AUTOMATIONS}/{id}/triggers/{}/rotate",
        trigger["id"].as_str().unwrap()
    );
    let rotated = app
        .expect(StatusCode::OK, Method::POST, &rotate, Some(&token), None)
        .await;
    let until =
        chrono::DateTime::parse_from_rfc3339(rotated["previous_valid_until"].as_str().unwrap()).unwrap();
    let grace = until.timestamp() - chrono::Utc::now().timestamp();
    assert!(
        (86_300..=86_400).contains(&grace),
        "a day's grace by default: {rotated}"
    );
    let old = signed_at(secret, now - 1, body);
    let (status, answer) = deliver(&app, url, body, &[(SIGNATURE, old)]).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    let fresh = signed_at(rotated["secret"].as_str().unwrap(), now - 2, body);
    let (status, _) = deliver(&app, url, body, &[(SIGNATURE, fresh)]).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    // A trigger's key expression names a delivery sent without the header.
    let keyed = create(
        &app,
        &token,
        json!({ "name": "Keyed", "prompt": "Once per id",
                "triggers": [{ "type": "webhook", "key": "body.id" }] }),
    )
    .await;
    let (url, secret) = (
        keyed["triggers"][0]["url"].as_str().unwrap(),
        keyed["triggers"][0]["secret"].as_str().unwrap(),
    );
    let delivery = br#"{"id":"d-7"}"#;
    let signed_delivery = [("X-Hub-Signature-256", github_signed(secret, delivery))];
    let (status, first) = deliver(&app, url, delivery, &signed_delivery).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    let (status, again) = deliver(&app, url, delivery, &signed_delivery).await;
    assert_eq!(
        (status, again["job_id"].clone()),
        (StatusCode::OK, first["job_id"].clone()),
        "{again}"
    );
    assert_eq!(runs(&app, &token, keyed["id"].as_str().unwrap()).await.len(), 1);
    // An unknown hook is simply not found.
    let (status, _) = deliver(
        &app,
        "/api/v1/hooks/7b0c5c4e-8a39-4d5e-9d7e-3d2f1a0b9c8d",
        body,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// An automation of the person `token` signs in with, with one webhook trigger.
async fn hook(app: &crate::support::TestApp, token: &str) -> Value {
    let only_a_webhook = json!({ "name": "Hook", "prompt": "Hook", "triggers": [{ "type": "webhook" }] });
    create(app, token, only_a_webhook).await
}

#[tokio::test]
async fn webhook_urls_are_absolute_under_the_deployments_public_url() {
    let llm = FakeLlm::start(vec![]).await;
    let public = "https://sandpiper.example.org";
    let app = backend(
        &llm,
        &[
            ("public_url", format!("{public}/")),
            ("automations.rotation_grace_secs", "0".into()),
        ],
    )
    .await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = hook(&app, &token).await;
    let trigger = &created["triggers"][0];
    let id = trigger["id"].as_str().unwrap();
    let url = trigger["url"].as_str().unwrap();
    assert_eq!(url, format!("{public}/api/v1/hooks/{id}"));
    let rotate = format!(
        "{AUTOMATIONS}/{}/triggers/{id}/rotate",
        created["id"].as_str().unwrap()
    );
    let rotated = app
        .expect(StatusCode::OK, Method::POST, &rotate, Some(&token), None)
        .await;
    assert_eq!(rotated["url"], url);
    // Its path is this API's: a delivery signed with the new secret runs; with no grace
    // set, the old secret is refused at once.
    let body = b"{}";
    let path = url.strip_prefix(public).unwrap();
    let old = signed_now(trigger["secret"].as_str().unwrap(), body);
    let (status, answer) = deliver(&app, path, body, &[(SIGNATURE, old)]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{answer}");
    let signature = signed_now(rotated["secret"].as_str().unwrap(), body);
    let (status, answer) = deliver(&app, path, body, &[(SIGNATURE, signature)]).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
}

/// Deliveries take turns before their bodies are read: one whose body is still coming
/// holds the only turn (the server asked for its body with `100 Continue` once it had
/// it), the next is `503` with `Retry-After` at once, unread; when the first is done,
/// the next is read again.
#[tokio::test]
async fn a_flood_of_deliveries_waits_its_turn_before_its_bodies_are_read() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let llm = FakeLlm::start(vec![]).await;
    let app = backend(
        &llm,
        &[
            ("automations.webhooks_at_once", "1".into()),
            ("automations.webhooks_queue", "0".into()),
        ],
    )
    .await;
    let (token, _, _) = app.register("ada@example.org").await;
    let created = hook(&app, &token).await;
    let url = created["triggers"][0]["url"].as_str().unwrap().to_owned();

    let address = app.base.trim_start_matches("http://").to_owned();
    let mut held = BufReader::new(tokio::net::TcpStream::connect(&address).await.unwrap());
    let head = format!(
        "POST {url} HTTP/1.1\r\nHost: {address}\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
    );
    held.get_mut().write_all(head.as_bytes()).await.unwrap();
    let mut line = String::new();
    held.read_line(&mut line).await.unwrap();
    assert!(line.starts_with("HTTP/1.1 100"), "{line:?}");

    let response = app
        .http
        .post(format!("{}{url}", app.base))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(response.headers().contains_key("retry-after"));
    let refused: Value = response.json().await.unwrap();
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("webhook deliveries"), "{refused}");

    // The held one's body comes (unsigned: 401), and its turn is free again.
    held.get_mut().write_all(b"{}").await.unwrap();
    let mut status = String::new();
    while !status.starts_with("HTTP/1.1 4") {
        status.clear();
        held.read_line(&mut status).await.unwrap();
    }
    assert!(status.starts_with("HTTP/1.1 401"), "{status:?}");
    drop(held);
    let (status, answer) = deliver(&app, &url, b"{}", &[]).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "read once the turn is free: {answer}"
    );
}
