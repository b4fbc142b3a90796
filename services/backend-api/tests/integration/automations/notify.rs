//! An automation's own webhook: each run's job is sent to it when it ends, signed with
//! the one secret the automation's answer showed once, retried like a job's; a URL is
//! checked as a job's is.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::{backend, create, AUTOMATIONS};
use crate::jobs::{calls, receiver};
use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::signatures::assert_signed;

#[tokio::test]
async fn each_runs_end_reaches_the_automations_webhook_signed_with_its_one_secret() {
    let llm = FakeLlm::start(vec![Reply::Text("First."), Reply::Text("Second.")]).await;
    let app = backend(&llm, &[("jobs.allow_private_webhooks", "true".into())]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let (url, got) = receiver().await;
    let created = create(
        &app,
        &token,
        json!({ "name": "Told", "prompt": "Report", "webhook_url": url,
                "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let secret = created["webhook_secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{created}");
    let id = created["id"].as_str().unwrap();
    let one = format!("{AUTOMATIONS}/{id}");
    let read = app
        .expect(StatusCode::OK, Method::GET, &one, Some(&token), None)
        .await;
    assert_eq!(
        (read["webhook_url"].as_str(), &read["webhook_secret"]),
        (Some(url.as_str()), &Value::Null)
    );

    let mut jobs = Vec::new();
    for _ in 0..2 {
        let run = format!("{one}/run");
        let started = app
            .expect(StatusCode::ACCEPTED, Method::POST, &run, Some(&token), None)
            .await;
        let job = started["job_id"].as_str().unwrap().to_owned();
        app.until_job(&token, &job, "succeeded").await;
        jobs.push(job);
    }
    // The receiver refuses its first call, so the first run's end comes twice.
    let got = calls(&got, 3).await;
    let mut ends: Vec<String> = got
        .iter()
        .map(|(signature, body)| {
            assert_signed(signature, &secret, body);
            let body: Value = serde_json::from_slice(body).unwrap();
            format!(
                "{} {}",
                body["id"].as_str().unwrap(),
                body["status"].as_str().unwrap()
            )
        })
        .collect();
    // The retry may come after the second run's end.
    ends.sort();
    let mut expected: Vec<String> = [&jobs[0], &jobs[0], &jobs[1]]
        .iter()
        .map(|job| format!("{job} succeeded"))
        .collect();
    expected.sort();
    assert_eq!(ends, expected);

    // Saved again with its URL it keeps its secret (none shown); `""` removes it.
    let kept = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &one,
            Some(&token),
            Some(json!({ "webhook_url": url })),
        )
        .await;
    assert_eq!(
        (kept["webhook_url"].as_str(), &kept["webhook_secret"]),
        (Some(url.as_str()), &Value::Null)
    );
    let removed = app
        .expect(
            StatusCode::OK,
            Method::PATCH,
            &one,
            Some(&token),
            Some(json!({ "webhook_url": "" })),
        )
        .await;
    assert_eq!(removed["webhook_url"], Value::Null);
    for bad in ["not a url", "ftp://example.org/hook"] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::PATCH,
                &one,
                Some(&token),
                Some(json!({ "webhook_url": bad })),
            )
            .await;
        assert_eq!(refused["error"]["field"], "webhook_url", "{refused}");
    }
}

#[tokio::test]
async fn a_private_address_is_refused_as_for_a_job() {
    let llm = FakeLlm::start(vec![]).await;
    let app = backend(&llm, &[]).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let refused = app
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            Method::POST,
            AUTOMATIONS,
            Some(&token),
            Some(
                json!({ "name": "n", "prompt": "x", "webhook_url": "http://127.0.0.1:9/hook",
                         "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
            ),
        )
        .await;
    assert_eq!(refused["error"]["field"], "webhook_url", "{refused}");
    let listed = app
        .expect(StatusCode::OK, Method::GET, AUTOMATIONS, Some(&token), None)
        .await;
    assert_eq!(listed["automations"], json!([]), "nothing was made");

    // Nor may an edit set one, however the address is written; the record stays as it was.
    let made = create(
        &app,
        &token,
        json!({ "name": "n", "prompt": "x", "triggers": [{ "type": "schedule", "cron": "0 9 * * MON" }] }),
    )
    .await;
    let one = format!("{AUTOMATIONS}/{}", made["id"].as_str().unwrap());
    for private in [
        "http://127.0.0.1:9/hook",
        "http://10.0.0.5/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:9/hook",
        "http://[::ffff:192.168.1.1]/hook",
        "http://localhost:9/hook",
    ] {
        let refused = app
            .expect(
                StatusCode::UNPROCESSABLE_ENTITY,
                Method::PATCH,
                &one,
                Some(&token),
                Some(json!({ "webhook_url": private })),
            )
            .await;
        assert_eq!(refused["error"]["field"], "webhook_url", "{private}: {refused}");
    }
    let read = app
        .expect(StatusCode::OK, Method::GET, &one, Some(&token), None)
        .await;
    assert_eq!(read["webhook_url"], Value::Null, "{read}");
}
