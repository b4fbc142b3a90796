//! Routes of the code interpreter: run a cell, restart the kernel.

use axum::extract::State;
use service_kit::Json;
use tool_api_contract::code::{CodeRunRequest, CodeRunResult, KernelRestarted};
use tool_api_contract::ErrorBody;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::error::ToolResult;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(run)).routes(routes!(restart))
}

/// Runs a cell in the sandbox's kernel (started on first use) and answers when it ends or
/// is interrupted at its timeout. An exception is an answer (`error`), not a failure.
#[utoipa::path(post, path = "/v1/code/run", tag = "code", request_body = CodeRunRequest,
    responses((status = 200, body = CodeRunResult), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "the kernel could not be started")))]
async fn run(
    State(state): State<AppState>,
    Json(request): Json<CodeRunRequest>,
) -> ToolResult<Json<CodeRunResult>> {
    Ok(Json(state.kernel.run(request).await?))
}

/// Ends the kernel (and its state) and starts a new one.
#[utoipa::path(post, path = "/v1/code/restart", tag = "code",
    responses((status = 200, body = KernelRestarted),
        (status = 503, body = ErrorBody, description = "the kernel could not be started")))]
async fn restart(State(state): State<AppState>) -> ToolResult<Json<KernelRestarted>> {
    Ok(Json(state.kernel.restart().await?))
}
