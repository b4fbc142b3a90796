//! A service's router, assembled the same way for every service: the public routes and
//! `/openapi.json` open, the rest behind the bearer token (which the document declares),
//! JSON answers for a missing route or method, one body limit, and request tracing.

use std::sync::Arc;

use axum::Router;
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::OpenApi;
use utoipa::Modify;
use utoipa_axum::router::OpenApiRouter;

use crate::api_error::{ApiError, KitCode};
use crate::auth::{require_token, ExpectedToken};
use crate::OPAQUE_BEARER;

/// A service's routes, split into those anyone may call and those behind the token, with
/// the OpenAPI document describing both.
pub struct ServiceRoutes<S> {
    public: Router<S>,
    protected: Router<S>,
    doc: OpenApi,
}

impl<S: Clone + Send + Sync + 'static> ServiceRoutes<S> {
    /// `doc` is the service's document (its title and description); the bearer scheme
    /// every route needs unless it says otherwise, and the routes' own `#[utoipa::path]`s,
    /// are added to it.
    pub fn split(mut doc: OpenApi, public: OpenApiRouter<S>, protected: OpenApiRouter<S>) -> Self {
        OPAQUE_BEARER.modify(&mut doc);
        doc.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
        let (public, mut doc) = OpenApiRouter::with_openapi(doc).merge(public).split_for_parts();
        let (protected, protected_doc) = protected.split_for_parts();
        doc.merge(protected_doc);
        Self {
            public,
            protected,
            doc,
        }
    }

    /// The router: protected routes answer `401` without `token`; bodies over
    /// `body_limit` bytes are refused.
    pub fn into_router(self, token: ExpectedToken, body_limit: usize) -> Router<S> {
        let doc = Arc::new(self.doc);
        let protected = self
            .protected
            .layer(axum::middleware::from_fn_with_state(token, require_token));
        Router::new()
            .merge(self.public)
            .route(
                "/openapi.json",
                axum::routing::get(move || async move { axum::Json(OpenApi::clone(&doc)) }),
            )
            .merge(protected)
            .fallback(|| async { ApiError::kit(KitCode::NotFound, "no such route") })
            .method_not_allowed_fallback(|| async {
                ApiError::kit(KitCode::MethodNotAllowed, "this route does not take that method")
            })
            .layer(axum::extract::DefaultBodyLimit::max(body_limit))
            .layer(tower_http::trace::TraceLayer::new_for_http())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_declares_the_bearer_token_for_every_route() {
        let routes =
            ServiceRoutes::<()>::split(OpenApi::default(), OpenApiRouter::new(), OpenApiRouter::new());
        let doc = serde_json::to_value(routes.doc).unwrap();
        assert_eq!(doc["security"], serde_json::json!([{"bearer": []}]));
        assert_eq!(
            doc["components"]["securitySchemes"]["bearer"],
            serde_json::json!({"type": "http", "scheme": "bearer"})
        );
    }
}
