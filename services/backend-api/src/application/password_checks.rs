//! Every password hash and verification (sign-in, sign-up, password change) goes
//! through here: at most `at_once` run at a time (per replica, as many as the hashing
//! threads), the next `queue` wait their turn in arrival order for up to `wait`, and
//! any beyond are refused at once. A refusal is `503` with `Retry-After`: the server is
//! busy, the person did nothing wrong, and nothing counts towards the sign-in limits.
//!
//! Admission does not depend on the account, so it opens no timing side channel about
//! which accounts exist.

use std::sync::Arc;

use super::error::AppResult;
use super::turns::{TurnSettings, Turns};
use crate::domain::ports::PasswordHasher;
use crate::domain::user::Password;

/// Checks running at once (`at_once`), waiting (`queue`) and the longest wait.
pub type PasswordCheckSettings = TurnSettings;

pub struct PasswordChecks {
    hasher: Arc<dyn PasswordHasher>,
    turns: Turns,
}

impl PasswordChecks {
    pub fn new(hasher: Arc<dyn PasswordHasher>, settings: PasswordCheckSettings) -> Self {
        Self {
            hasher,
            turns: Turns::new(settings, "checking many passwords"),
        }
    }

    pub async fn hash(&self, password: &Password) -> AppResult<String> {
        let _turn = self.turns.take().await?;
        Ok(self.hasher.hash(password).await?)
    }

    /// `false` also for a hash that cannot be parsed.
    pub async fn verify(&self, password: &str, hash: &str) -> AppResult<bool> {
        let _turn = self.turns.take().await?;
        Ok(self.hasher.verify(password, hash).await)
    }

    /// A valid hash no password matches, to verify against when there is no account.
    pub fn decoy(&self) -> &str {
        self.hasher.decoy()
    }

    /// Checks waiting for a turn now.
    pub fn waiting(&self) -> usize {
        self.turns.waiting()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::AppError;
    use crate::domain::DomainResult;
    use std::time::Duration;
    use tokio::sync::Semaphore;
    /// Answers once released (one permit per answer); every password but "wrong" matches.
    struct Gate(Semaphore);

    impl Gate {
        async fn released(&self) {
            self.0.acquire().await.unwrap().forget();
        }
    }

    #[async_trait::async_trait]
    impl PasswordHasher for Gate {
        async fn hash(&self, _: &Password) -> DomainResult<String> {
            self.released().await;
            Ok("hash".into())
        }
        async fn verify(&self, password: &str, _: &str) -> bool {
            self.released().await;
            password != "wrong"
        }
        fn decoy(&self) -> &str {
            "decoy"
        }
    }

    fn checks(at_once: usize, queue: usize, wait: Duration) -> (Arc<Gate>, Arc<PasswordChecks>) {
        let gate = Arc::new(Gate(Semaphore::new(0)));
        let settings = PasswordCheckSettings { at_once, queue, wait };
        (gate.clone(), Arc::new(PasswordChecks::new(gate, settings)))
    }

    async fn until_waiting(checks: &PasswordChecks, n: usize) {
        while checks.waiting() != n {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn checks_beyond_the_cap_wait_their_turn_and_the_queue_is_bounded() {
        let (gate, checks) = checks(1, 2, Duration::from_secs(3600));
        let running = tokio::spawn({
            let checks = checks.clone();
            async move { checks.verify("right", "h").await }
        });
        tokio::task::yield_now().await;
        let queued: Vec<_> = ["right", "wrong"]
            .into_iter()
            .map(|password| {
                let checks = checks.clone();
                tokio::spawn(async move { checks.verify(password, "h").await })
            })
            .collect();
        until_waiting(&checks, 2).await;
        let refused = checks.verify("right", "h").await;
        assert!(
            matches!(
                refused,
                Err(AppError::Busy {
                    retry_after_secs: 3600,
                    ..
                })
            ),
            "{refused:?}"
        );
        let hashing = checks
            .hash(&Password::parse("correct horse battery").unwrap())
            .await;
        assert!(matches!(hashing, Err(AppError::Busy { .. })), "the same pool");
        gate.0.add_permits(3);
        assert!(running.await.unwrap().unwrap());
        let answers: Vec<bool> = futures::future::join_all(queued)
            .await
            .into_iter()
            .map(|answer| answer.unwrap().unwrap())
            .collect();
        assert_eq!(answers, [true, false]);
        assert_eq!(checks.waiting(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_check_that_waits_too_long_is_refused_and_gives_its_place_back() {
        let (gate, checks) = checks(1, 1, Duration::from_secs(5));
        let running = tokio::spawn({
            let checks = checks.clone();
            async move { checks.verify("right", "h").await }
        });
        tokio::task::yield_now().await;
        let refused = checks.verify("right", "h").await;
        assert!(
            matches!(
                refused,
                Err(AppError::Busy {
                    retry_after_secs: 5,
                    ..
                })
            ),
            "{refused:?}"
        );
        assert_eq!(checks.waiting(), 0);
        gate.0.add_permits(1);
        assert!(running.await.unwrap().unwrap());
    }
}
