//! What pauses an automation: failed runs in a row (counted in `runs.rs`), and what
//! happens outside it — its owner's account deactivated, or the API key it was made with
//! revoked (its runs would act for a key that no longer may). Every pause is the same:
//! `enabled` off, no next fire, the reason in `paused_reason` and in the history.
//! Enabling it again is the person's.

use chrono::Utc;

use super::runs::Fire;
use super::AutomationService;
use crate::application::error::AppResult;
use crate::domain::api_key::ApiKeyId;
use crate::domain::automation::FiredBy;
use crate::domain::ids::AutomationId;
use crate::domain::user::UserId;

impl AutomationService {
    /// Pauses every enabled automation of `owner` (only those made with `made_with`,
    /// when named), saying `why`; how many it paused.
    pub async fn pause_all(
        &self,
        owner: &UserId,
        made_with: Option<&ApiKeyId>,
        why: &str,
    ) -> AppResult<usize> {
        let mut paused = 0;
        for automation in self.store.list_for(owner).await? {
            let chosen = made_with.is_none_or(|key| automation.api_key.as_ref() == Some(key));
            if !automation.enabled || !chosen {
                continue;
            }
            let changed = self
                .update(&automation.id, |automation| {
                    if automation.enabled {
                        automation.pause(why.to_owned());
                    }
                })
                .await?;
            if changed.is_some() {
                self.record_pause(&automation.id, why.to_owned()).await;
                paused += 1;
            }
        }
        self.wake.notify_one();
        Ok(paused)
    }

    /// Says in the history that the automation paused, and why.
    pub(super) async fn record_pause(&self, id: &AutomationId, why: String) {
        let mut entry = Fire::new(FiredBy::Paused, None, Utc::now());
        entry.note = Some(why);
        if let Err(err) = self.record(&entry.entry(id)).await {
            tracing::error!(automation = id.as_str(), %err, "recording a pause");
        }
    }
}
