//! The desktop's VNC stream (`GET /v1/desktop/vnc`, upgraded to raw RFB bytes; see
//! `tool_api_contract::desktop`).

use reqwest::header::{CONNECTION, UPGRADE};
use reqwest::{Method, StatusCode};
use tool_api_contract::desktop::VNC_UPGRADE;

use crate::{check, ClientError, ClientResult, ToolApiClient};

/// A byte stream to the sandbox's VNC server, which greets first with its RFB version.
pub type VncStream = reqwest::Upgraded;

impl ToolApiClient {
    /// Opens a connection to the sandbox's VNC server through the tool-api.
    ///
    /// Errors: [`ClientError::Api`] with `503 desktop_unavailable` when the VNC server is
    /// not answering, `503 not_configured` when the sandbox has no desktop.
    pub async fn vnc(&self) -> ClientResult<VncStream> {
        let response = self
            .request(Method::GET, "/v1/desktop/vnc")
            .header(CONNECTION, "upgrade")
            .header(UPGRADE, VNC_UPGRADE)
            .send()
            .await?;
        if response.status() != StatusCode::SWITCHING_PROTOCOLS {
            // An error body, or (from something that is not the tool-api) a plain answer.
            let status = response.status().as_u16();
            check(response).await?;
            return Err(ClientError::Decode {
                status,
                message: "the VNC route answered without switching protocols".into(),
            });
        }
        Ok(response.upgrade().await?)
    }
}
