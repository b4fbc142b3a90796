//! The models the agent may use, and how they are reached.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::domain::model::{ModelCatalog, ModelInfo, ModelName, Prices};

/// The models: any OpenAI-compatible chat-completions APIs. Either a list (`models`,
/// with `default_model`), or the one model of `base_url`, `api_key` and `model` (the
/// `LLM_*` variables) with `temperature`, `max_tokens` and `extra_headers`, named by its
/// `model`. The timeouts and retries hold for every model.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct LlmConfig {
    /// e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama).
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub model: Option<String>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    /// Extra request headers (e.g. OpenRouter's `HTTP-Referer`), `name: value` per entry.
    pub extra_headers: BTreeMap<String, String>,
    /// The models people may pick, by the name they pick them by.
    pub models: BTreeMap<String, ModelConfig>,
    /// The listed model a session gets when it names none; may be left out when the
    /// list has one model.
    pub default_model: Option<String>,
    /// The listed model sub-agents use when the agent delegating a task names none: a
    /// planner (the default) handing implementation to a cheaper or stronger coder.
    /// Without it, sub-agents use the delegating session's model.
    pub implementer_model: Option<String>,
    /// Longest wait for one answer, and for the next chunk of a streamed one.
    pub timeout_secs: u64,
    pub chunk_timeout_secs: u64,
    /// Retries on 429, 5xx and dropped streams, with exponential back-off.
    pub max_retries: u32,
    pub retry_base_millis: u64,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            api_key: None,
            model: None,
            temperature: None,
            max_tokens: None,
            extra_headers: BTreeMap::new(),
            models: BTreeMap::new(),
            default_model: None,
            implementer_model: None,
            timeout_secs: 300,
            chunk_timeout_secs: 90,
            max_retries: 4,
            retry_base_millis: 500,
        }
    }
}

/// One model of the list: where it is, what it is called there, what it can do and cost.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelConfig {
    /// The OpenAI-compatible API's base, e.g. `https://openrouter.ai/api/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    /// The provider's id of the model; the list's name when left out.
    pub model: Option<String>,
    /// The context window in tokens (default 128000); the conversation is compacted to
    /// fit it.
    #[serde(default = "default_context_tokens")]
    pub context_tokens: u32,
    /// `false` for a model that cannot call tools: the agent then tells the person to
    /// pick another instead of asking it (default `true`).
    #[serde(default = "default_true")]
    pub supports_tools: bool,
    #[serde(default)]
    pub supports_images: bool,
    /// What a million tokens cost, both or neither; sessions then show their cost.
    pub input_price_per_million: Option<f64>,
    pub output_price_per_million: Option<f64>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub extra_headers: BTreeMap<String, String>,
}

fn default_context_tokens() -> u32 {
    128_000
}

fn default_true() -> bool {
    true
}

/// The configured models, checked: the catalogue the application offers, and how to
/// reach each, for the adapter.
#[derive(Debug, Default)]
pub struct Models {
    pub catalog: ModelCatalog,
    pub endpoints: Vec<(ModelName, ModelConfig)>,
}

impl LlmConfig {
    /// The list, or the one `LLM_*` model, or none. Refuses a list beside the `LLM_*`
    /// model, a bad name, a missing or unknown default, twins and half a price.
    pub fn models(&self) -> Result<Models, String> {
        if self.models.is_empty() {
            return self.single_model();
        }
        if self.base_url.is_some() || self.model.is_some() {
            return Err(
                "both a model list (llm.models) and LLM_BASE_URL/LLM_MODEL are set; \
                        list that model too, or leave the list out"
                    .into(),
            );
        }
        let mut infos = Vec::new();
        let mut endpoints = Vec::new();
        for (raw, config) in &self.models {
            let name = ModelName::parse(raw).map_err(|err| format!("llm.models: {err}"))?;
            infos.push(model_info(&name, config)?);
            endpoints.push((name, config.clone()));
        }
        let default = match (&self.default_model, infos.as_slice()) {
            (Some(raw), _) => ModelName::parse(raw).map_err(|err| format!("llm.default_model: {err}"))?,
            (None, [only]) => only.name.clone(),
            (None, _) => {
                return Err(
                    "several models are listed: name the default one in llm.default_model \
                     (LLM_DEFAULT_MODEL)"
                        .into(),
                )
            }
        };
        let mut catalog = ModelCatalog::new(infos, &default).map_err(|err| format!("llm.models: {err}"))?;
        if let Some(raw) = &self.implementer_model {
            let name = ModelName::parse(raw).map_err(|err| format!("llm.implementer_model: {err}"))?;
            catalog = catalog
                .with_implementer(&name)
                .map_err(|err| format!("llm.implementer_model: {err}"))?;
        }
        Ok(Models { catalog, endpoints })
    }

    fn single_model(&self) -> Result<Models, String> {
        let (Some(base_url), Some(model)) = (&self.base_url, &self.model) else {
            return Ok(Models::default());
        };
        let name = ModelName::parse(model).map_err(|err| format!("LLM_MODEL: {err}"))?;
        let config = ModelConfig {
            base_url: base_url.clone(),
            api_key: self.api_key.clone(),
            model: Some(model.clone()),
            context_tokens: default_context_tokens(),
            supports_tools: true,
            supports_images: false,
            input_price_per_million: None,
            output_price_per_million: None,
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            extra_headers: self.extra_headers.clone(),
        };
        let catalog =
            ModelCatalog::new(vec![model_info(&name, &config)?], &name).map_err(|e| e.to_string())?;
        Ok(Models {
            catalog,
            endpoints: vec![(name, config)],
        })
    }
}

fn model_info(name: &ModelName, config: &ModelConfig) -> Result<ModelInfo, String> {
    let prices = match (config.input_price_per_million, config.output_price_per_million) {
        (Some(input), Some(output)) => {
            Some(Prices::parse(input, output).map_err(|err| format!("llm.models.{}: {err}", name.as_str()))?)
        }
        (None, None) => None,
        _ => {
            return Err(format!(
                "llm.models.{}: give both input_price_per_million and output_price_per_million, or neither",
                name.as_str()
            ))
        }
    };
    if config.context_tokens == 0 {
        return Err(format!("llm.models.{}: context_tokens is 0", name.as_str()));
    }
    Ok(ModelInfo {
        name: name.clone(),
        context_tokens: config.context_tokens,
        supports_tools: config.supports_tools,
        supports_images: config.supports_images,
        prices,
    })
}
