//! The E2B surfaces inside the sandbox: giving it the environment it was created with.
//! (backend-api relays everything else of E2B's data plane as it comes, through
//! [`ToolApiClient::request`].)

use std::collections::BTreeMap;

use reqwest::Method;

use crate::{check, ClientResult, ToolApiClient};

impl ToolApiClient {
    /// `POST /e2b/envd/init`: the variables every program the E2B surfaces start sees.
    pub async fn e2b_init(&self, env_vars: &BTreeMap<String, String>) -> ClientResult<()> {
        let body = serde_json::json!({ "envVars": env_vars });
        check(
            self.request(Method::POST, "/e2b/envd/init")
                .json(&body)
                .send()
                .await?,
        )
        .await?;
        Ok(())
    }
}
