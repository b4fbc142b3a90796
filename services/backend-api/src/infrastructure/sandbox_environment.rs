//! The `SandboxEnvironment` port on tool-api: a rented sandbox's variables are given to
//! its tool-api once it runs (`POST /e2b/envd/init`), which hands them to every program
//! the E2B surfaces start.

use std::collections::BTreeMap;

use tool_api_client::ToolApiClient;

use crate::domain::agent::SandboxAccess;
use crate::domain::ports::SandboxEnvironment;
use crate::domain::{DomainError, DomainResult};

#[derive(Default)]
pub struct ToolApiEnvironment {
    http: reqwest::Client,
}

#[async_trait::async_trait]
impl SandboxEnvironment for ToolApiEnvironment {
    async fn set(&self, sandbox: &SandboxAccess, vars: &BTreeMap<String, String>) -> DomainResult<()> {
        ToolApiClient::with_http(self.http.clone(), &sandbox.tool_api_url, &sandbox.tool_api_token)
            .e2b_init(vars)
            .await
            .map_err(|err| DomainError::Unavailable {
                what: "the sandbox",
                detail: format!("its environment could not be set: {err}"),
            })
    }
}
