//! Web search for the agent, run by the backend with the operator's provider
//! (`SEARCH_*`) through `web_kit`'s search engine: the provider's key stays in this
//! process and never enters a sandbox. The answer becomes the text the model reads (the
//! provider and its results as JSON) and the [`ToolView::Search`] the person sees; a
//! failure, the message both read.

use web_kit::search::{SearchEngine, SearchSettings};

use crate::domain::agent::ToolOutcome;
use crate::domain::ports::WebSearch;
use crate::domain::tool::ToolView;
use crate::domain::web_search::{WebSearchRequest, WebSearchResult};

pub struct ProviderSearch {
    engine: SearchEngine,
}

impl ProviderSearch {
    /// `None` when no provider is configured; an error for a configuration that could
    /// never work (unknown provider, missing URL or key), so it shows at start-up.
    pub fn from_settings(settings: &SearchSettings) -> anyhow::Result<Option<Self>> {
        // The provider's key goes with each request: redirects stay within its origin.
        let http = web_kit::upstream::credentialed_client("sandpiper-backend-api")?;
        Ok(SearchEngine::from_settings(settings, http)?.map(|engine| Self { engine }))
    }

    pub fn provider_name(&self) -> &'static str {
        self.engine.provider_name()
    }
}

#[async_trait::async_trait]
impl WebSearch for ProviderSearch {
    async fn search(&self, request: &WebSearchRequest) -> ToolOutcome {
        match self.engine.search(&request.query, request.max_results).await {
            Ok(answer) => ToolOutcome {
                text: serde_json::to_string_pretty(&answer).unwrap_or_default(),
                view: ToolView::Search {
                    results: answer
                        .results
                        .into_iter()
                        .map(|found| WebSearchResult {
                            title: found.title,
                            url: found.url,
                            snippet: found.snippet,
                        })
                        .collect(),
                },
                images: Vec::new(),
            },
            Err(err) => ToolOutcome {
                text: format!("web_search failed: {err}"),
                view: ToolView::error(err.to_string()),
                images: Vec::new(),
            },
        }
    }
}
