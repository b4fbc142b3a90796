//! What every saved automation is held to, from the operator's settings: how many one
//! person may have, each run's time limit, how often an automation may fire, and how
//! much its files may hold. Checked
//! wherever an automation is saved — the API and the agent's tool alike — so neither
//! can make what the other would refuse.

use std::time::Duration;

use chrono::Utc;

use crate::application::error::{AppError, AppResult};
use crate::application::sessions::MAX_ATTACHMENTS;
use crate::domain::automation::{next_runs_of, Automation, Trigger};
use crate::domain::error::DomainError;
use crate::domain::job::JobTimeout;
use crate::domain::job_attachment::{JobAttachment, JobFile, NewAttachment};
use crate::domain::ports::AutomationRepository;

/// Fire times of a schedule looked at for the shortest gap between two.
const SAMPLED_FIRES: usize = 100;

#[derive(Debug, Clone, Copy)]
pub struct AutomationRules {
    /// The automations one person may have; more are refused (409).
    pub max_per_person: usize,
    /// A job's longest time limit, which a run's `timeout_secs` is held to.
    pub max_timeout_secs: u64,
    /// The shortest time an automation's triggers together may leave between two fires.
    pub min_interval: Duration,
    /// What an automation's files may hold together: at most what a job's may (each run's
    /// job gets them all) and [`MAX_FILES_BYTES`](crate::domain::automation::MAX_FILES_BYTES).
    pub max_file_bytes: u64,
}

impl AutomationRules {
    /// `InvalidField` naming `timeout_secs` when no job could have it: caught when saved,
    /// not at every fire.
    pub fn check_timeout(&self, secs: Option<u64>) -> AppResult<()> {
        if let Some(secs) = secs {
            JobTimeout::parse(secs, self.max_timeout_secs)?;
        }
        Ok(())
    }

    /// The files `sent`, decoded and checked together with those `kept`: plain distinct
    /// names, at most [`MAX_ATTACHMENTS`] files (`InvalidField` naming `attachments`), at
    /// most [`AutomationRules::max_file_bytes`] (`TooLarge`, saying the cap). A file sent
    /// under a kept one's name replaces it.
    pub fn check_files(&self, sent: Vec<NewAttachment>, kept: &[JobAttachment]) -> AppResult<Vec<JobFile>> {
        let too_large = || {
            AppError::TooLarge(format!(
                "an automation's files may hold at most {} KiB together",
                self.max_file_bytes / 1024
            ))
        };
        let sent = sent.into_iter().map(|file| (file.name, file.content_base64));
        let files =
            JobFile::parse_all(sent, MAX_ATTACHMENTS, self.max_file_bytes).map_err(|err| match err {
                DomainError::TooLarge(_) => too_large(),
                other => other.into(),
            })?;
        let still: Vec<&JobAttachment> = kept
            .iter()
            .filter(|old| files.iter().all(|file| file.name != old.name))
            .collect();
        if still.len() + files.len() > MAX_ATTACHMENTS {
            return Err(AppError::InvalidField {
                field: "attachments",
                message: format!("at most {MAX_ATTACHMENTS} files"),
            });
        }
        let bytes: u64 = still.iter().map(|old| old.size).sum::<u64>()
            + files.iter().map(|file| file.content.len() as u64).sum::<u64>();
        if bytes > self.max_file_bytes {
            return Err(too_large());
        }
        Ok(files)
    }

    /// Stores the new automation; `Conflict` when its owner already has as many as one
    /// may (the store counts and inserts in one step, so racing creations cannot pass).
    pub async fn insert_within_cap(
        &self,
        store: &dyn AutomationRepository,
        new: &Automation,
    ) -> AppResult<()> {
        let max = self.max_per_person;
        if !store.insert(new, max).await? {
            return Err(AppError::Conflict(format!(
                "you have {max} automations, the most one person may have (or others were being \
                 made at the same moment: then try again); delete one first"
            )));
        }
        Ok(())
    }

    /// `InvalidField` naming `cron` when two of the automation's next fires, of all its
    /// triggers together, are closer than [`AutomationRules::min_interval`].
    pub fn check_interval(&self, triggers: &[Trigger]) -> AppResult<()> {
        let fires = next_runs_of(triggers, Utc::now(), SAMPLED_FIRES);
        let shortest = fires
            .windows(2)
            .map(|pair| (pair[1] - pair[0]).to_std().unwrap_or_default())
            .min();
        match shortest {
            Some(gap) if gap < self.min_interval => Err(AppError::InvalidField {
                field: "cron",
                message: format!(
                    "this automation would fire {} s apart; it may fire at most once every {} s",
                    gap.as_secs(),
                    self.min_interval.as_secs()
                ),
            }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::automation::TriggerKind;

    fn rules(min_secs: u64) -> AutomationRules {
        AutomationRules {
            max_per_person: 10,
            max_timeout_secs: 3600,
            min_interval: Duration::from_secs(min_secs),
            max_file_bytes: 4,
        }
    }

    fn schedules(crons: &[&str]) -> Vec<Trigger> {
        crons
            .iter()
            .map(|cron| Trigger {
                id: crate::domain::ids::TriggerId::new(),
                kind: TriggerKind::Schedule {
                    cron: (*cron).into(),
                    timezone: "Europe/Berlin".into(),
                },
            })
            .collect()
    }

    #[test]
    fn an_automation_firing_more_often_than_allowed_is_refused_naming_cron() {
        let every_ten_seconds = schedules(&["*/10 * * * * *"]);
        let err = rules(60).check_interval(&every_ten_seconds).unwrap_err();
        assert!(
            matches!(&err, AppError::InvalidField { field: "cron", message } if message.contains("10 s apart")),
            "{err:?}"
        );
        assert!(rules(10).check_interval(&every_ten_seconds).is_ok());
        // Two fires a minute apart once a day: the gap, not the daily rate, counts.
        let twice_at_nine = schedules(&["0,1 9 * * *"]);
        assert!(rules(60).check_interval(&twice_at_nine).is_ok());
        assert!(rules(61).check_interval(&twice_at_nine).is_err());
        // Each trigger once a minute, together every 6 s: the automation is held to it.
        let staggered = schedules(&["0 * * * * *", "6 * * * * *", "12 * * * * *"]);
        assert!(rules(60).check_interval(&staggered).is_err());
    }

    #[test]
    fn a_time_limit_past_a_jobs_is_refused_naming_it() {
        let err = rules(60).check_timeout(Some(3601)).unwrap_err();
        assert!(
            matches!(
                err,
                AppError::InvalidField {
                    field: "timeout_secs",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(rules(60).check_timeout(Some(3600)).is_ok());
        assert!(rules(60).check_timeout(None).is_ok());
    }
}
