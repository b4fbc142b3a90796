//! What an ended (or waiting) job tells the outside: its tokens added to its API key's,
//! the job sent to its webhook, signed with its time ([`webhook_signature`]) at each
//! attempt and retried with back-off, and
//! its end told to whoever listens for ends ([`JobEnds`]: the automations).

use std::sync::Weak;
use std::time::Duration;

use chrono::Utc;

use super::views::JobDetail;
use super::JobService;
use crate::application::webhook_signature;
use crate::domain::job::Job;

/// Calls of a webhook before it is given up: the first, then retries after 1, 2, 4 and
/// 8 seconds.
const WEBHOOK_ATTEMPTS: u32 = 5;
const WEBHOOK_FIRST_RETRY: Duration = Duration::from_secs(1);

/// Told of every job's end, once: by the replica whose update ended it, so a restart or
/// a second replica never repeats an end (a replica killed between the update and the
/// telling loses that one).
#[async_trait::async_trait]
pub trait JobEnds: Send + Sync {
    async fn ended(&self, job: &Job);
}

impl JobService {
    /// Tells `listener` of every job that ends from now on. There is one listener; a
    /// second call changes nothing.
    pub fn on_end(&self, listener: Weak<dyn JobEnds>) {
        let _ = self.ends.set(listener);
    }

    pub(super) async fn tell_ended(&self, job: &Job) {
        if let Some(listener) = self.ends.get().and_then(Weak::upgrade) {
            listener.ended(job).await;
        }
    }

    /// Adds the ended job's session's tokens to its API key's, if it was made with one. A
    /// failure is logged: the job's own usage stays right, only the key's count lags.
    pub(super) async fn charge(&self, job: &Job) {
        let Some(key) = &job.api_key else {
            return;
        };
        let usage = match self.sessions.get(&job.owner, job.session_id.as_str()).await {
            Ok(session) => session.usage,
            Err(err) => {
                tracing::error!(job = job.id.as_str(), %err, "reading a job's usage for its key");
                return;
            }
        };
        if usage.is_empty() {
            return;
        }
        if let Err(err) = self.api_keys.add_tokens(key, usage).await {
            tracing::error!(job = job.id.as_str(), %err, "adding a job's tokens to its key");
        }
    }

    /// Sends the job to its webhook, if it has one, in a task of its own: a slow receiver
    /// holds up nothing. A failure to make the body is logged, as is a receiver that
    /// never accepts it.
    pub(super) async fn notify(&self, job: &Job) {
        let Some(webhook) = job.webhook.clone() else {
            return;
        };
        let body = match self.report_of(job.clone()).await {
            Ok(report) => serde_json::to_vec(&JobDetail::from(&report)).map_err(anyhow::Error::from),
            Err(err) => Err(anyhow::Error::from(err)),
        };
        let body = match body {
            Ok(body) => body,
            Err(err) => {
                tracing::error!(job = job.id.as_str(), %err, "making a webhook's body");
                return;
            }
        };
        let sender = self.webhooks.clone();
        let id = job.id.clone();
        tokio::spawn(async move {
            let mut pause = WEBHOOK_FIRST_RETRY;
            for attempt in 1..=WEBHOOK_ATTEMPTS {
                // Signed at each attempt, so a receiver's tolerance holds for retries.
                let signature = webhook_signature::sign(&webhook.secret, Utc::now(), &body);
                match sender.post(&webhook.url, &body, &signature).await {
                    Ok(()) => return,
                    Err(err) if attempt == WEBHOOK_ATTEMPTS => {
                        tracing::warn!(job = id.as_str(), %err, "a webhook was given up");
                    }
                    Err(err) => {
                        tracing::info!(job = id.as_str(), %err, attempt, "a webhook call failed; retrying");
                        tokio::time::sleep(pause).await;
                        pause *= 2;
                    }
                }
            }
        });
    }
}
