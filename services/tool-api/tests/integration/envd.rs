//! E2B's envd protocol against the real server, spoken over plain HTTP as E2B's SDKs do:
//! the REST routes here, processes in [`process`], filesystem calls in [`filesystem`],
//! and file transfer in [`files`].

mod files;
mod filesystem;
mod process;
mod wire;

use serde_json::json;

use crate::support::{spawn_app, TestApp, TOKEN};

async fn envs(app: &TestApp) -> serde_json::Value {
    let response = app
        .request(reqwest::Method::GET, "/e2b/envd/envs")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

#[tokio::test]
async fn health_answers_204_and_needs_the_token() {
    let app = spawn_app().await;
    let health = app
        .request(reqwest::Method::GET, "/e2b/envd/health")
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 204);
    let anonymous = app
        .http
        .get(format!("{}/e2b/envd/health", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        anonymous.status(),
        401,
        "the envd routes sit behind the bearer token"
    );
    let wrong = app
        .http
        .get(format!("{}/e2b/envd/envs", app.base))
        .bearer_auth(format!("{TOKEN}x"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
}

#[tokio::test]
async fn init_sets_the_variables_that_envs_reports() {
    let app = spawn_app().await;
    assert_eq!(envs(&app).await, json!({}));
    let init = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "GREETING": "hello", "LEVEL": "3" }, "accessToken": "ignored" }))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), 204);
    assert_eq!(envs(&app).await, json!({ "GREETING": "hello", "LEVEL": "3" }));

    let bad = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "A=B": "x" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let body: serde_json::Value = bad.json().await.unwrap();
    assert_eq!(body["code"], 400);
    assert!(body["message"].as_str().unwrap().contains("A=B"), "{body}");
    assert_eq!(
        envs(&app).await["GREETING"],
        "hello",
        "a refused init changes nothing"
    );

    let malformed = app
        .request(reqwest::Method::POST, "/e2b/envd/init")
        .header("content-type", "application/json")
        .body("{\"envVars\": 3}")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
}
