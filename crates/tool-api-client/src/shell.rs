//! Methods for shell sessions and the terminal.

use reqwest::{Method, Response};
use tool_api_contract::shell::{ExecRequest, InputRequest, ShellSessionList, ShellSnapshot, WaitRequest};

use crate::{check, ClientResult, ToolApiClient};

impl ToolApiClient {
    pub async fn exec(&self, session: &str, request: &ExecRequest) -> ClientResult<ShellSnapshot> {
        self.post_json(&format!("/v1/shell/sessions/{session}/exec"), request)
            .await
    }

    /// The latest command's output, or the whole console with `full`.
    pub async fn view(&self, session: &str, full: bool) -> ClientResult<ShellSnapshot> {
        self.get_json(&format!("/v1/shell/sessions/{session}?full={full}"))
            .await
    }

    pub async fn wait(&self, session: &str, timeout_secs: Option<f64>) -> ClientResult<ShellSnapshot> {
        let request = WaitRequest { timeout_secs };
        self.post_json(&format!("/v1/shell/sessions/{session}/wait"), &request)
            .await
    }

    pub async fn write_input(&self, session: &str, input: &str, enter: bool) -> ClientResult<ShellSnapshot> {
        let request = InputRequest {
            input: input.to_owned(),
            enter,
        };
        self.post_json(&format!("/v1/shell/sessions/{session}/input"), &request)
            .await
    }

    pub async fn kill(&self, session: &str) -> ClientResult<ShellSnapshot> {
        self.post_json(&format!("/v1/shell/sessions/{session}/kill"), &())
            .await
    }

    pub async fn delete_session(&self, session: &str) -> ClientResult<()> {
        let path = format!("/v1/shell/sessions/{session}");
        check(self.request(Method::DELETE, &path).send().await?).await?;
        Ok(())
    }

    pub async fn list_sessions(&self) -> ClientResult<ShellSessionList> {
        self.get_json("/v1/shell/sessions").await
    }

    /// The live output stream (SSE), from console offset `from` when given.
    pub async fn stream_output(&self, session: &str, from: Option<u64>) -> ClientResult<Response> {
        let mut path = format!("/v1/shell/sessions/{session}/stream");
        if let Some(from) = from {
            path.push_str(&format!("?from={from}"));
        }
        check(self.request(Method::GET, &path).send().await?).await
    }

    /// The terminal's WebSocket URL; connect with `Authorization: Bearer <token>`.
    pub fn terminal_url(&self, cols: u16, rows: u16) -> String {
        self.ws_url(&format!("/v1/shell/terminal?cols={cols}&rows={rows}"))
    }

    pub fn token(&self) -> &str {
        self.endpoint.token()
    }
}
