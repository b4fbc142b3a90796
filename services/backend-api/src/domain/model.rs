//! The models a deployment offers: the name a person picks each by, what each can do and
//! what it costs, and which one a session gets when it names none. Where a model lives
//! and its key belong to the adapter that reaches it; nothing here holds them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::agent::TokenUsage;
use super::error::{DomainError, DomainResult};

/// The name a model is offered by: 1–128 printable ASCII characters without spaces, so
/// provider ids such as `openai/gpt-4o` or `qwen2.5-coder:7b` serve as names unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ModelName(String);

impl ModelName {
    pub const MAX_CHARS: usize = 128;

    pub fn parse(raw: &str) -> DomainResult<Self> {
        if raw.is_empty() || raw.len() > Self::MAX_CHARS || !raw.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(DomainError::Invalid(format!(
                "a model name has 1 to {} printable ASCII characters and no spaces, not {raw:?}",
                Self::MAX_CHARS
            )));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a model's tokens cost, per million, in the operator's currency.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Prices {
    pub input_per_million: f64,
    pub output_per_million: f64,
}

impl Prices {
    /// Both prices are finite and not negative.
    pub fn parse(input_per_million: f64, output_per_million: f64) -> DomainResult<Self> {
        let fits = |price: f64| price.is_finite() && price >= 0.0;
        if !fits(input_per_million) || !fits(output_per_million) {
            return Err(DomainError::Invalid(
                "a price per million tokens is a number of 0 or more".into(),
            ));
        }
        Ok(Self {
            input_per_million,
            output_per_million,
        })
    }

    pub fn cost(&self, usage: TokenUsage) -> f64 {
        (usage.prompt_tokens as f64 * self.input_per_million
            + usage.completion_tokens as f64 * self.output_per_million)
            / 1_000_000.0
    }
}

/// One offered model as the application knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    pub name: ModelName,
    /// The context window, in tokens.
    pub context_tokens: u32,
    /// Whether it takes native tool calls; the agent needs them.
    pub supports_tools: bool,
    pub supports_images: bool,
    pub prices: Option<Prices>,
}

/// The offered models with their default; empty when no model is configured.
#[derive(Debug, Clone, Default)]
pub struct ModelCatalog {
    models: Vec<ModelInfo>,
    /// The model sub-agents use when none is named (see [`ModelCatalog::implementer`]).
    implementer: Option<ModelName>,
}

impl ModelCatalog {
    /// `models` in the order they are offered, `default` among them (it is offered first).
    pub fn new(mut models: Vec<ModelInfo>, default: &ModelName) -> DomainResult<Self> {
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = models.iter().find(|m| !seen.insert(&m.name)) {
            return Err(DomainError::Invalid(format!(
                "the model name `{}` is used twice",
                twice.name.as_str()
            )));
        }
        let Some(at) = models.iter().position(|m| &m.name == default) else {
            let names: Vec<_> = models.iter().map(|m| m.name.as_str()).collect();
            return Err(DomainError::Invalid(format!(
                "the default model `{}` is not one of the models ({})",
                default.as_str(),
                names.join(", ")
            )));
        };
        let first = models.remove(at);
        models.insert(0, first);
        Ok(Self {
            models,
            implementer: None,
        })
    }

    /// Names the model sub-agents get when the delegating agent names none; it must be
    /// one of the models.
    pub fn with_implementer(self, name: &ModelName) -> DomainResult<Self> {
        if self.get(name).is_none() {
            return Err(DomainError::Invalid(format!(
                "the implementer model `{}` is not one of the models",
                name.as_str()
            )));
        }
        Ok(Self {
            implementer: Some(name.clone()),
            ..self
        })
    }

    /// The model a sub-agent uses when the delegating agent names none: the configured
    /// implementer, or `None` for "the delegating agent's own".
    pub fn implementer(&self) -> Option<&ModelInfo> {
        self.implementer.as_ref().and_then(|name| self.get(name))
    }

    /// Default first.
    pub fn list(&self) -> &[ModelInfo] {
        &self.models
    }

    pub fn default_model(&self) -> Option<&ModelInfo> {
        self.models.first()
    }

    pub fn get(&self, name: &ModelName) -> Option<&ModelInfo> {
        self.models.iter().find(|m| &m.name == name)
    }

    /// The model a request names in `model`, or the default when it names none; `None`
    /// only when no model is configured and none was named. A name not offered is an
    /// error on the field `model`.
    pub fn pick(&self, asked: Option<&str>) -> DomainResult<Option<&ModelInfo>> {
        let Some(asked) = asked else {
            return Ok(self.default_model());
        };
        self.models
            .iter()
            .find(|m| m.name.as_str() == asked)
            .map(Some)
            .ok_or_else(|| DomainError::InvalidField {
                field: "model",
                message: if self.models.is_empty() {
                    "this deployment has no model configured".to_owned()
                } else {
                    let names: Vec<_> = self.models.iter().map(|m| m.name.as_str()).collect();
                    format!(
                        "no model is named `{asked}`; GET /api/v1/models lists them ({})",
                        names.join(", ")
                    )
                },
            })
    }
}

/// One model's share of a session's tokens, and what they cost when it has prices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelUsage {
    /// The model's name.
    pub model: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// In the prices' currency; absent when the model has no prices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

/// A session's tokens by model, in the order the models were first used. A list rather
/// than a map keyed by name: names may hold `.` and `$`, which document stores refuse
/// in keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UsageByModel(Vec<ModelUsage>);

impl UsageByModel {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn entries(&self) -> &[ModelUsage] {
        &self.0
    }

    pub fn add(&mut self, model: &str, usage: TokenUsage, cost: Option<f64>) {
        let at = match self.0.iter().position(|entry| entry.model == model) {
            Some(at) => at,
            None => {
                self.0.push(ModelUsage {
                    model: model.to_owned(),
                    prompt_tokens: 0,
                    completion_tokens: 0,
                    cost: None,
                });
                self.0.len() - 1
            }
        };
        let entry = &mut self.0[at];
        entry.prompt_tokens = entry.prompt_tokens.saturating_add(usage.prompt_tokens);
        entry.completion_tokens = entry.completion_tokens.saturating_add(usage.completion_tokens);
        if let Some(cost) = cost {
            entry.cost = Some(entry.cost.unwrap_or_default() + cost);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str) -> ModelInfo {
        ModelInfo {
            name: ModelName::parse(name).unwrap(),
            context_tokens: 8192,
            supports_tools: true,
            supports_images: false,
            prices: None,
        }
    }

    #[test]
    fn names_are_printable_and_bounded() {
        assert!(ModelName::parse("openai/gpt-4o").is_ok());
        assert!(ModelName::parse("qwen2.5-coder:7b").is_ok());
        assert!(ModelName::parse("").is_err());
        assert!(ModelName::parse("two words").is_err());
        assert!(ModelName::parse(&"x".repeat(129)).is_err());
    }

    #[test]
    fn the_catalogue_refuses_twins_and_a_default_it_lacks() {
        let name = |raw| ModelName::parse(raw).unwrap();
        let twins = ModelCatalog::new(vec![info("a"), info("a")], &name("a"));
        assert!(twins.unwrap_err().to_string().contains("`a` is used twice"));
        let stray = ModelCatalog::new(vec![info("a"), info("b")], &name("c"));
        assert!(stray
            .unwrap_err()
            .to_string()
            .contains("`c` is not one of the models (a, b)"));
        let catalog = ModelCatalog::new(vec![info("a"), info("b")], &name("b")).unwrap();
        assert_eq!(catalog.default_model().unwrap().name, name("b"));
        assert_eq!(catalog.pick(None).unwrap().unwrap().name, name("b"));
        assert_eq!(catalog.pick(Some("a")).unwrap().unwrap().name, name("a"));
        assert!(matches!(
            catalog.pick(Some("nope")),
            Err(DomainError::InvalidField { field: "model", .. })
        ));
    }

    #[test]
    fn costs_follow_the_prices_per_million() {
        let prices = Prices::parse(2.0, 10.0).unwrap();
        let usage = TokenUsage {
            prompt_tokens: 500_000,
            completion_tokens: 100_000,
        };
        assert!((prices.cost(usage) - 2.0).abs() < 1e-9);
        assert!(Prices::parse(-1.0, 1.0).is_err());
        assert!(Prices::parse(f64::NAN, 1.0).is_err());
    }
}
