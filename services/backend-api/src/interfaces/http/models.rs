//! `/api/v1/models`: the models a person may pick for a session or a job, with what
//! each can do and costs — never where a model lives or its key.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::ErrorBody;
use super::extract::CurrentUser;
use super::AppState;
use crate::application::AppResult;
use crate::domain::model::{ModelInfo, Prices};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

/// One offered model.
#[derive(Serialize, ToSchema)]
pub struct ModelView {
    /// What a session's or a job's `model` names.
    pub name: String,
    /// The context window, in tokens.
    pub context_tokens: u32,
    /// Whether it calls tools; the agent cannot work with a model that does not.
    pub supports_tools: bool,
    pub supports_images: bool,
    /// What a million tokens cost, when the operator gave prices.
    pub prices: Option<Prices>,
    /// The model a session or job gets when it names none.
    pub default: bool,
}

/// The offered models, the default first; empty when none is configured.
#[derive(Serialize, ToSchema)]
pub struct ModelList {
    pub models: Vec<ModelView>,
}

impl ModelView {
    fn new(model: &ModelInfo, default: bool) -> Self {
        Self {
            name: model.name.as_str().to_owned(),
            context_tokens: model.context_tokens,
            supports_tools: model.supports_tools,
            supports_images: model.supports_images,
            prices: model.prices,
            default,
        }
    }
}

/// The models the caller may pick (an API key of scope `jobs` may ask too).
#[utoipa::path(get, path = "/api/v1/models", tag = "models",
    responses((status = 200, body = ModelList), (status = 401, body = ErrorBody)))]
async fn list(State(state): State<AppState>, _caller: CurrentUser) -> AppResult<axum::Json<ModelList>> {
    let models = state
        .sessions
        .models()
        .list()
        .iter()
        .enumerate()
        .map(|(i, model)| ModelView::new(model, i == 0))
        .collect();
    Ok(axum::Json(ModelList { models }))
}
