//! `POST /api/v1/hooks/{trigger_id}`: a webhook delivery, no sign-in: signed with the
//! trigger's secret (`X-Sandpiper-Signature: t=…,v1=…` over its time and body, or
//! GitHub's `X-Hub-Signature-256`), read up to the operator's size limit.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Serialize;
use utoipa::ToSchema;

use super::super::error::ErrorBody;
use super::super::extract::{read_body, Path};
use super::super::AppState;
use crate::application::automations::hooks::{Delivered, Delivery};
use crate::application::webhook_signature::{Claim, HEADER as SIGNATURE};
use crate::application::AppResult;

const GITHUB_SIGNATURE: &str = "x-hub-signature-256";
const IDEMPOTENCY_KEY: &str = "idempotency-key";

#[derive(Serialize, ToSchema)]
pub struct DeliveryAnswer {
    /// The run's job; for a repeated `Idempotency-Key`, the one the first delivery
    /// started; absent when nothing ran.
    pub job_id: Option<String>,
    /// The key was seen before: nothing ran again.
    pub repeated: bool,
    /// Why nothing ran (the filter did not match, the automation is paused…).
    pub note: Option<String>,
}

/// Fires the automation whose webhook trigger this is. `202` with the run's job; `200`
/// for a delivery taken before (the same signature, the same value of the trigger's key,
/// or a repeated `Idempotency-Key`: the earlier job, no second run) or one that runs
/// nothing (the filter did not match, the automation is paused). Unsigned, badly signed
/// or signed at a time more than the tolerance (5 minutes) from the clock: `401`,
/// larger than allowed: `413`, broken off: `400`; nothing runs. An unknown
/// trigger is `404` before any of the body is read; so is `503` (with `Retry-After`) when
/// too many deliveries wait to be read.
#[utoipa::path(post, path = "/api/v1/hooks/{trigger_id}", tag = "automations",
    request_body(content = serde_json::Value, description = "the delivery (JSON is offered to the prompt and the filter as `body`; any other body as text)"),
    params(("trigger_id" = String, Path, description = "the webhook trigger's id"),
        ("X-Sandpiper-Signature" = Option<String>, Header, description = "t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" with the trigger's secret>"),
        ("X-Hub-Signature-256" = Option<String>, Header, description = "GitHub's signature, sha256=<hex HMAC-SHA256 of the body>, instead of X-Sandpiper-Signature"),
        ("Idempotency-Key" = Option<String>, Header, description = "the delivery's id: a repeat runs nothing")),
    responses((status = 202, body = DeliveryAnswer), (status = 200, body = DeliveryAnswer),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 503, description = "no run could start (the queue full, a store failing), or too many deliveries wait to be read; retry later", body = ErrorBody)),
    security(()))]
pub(super) async fn deliver(
    State(state): State<AppState>,
    Path(trigger): Path<String>,
    request: Request,
) -> AppResult<(StatusCode, axum::Json<DeliveryAnswer>)> {
    let hook = state.automations.hook(&trigger).await?;
    let _turn = state.automations.delivery_turn().await?;
    let headers: HeaderMap = request.headers().clone();
    let limit = state.automations.max_webhook_bytes();
    let body = read_body(request.into_body(), limit, || {
        format!("a delivery may be at most {} KiB", limit / 1024)
    })
    .await?;
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let signature = match header(SIGNATURE) {
        Some(value) => Some(Claim::Sandpiper(value)),
        None => header(GITHUB_SIGNATURE).map(Claim::GitHub),
    };
    let delivery = Delivery {
        signature,
        key: header(IDEMPOTENCY_KEY),
        body: &body,
    };
    let answer = |job_id: Option<String>, repeated, note| DeliveryAnswer {
        job_id,
        repeated,
        note,
    };
    Ok(match state.automations.deliver(hook, delivery).await? {
        Delivered::Started(job) => (
            StatusCode::ACCEPTED,
            axum::Json(answer(Some(job.as_str().to_owned()), false, None)),
        ),
        Delivered::Repeated(job) => (
            StatusCode::OK,
            axum::Json(answer(job.map(|j| j.as_str().to_owned()), true, None)),
        ),
        Delivered::NotRun(why) => (StatusCode::OK, axum::Json(answer(None, false, Some(why)))),
    })
}
