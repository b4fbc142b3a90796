//! Webhook deliveries: `POST /api/v1/hooks/{trigger_id}`, signed with the trigger's
//! secret as `sha256=<hex HMAC-SHA256 of the body>` (compared in constant time), run
//! once per delivery key (its `Idempotency-Key` header, else the trigger's key
//! expression over the body), and only when the trigger's filter holds. A delivery that is
//! not signed right runs nothing and says no more than that. One that made no job (the
//! queue full, the store failing) is 503 and its key is released, so a retry runs.
//! Deliveries take turns before their bodies are read
//! ([`super::AutomationSettings::deliveries`]), so a flood of them, signed or not, holds
//! a bounded amount of memory.

use std::sync::Arc;

use chrono::Utc;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use tokio::sync::SemaphorePermit;

use super::runs::Fire;
use super::template::{self, Payload};
use super::AutomationService;
use crate::application::error::{AppError, AppResult};
use crate::domain::automation::{Automation, FiredBy, TriggerKind};
use crate::domain::ids::TriggerId;
use crate::domain::job::JobId;

/// What a sender whose delivery could not start a run is told to wait.
const RETRY_SECS: u64 = 30;

/// Longest delivery key kept.
const MAX_KEY_CHARS: usize = 200;

/// One delivery as it came.
pub struct Delivery<'a> {
    /// The signature header's value (`sha256=<hex>`).
    pub signature: Option<&'a str>,
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
        let Some(TriggerKind::Webhook { secret, filter, key }) =
            automation.webhook(&trigger).map(|t| &t.kind)
        else {
            return Err(AppError::NotFound("webhook"));
        };
        if !signed(secret, delivery.signature, delivery.body) {
            return Err(AppError::Unauthorized(
                "the delivery is not signed with this webhook's secret (X-Sandpiper-Signature: \
                 sha256=<hex HMAC-SHA256 of the body>)"
                    .into(),
            ));
        }
        if !automation.enabled {
            return Ok(Delivered::NotRun("the automation is paused".into()));
        }
        let body = serde_json::from_slice(delivery.body).unwrap_or_else(|_| {
            serde_json::Value::String(String::from_utf8_lossy(delivery.body).into_owned())
        });
        let now = Utc::now();
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
        let key = match delivery.key {
            Some(header) => Some(header.to_owned()),
            None => key.as_ref().and_then(|key| template::text_of(key, &payload)),
        };
        let mut fire = Fire::new(FiredBy::Webhook, Some(trigger.clone()), now);
        fire.body = body;
        let run = fire.run.clone();
        if let Some(key) = &key {
            if key.is_empty() || key.chars().count() > MAX_KEY_CHARS {
                return Err(AppError::InvalidField {
                    field: "Idempotency-Key",
                    message: format!("a delivery key has 1 to {MAX_KEY_CHARS} characters"),
                });
            }
            if let Some(earlier) = self.store.first_delivery(&trigger, key, &run).await? {
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
            if let Some(key) = &key {
                self.store.forget_delivery(&trigger, key, &run).await?;
            }
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
}

/// Whether `signature` is `sha256=<hex>` of the body's HMAC-SHA256 under `secret`.
fn signed(secret: &str, signature: Option<&str>, body: &[u8]) -> bool {
    let Some(hex) = signature.and_then(|s| s.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Some(given) = decode_hex(hex) else {
        return false;
    };
    // HMAC takes keys of any length, so this cannot fail.
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("an HMAC key");
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &str, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(body);
        format!("sha256={}", service_kit::hex(&mac.finalize().into_bytes()))
    }

    #[test]
    fn only_the_right_signature_passes() {
        let body = br#"{"action":"opened"}"#;
        let right = sign("s3cret", body);
        assert!(signed("s3cret", Some(&right), body));
        assert!(!signed("other", Some(&right), body));
        assert!(!signed("s3cret", Some(&right), b"{}"));
        assert!(!signed("s3cret", None, body));
        assert!(!signed("s3cret", Some(right.trim_start_matches("sha256=")), body));
        assert!(!signed("s3cret", Some("sha256=zz"), body));
        assert!(!signed("s3cret", Some("sha256="), body));
    }
}
