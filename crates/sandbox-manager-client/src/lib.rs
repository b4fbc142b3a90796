//! Typed client of the sandbox-manager, used by backend-api and by the manager's own tests,
//! so every route is exercised through the code the backend runs.
//!
//! One method per route; types come from `sandbox-manager-contract`. A non-2xx answer
//! becomes [`ClientError::Api`] with the server's error body.

// Server and library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

use client_kit::Endpoint;
use eventsource_stream::Eventsource;
use futures::{Stream, StreamExt};
use reqwest::{Method, RequestBuilder};
use sandbox_manager_contract::{
    CreateSandbox, ErrorBody, ErrorCode, LifecycleEvent, ListQuery, Sandbox, SandboxList,
};

pub use sandbox_manager_contract as contract;

client_kit::client_error! {
    service: "sandbox-manager",
    body: ErrorBody,
    code: ErrorCode,
}

#[derive(Debug, Clone)]
pub struct SandboxManagerClient {
    endpoint: Endpoint,
}

impl SandboxManagerClient {
    /// `base` is e.g. `http://127.0.0.1:8090`; `token` the manager's service token.
    pub fn new(base: impl Into<String>, token: impl Into<String>) -> Self {
        Self {
            endpoint: Endpoint::new(reqwest::Client::new(), base, token),
        }
    }

    /// A request to `path` with the service token set; for routes without a typed method.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.endpoint.request(method, path)
    }

    /// Creates the session's sandbox, or returns the one it already has.
    pub async fn create(&self, request: &CreateSandbox) -> ClientResult<Sandbox> {
        decode(
            self.request(Method::POST, "/v1/sandboxes")
                .json(request)
                .send()
                .await?,
        )
        .await
    }

    pub async fn get(&self, id: &str) -> ClientResult<Sandbox> {
        decode(
            self.request(Method::GET, &format!("/v1/sandboxes/{id}"))
                .send()
                .await?,
        )
        .await
    }

    pub async fn list(&self, query: &ListQuery) -> ClientResult<Vec<Sandbox>> {
        let response = self
            .request(Method::GET, "/v1/sandboxes")
            .query(query)
            .send()
            .await?;
        Ok(decode::<SandboxList>(response).await?.sandboxes)
    }

    /// Stops and removes the sandbox's container and volumes.
    pub async fn delete(&self, id: &str) -> ClientResult<()> {
        check(
            self.request(Method::DELETE, &format!("/v1/sandboxes/{id}"))
                .send()
                .await?,
        )
        .await?;
        Ok(())
    }

    /// Stops the sandbox's container and keeps the session's volume, so the session's
    /// next sandbox finds its files.
    pub async fn stop(&self, id: &str) -> ClientResult<Sandbox> {
        let path = format!("/v1/sandboxes/{id}/stop");
        decode(self.request(Method::POST, &path).send().await?).await
    }

    /// Marks the sandbox used now, pushing its idle time-out back.
    pub async fn keep_alive(&self, id: &str) -> ClientResult<Sandbox> {
        let path = format!("/v1/sandboxes/{id}/keepalive");
        decode(self.request(Method::POST, &path).send().await?).await
    }

    /// The last `tail` lines of the sandbox's own output (tool-api and desktop logs).
    pub async fn logs(&self, id: &str, tail: Option<u32>) -> ClientResult<String> {
        let mut request = self.request(Method::GET, &format!("/v1/sandboxes/{id}/logs"));
        if let Some(tail) = tail {
            request = request.query(&[("tail", tail)]);
        }
        Ok(check(request.send().await?).await?.text().await?)
    }

    /// Lifecycle events as they happen, after replaying those newer than `after` that the
    /// manager still holds.
    pub async fn events(
        &self,
        after: Option<u64>,
    ) -> ClientResult<impl Stream<Item = ClientResult<LifecycleEvent>>> {
        let mut request = self.request(Method::GET, "/v1/events");
        if let Some(after) = after {
            request = request.header("Last-Event-ID", after.to_string());
        }
        let response = check(request.send().await?).await?;
        Ok(response.bytes_stream().eventsource().map(|event| {
            let event = event.map_err(|err| ClientError::Decode {
                status: 200,
                message: err.to_string(),
            })?;
            serde_json::from_str(&event.data).map_err(|err| ClientError::Decode {
                status: 200,
                message: err.to_string(),
            })
        }))
    }
}
