//! Webhook deliveries: `POST /api/v1/hooks/{trigger_id}`, signed with the trigger's
//! secret ([`webhook_signature`]: a signed time within the tolerance, or GitHub's body
//! signature), run at most once each, and only when the trigger's filter holds. What makes
//! a delivery "the same again" comes from signed data: the trigger's key expression over
//! the body, else the signature itself; an `Idempotency-Key` header (unsigned) can only
//! add a second key, never let a signed delivery run twice. A delivery that is not signed
//! right runs nothing and says no more than why. One that made no job (the queue full, the
//! store failing) is 503 and its keys are released, so a retry runs.
//! Deliveries take turns before their bodies are read
//! ([`super::AutomationSettings::deliveries`]), so a flood of them, signed or not, holds
//! a bounded amount of memory.

use std::sync::Arc;

use chrono::Utc;
use tokio::sync::SemaphorePermit;

use super::runs::Fire;
use super::template::{self, Payload};
use super::AutomationService;
use crate::application::error::{AppError, AppResult};
use crate::application::webhook_signature::{self, Claim};
use crate::domain::automation::{Automation, FiredBy, TriggerKind};
use crate::domain::ids::{RunId, TriggerId};
use crate::domain::job::JobId;

/// What a sender whose delivery could not start a run is told to wait.
const RETRY_SECS: u64 = 30;

/// Longest delivery key kept.
const MAX_KEY_CHARS: usize = 200;

/// One delivery as it came.
pub struct Delivery<'a> {
    /// Its signature, by the header it came in.
    pub signature: Option<Claim<'a>>,
    /// The sender's delivery id (`Idempotency-Key`); a repeat runs nothing.
    pub key: Option<&'a str>,
    pub body: &'a [u8],
}

/// A webhook trigger found, before its delivery's body is read: an unknown one costs
/// the sender no upload.
pub struct Hook {
    automation: Automation,
    trigger: TriggerId,
}

/// What a delivery did.
pub enum Delivered {
    /// A run started, with its job.
    Started(JobId),
    /// The delivery's key was seen before: the job it started then (if it started one).
    Repeated(Option<JobId>),
    /// The filter did not hold, or the automation is paused (why).
    NotRun(String),
}

impl AutomationService {
    /// A turn to read and fire a delivery, taken after its trigger was found and before
    /// its body is read, held until it has fired: `Busy` when too many wait.
    pub async fn delivery_turn(&self) -> AppResult<SemaphorePermit<'_>> {
        self.deliveries.take().await
    }

    /// The webhook trigger of that id: `NotFound` unless it is one whose owner is active.
    pub async fn hook(&self, trigger: &str) -> AppResult<Hook> {
        let unknown = || AppError::NotFound("webhook");
        let trigger = TriggerId::parse(trigger).map_err(|_| unknown())?;
        let automation = self.store.by_trigger(&trigger).await?.ok_or_else(unknown)?;
        if automation.webhook(&trigger).is_none() || !self.owner_active(&automation.owner).await? {
            return Err(unknown());
        }
        Ok(Hook { automation, trigger })
    }

    pub async fn deliver(self: &Arc<Self>, hook: Hook, delivery: Delivery<'_>) -> AppResult<Delivered> {
        let Hook { automation, trigger } = hook;
        let Some(found) = automation.webhook(&trigger) else {
            return Err(AppError::NotFound("webhook"));
        };
        let TriggerKind::Webhook { filter, key, .. } = &found.kind else {
            return Err(AppError::NotFound("webhook"));
        };
        let now = Utc::now();
        let signature = webhook_signature::verify(
            delivery.signature,
            &found.kind.webhook_secrets(now),
            delivery.body,
            now,
            self.settings.signature_tolerance.num_seconds(),
        )
        .map_err(|refused| AppError::Unauthorized(refused.to_string()))?;
        if !automation.enabled {
            return Ok(Delivered::NotRun("the automation is paused".into()));
        }
        let body = serde_json::from_slice(delivery.body).unwrap_or_else(|_| {
            serde_json::Value::String(String::from_utf8_lossy(delivery.body).into_owned())
        });
        let payload = Payload {
            fired_at: now,
            trigger: "webhook",
            body: &body,
        };
        if filter
            .as_ref()
            .is_some_and(|filter| !template::matches(filter, &payload))
        {
            return Ok(Delivered::NotRun("the trigger's filter did not match".into()));
        }
        // The signed key first, so an unsigned one can never stand in for it.
        let signed = match key.as_ref().and_then(|key| template::text_of(key, &payload)) {
            Some(text) => format!("key:{}", checked_key(&text, "key")?),
            None => format!("signature:{signature}"),
        };
        let mut keys = vec![signed];
        if let Some(header) = delivery.key {
            keys.push(format!("header:{}", checked_key(header, "Idempotency-Key")?));
        }
        let mut fire = Fire::new(FiredBy::Webhook, Some(trigger.clone()), now);
        fire.body = body;
        let run = fire.run.clone();
        for (taken, key) in keys.iter().enumerate() {
            if let Some(earlier) = self.store.first_delivery(&trigger, key, &run).await? {
                self.release(&trigger, &keys[..taken], &run).await?;
                let earlier = self.store.run(&automation.id, &earlier).await?;
                return Ok(Delivered::Repeated(earlier.and_then(|run| run.job_id)));
            }
        }
        let fired = self.fire(&automation, fire).await;
        let made = match &fired {
            Ok(done) => done.job_id.clone(),
            Err(_) => None,
        };
        if made.is_none() {
            self.release(&trigger, &keys, &run).await?;
        }
        match (fired?, made) {
            (_, Some(job)) => Ok(Delivered::Started(job)),
            (done, None) => Err(AppError::Busy {
                reason: format!(
                    "the run could not start ({}); send the delivery again later",
                    done.note.unwrap_or_default()
                ),
                retry_after_secs: RETRY_SECS,
            }),
        }
    }

    /// Gives back the delivery keys `run` took, so a retry of a delivery that ran
    /// nothing runs.
    async fn release(&self, trigger: &TriggerId, keys: &[String], run: &RunId) -> AppResult<()> {
        for key in keys {
            self.store.forget_delivery(trigger, key, run).await?;
        }
        Ok(())
    }
}

/// A delivery key as given, if it has 1 to [`MAX_KEY_CHARS`] characters.
fn checked_key<'a>(key: &'a str, field: &'static str) -> AppResult<&'a str> {
    if key.is_empty() || key.chars().count() > MAX_KEY_CHARS {
        return Err(AppError::InvalidField {
            field,
            message: format!("a delivery key has 1 to {MAX_KEY_CHARS} characters"),
        });
    }
    Ok(key)
}
