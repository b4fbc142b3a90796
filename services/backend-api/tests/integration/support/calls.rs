//! The calls tests make most, each as the app makes it: registering, a job and its key,
//! a session, its messages and turns, and a stop.

use std::time::Duration;

use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};

use super::{refresh_cookie, TestApp, PASSWORD, REFRESH_COOKIE};

impl TestApp {
    /// Registers an account; returns (access token, refresh cookie, user id).
    pub async fn register(&self, email: &str) -> (String, String, String) {
        let response = self
            .call(
                Method::POST,
                "/api/v1/auth/register",
                None,
                Some(json!({ "email": email, "password": PASSWORD })),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "register {email}");
        let refresh = refresh_cookie(&response).expect("registering sets the refresh cookie");
        let body: Value = response.json().await.unwrap();
        (
            body["tokens"]["access_token"].as_str().unwrap().to_owned(),
            refresh,
            body["user"]["id"].as_str().unwrap().to_owned(),
        )
    }

    /// `POST /auth/refresh` as the app sends it: `{}` as JSON, with this refresh cookie.
    pub async fn refresh(&self, cookie: &str) -> Response {
        self.http
            .post(format!("{}/api/v1/auth/refresh", self.base))
            .header("cookie", format!("{REFRESH_COOKIE}={cookie}"))
            .json(&json!({}))
            .send()
            .await
            .unwrap()
    }

    /// Creates a job (`POST /jobs`, expecting `201`).
    pub async fn create_job(&self, token: &str, body: Value) -> Value {
        self.expect(
            StatusCode::CREATED,
            Method::POST,
            "/api/v1/jobs",
            Some(token),
            Some(body),
        )
        .await
    }

    /// The job as `GET /jobs/{id}` gives it.
    pub async fn job(&self, token: &str, id: &str) -> Value {
        let path = format!("/api/v1/jobs/{id}");
        self.expect(StatusCode::OK, Method::GET, &path, Some(token), None)
            .await
    }

    /// Polls the job until it is in `status`; fails the test after 120 s.
    pub async fn until_job(&self, token: &str, id: &str, status: &str) -> Value {
        let start = std::time::Instant::now();
        loop {
            let job = self.job(token, id).await;
            if job["status"] == status {
                return job;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the job never became {status}: {job:#}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Makes a `jobs` API key for the account `token` signs in to; the key's secret.
    pub async fn jobs_key(&self, token: &str) -> String {
        let key = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                "/api/v1/api-keys",
                Some(token),
                Some(json!({ "name": "script", "scope": "jobs" })),
            )
            .await;
        key["key"].as_str().unwrap().to_owned()
    }

    /// Waits until the first API key of the account `token` signs in to lists `tokens`:
    /// a job's tokens are added just after its end is stored, so maybe a moment after
    /// it shows. Fails the test after 30 s.
    pub async fn until_key_tokens(&self, token: &str, tokens: &Value) {
        let start = std::time::Instant::now();
        loop {
            let keys = self
                .expect(StatusCode::OK, Method::GET, "/api/v1/api-keys", Some(token), None)
                .await;
            if &keys[0]["tokens"] == tokens {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the key never showed {tokens}: {keys}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn new_session(&self, token: &str) -> String {
        let body = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                "/api/v1/sessions",
                Some(token),
                None,
            )
            .await;
        body["id"].as_str().unwrap().to_owned()
    }

    pub async fn post_message(&self, token: &str, session: &str, content: &str) -> u64 {
        let path = format!("/api/v1/sessions/{session}/messages");
        let body = self
            .expect(
                StatusCode::CREATED,
                Method::POST,
                &path,
                Some(token),
                Some(json!({ "content": content })),
            )
            .await;
        body["seq"].as_u64().unwrap()
    }

    /// The session as `GET /sessions/{id}` gives it.
    pub async fn session(&self, token: &str, id: &str) -> Value {
        let path = format!("/api/v1/sessions/{id}");
        self.expect(StatusCode::OK, Method::GET, &path, Some(token), None)
            .await
    }

    /// Posts `content` and returns the turn's events, up to its final status.
    pub async fn turn(&self, token: &str, id: &str, content: &str) -> Vec<Value> {
        let before = self.session(token, id).await["last_seq"].as_u64().unwrap();
        let mut stream = self.events(token, id, Some(before)).await;
        self.post_message(token, id, content).await;
        stream
            .until(Duration::from_secs(120), |e| {
                e["type"] == "status"
                    && ["completed", "failed", "waiting"].contains(&e["status"].as_str().unwrap())
            })
            .await
    }

    /// Stops the session's run and checks that the answer did not wait for the work it
    /// stops (the callers stop a model request that never ends or a `sleep 600`); returns
    /// the session as the answer gives it. How fast a stop answers is the benchmarks'
    /// business: a bound of a second failed on a loaded machine.
    pub async fn stop_run(&self, token: &str, session: &str) -> Value {
        let started = std::time::Instant::now();
        let stopped = self
            .expect(
                StatusCode::OK,
                Method::POST,
                &format!("/api/v1/sessions/{session}/stop"),
                Some(token),
                None,
            )
            .await;
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the stop waited for the work it stops: {:?}",
            started.elapsed()
        );
        stopped
    }
}
