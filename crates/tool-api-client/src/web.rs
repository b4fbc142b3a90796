//! Methods for the web routes: search through the sandbox's provider, and page fetch.

use tool_api_contract::search::{FetchRequest, FetchResponse, WebSearchRequest, WebSearchResponse};

use crate::{ClientResult, ToolApiClient};

impl ToolApiClient {
    /// `POST /v1/search`: title, URL and snippet of each result.
    pub async fn web_search(&self, request: &WebSearchRequest) -> ClientResult<WebSearchResponse> {
        self.post_json("/v1/search", request).await
    }

    /// `POST /v1/fetch`: a page as readable text, with its final URL and status.
    pub async fn fetch(&self, request: &FetchRequest) -> ClientResult<FetchResponse> {
        self.post_json("/v1/fetch", request).await
    }
}
