//! Methods for the web routes: page fetch.

use tool_api_contract::web::{FetchRequest, FetchResponse};

use crate::{ClientResult, ToolApiClient};

impl ToolApiClient {
    /// `POST /v1/fetch`: a page as readable text, with its final URL and status.
    pub async fn fetch(&self, request: &FetchRequest) -> ClientResult<FetchResponse> {
        self.post_json("/v1/fetch", request).await
    }
}
