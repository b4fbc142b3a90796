//! The port of the model providers.

use crate::domain::agent::{ChatMessage, Completion};
use crate::domain::error::DomainResult;
use crate::domain::model::ModelName;
use crate::domain::tool::ToolSpec;

/// The configured models, each behind its OpenAI-compatible chat-completion provider.
#[async_trait::async_trait]
pub trait LlmClient: Send + Sync {
    /// Asks `model` (a name of the [`super::model::ModelCatalog`]). Fails with
    /// `Unavailable` when its provider cannot be reached or keeps failing (after the
    /// adapter's retries), `Invalid` when it refuses the request or the model is not
    /// configured.
    async fn complete(
        &self,
        model: &ModelName,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> DomainResult<Completion>;
}
