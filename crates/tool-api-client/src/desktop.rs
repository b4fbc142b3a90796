//! The desktop: starting and stopping it, and its VNC stream (`GET /v1/desktop/vnc`,
//! upgraded to raw RFB bytes; see `tool_api_contract::desktop`).

use reqwest::header::{CONNECTION, UPGRADE};
use reqwest::{Method, StatusCode};
use tool_api_contract::desktop::VNC_UPGRADE;
use tool_api_contract::info::DesktopInfo;

use crate::{check, decode, ClientError, ClientResult, ToolApiClient};

/// A byte stream to the sandbox's VNC server, which greets first with its RFB version.
pub type VncStream = reqwest::Upgraded;

impl ToolApiClient {
    /// Starts the desktop unless it runs; answers once X, VNC and the browser do.
    ///
    /// Errors: [`ClientError::Api`] with `503 desktop_unavailable` when it does not come
    /// up (or the sandbox's memory limit is too small for it), `503 not_configured` when
    /// the sandbox has no desktop.
    pub async fn start_desktop(&self) -> ClientResult<DesktopInfo> {
        decode(self.request(Method::POST, "/v1/desktop/start").send().await?).await
    }

    /// Stops the desktop; the next browser call or VNC connection starts it again.
    pub async fn stop_desktop(&self) -> ClientResult<DesktopInfo> {
        decode(self.request(Method::POST, "/v1/desktop/stop").send().await?).await
    }

    /// Opens a connection to the sandbox's VNC server through the tool-api, starting the
    /// desktop first when it is stopped.
    ///
    /// Errors: [`ClientError::Api`] with `503 desktop_unavailable` when the desktop does not
    /// come up, `503 not_configured` when the sandbox has no desktop.
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
