//! Methods of the code interpreter.

use tool_api_contract::code::{CodeRunRequest, CodeRunResult, KernelRestarted};

use crate::{ClientResult, ToolApiClient};

impl ToolApiClient {
    pub async fn code_run(&self, request: &CodeRunRequest) -> ClientResult<CodeRunResult> {
        self.post_json("/v1/code/run", request).await
    }

    pub async fn code_restart(&self) -> ClientResult<KernelRestarted> {
        self.post_json("/v1/code/restart", &()).await
    }
}
