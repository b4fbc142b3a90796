//! Jobs and automations wired and started: the jobs going before a restart followed again,
//! other replicas' jobs adopted, the automations' scheduler running.

use std::sync::{Arc, Weak};
use std::time::Duration;

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use super::agent::AgentParts;
use crate::application::automations::{AutomationService, AutomationSettings};
use crate::application::events::EventService;
use crate::application::jobs::{JobEnds, JobPorts, JobService, JobSettings};
use crate::application::turns::TurnSettings;
use crate::config::Settings;
use crate::infrastructure::stores::StoragePorts;
use crate::infrastructure::webhooks::HttpWebhooks;

/// Starts the jobs and automations; after the interrupted runs were failed, so the jobs
/// they carried fail with them.
pub(super) async fn start(
    settings: &Settings,
    stores: &StoragePorts,
    parts: &AgentParts,
    events: &Arc<EventService>,
    stopping: &CancellationToken,
) -> anyhow::Result<(Arc<JobService>, Arc<AutomationService>)> {
    let jobs = Arc::new(JobService::new(
        JobPorts {
            jobs: stores.jobs.clone(),
            attachments: stores.job_attachments.clone(),
            api_keys: stores.api_keys.clone(),
            webhooks: Arc::new(HttpWebhooks::new(settings.jobs.allow_private_webhooks)),
            kv: stores.kv.clone(),
        },
        parts.sessions.clone(),
        parts.agent.clone(),
        events.clone(),
        parts.files.clone(),
        JobSettings {
            max_running_per_person: settings.jobs.max_running_per_person.max(1),
            max_queued_per_person: settings.jobs.max_queued_per_person.max(1),
            default_timeout_secs: settings.jobs.default_timeout_secs,
            max_timeout_secs: settings.jobs.max_timeout_secs,
            max_attachment_bytes: settings.jobs.max_attachment_bytes,
            max_queued_attachment_bytes: settings.jobs.max_queued_attachment_bytes,
        },
        stopping.clone(),
    ));
    let automations = Arc::new(AutomationService::new(
        stores.automations.clone(),
        stores.users.clone(),
        jobs.clone(),
        parts.sessions.clone(),
        AutomationSettings {
            max_failures: settings.automations.max_failures.max(1),
            missed_after: Duration::from_secs(settings.automations.missed_after_secs),
            poll: Duration::from_secs(settings.automations.poll_secs.max(1)),
            max_webhook_bytes: settings.automations.max_webhook_bytes,
            signature_tolerance: chrono::Duration::seconds(
                settings
                    .automations
                    .signature_tolerance_secs
                    .min(i64::MAX as u64 / 1000) as i64,
            ),
            rotation_grace: chrono::Duration::seconds(
                settings
                    .automations
                    .rotation_grace_secs
                    .min(i64::MAX as u64 / 1000) as i64,
            ),
            deliveries: TurnSettings {
                at_once: settings.automations.webhooks_at_once,
                queue: settings.automations.webhooks_queue,
                wait: Duration::from_secs(settings.automations.webhooks_wait_secs),
            },
            public_url: settings.public_base()?,
            rules: parts.automation_rules,
        },
        stopping.clone(),
    ));
    // Before any job can end: each end of an automation's run is counted there.
    let ends: Weak<dyn JobEnds> = Arc::downgrade(&automations) as Weak<AutomationService>;
    jobs.on_end(ends);
    let resumed = jobs.resume().await.context("resuming jobs")?;
    if resumed > 0 {
        tracing::info!(resumed, "following the jobs that were going before the restart");
    }
    if settings.redis_url.is_some() {
        // Other replicas may start jobs, and die following them.
        jobs.keep_adopting(parts.lease / 4);
    }
    automations.start_scheduler();
    Ok((jobs, automations))
}
