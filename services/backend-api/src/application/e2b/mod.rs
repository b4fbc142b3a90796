//! Sandboxes rented through the E2B-compatible API: creating one (a record, then the
//! sandbox-manager's sandbox for it, then its environment), finding, listing, extending,
//! pausing (the container ends, the files stay), resuming and killing the caller's own,
//! ending or pausing those whose time is up (on whichever replica looks first: the
//! store's remove decides who ends one), and admitting a data-plane request by the
//! sandbox's access token.
//!
//! # Layout
//! - `changes.rs` — changing a record only from the reading it was made from.
//! - `tokens.rs` — the sandbox's access and traffic tokens, HMACs of its id.
//! - `found.rs` — where each running sandbox's tool-api was found, for a moment.
//! - `listing.rs` — the owner's sandboxes, filtered, ordered by start and paged.
//! - `reach.rs` — reaching a running sandbox: a data-plane request admitted, its metrics.
//! - `signed.rs` — a signed file URL admitted by the running sandbox whose token signed it.
//! - `running.rs` — everyone's running sandboxes, read at a bounded pace for those links.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, SubsecRound, Utc};
use tokio_util::sync::CancellationToken;

mod changes;
mod found;
mod listing;
mod reach;
mod running;
mod signed;
mod tokens;

use super::{AppError, AppResult};
use crate::domain::e2b::{E2bSandbox, E2bSandboxId, E2bState, E2bTimeout, Template};
use crate::domain::ports::{
    E2bSandboxRepository, PausableSandboxes, SandboxEnvironment, Updated, UserRepository,
};
use crate::domain::session::Network;
use crate::domain::user::UserId;
use changes::{changed_too_often, CHANGE_ATTEMPTS};
use found::Found;
use running::Running;
use tokens::TokenKeys;

pub use listing::{Cursor, Order, Page, SandboxFilter};
pub use signed::{FileOperation, SignedFile};
pub use tokens::SandboxTokens;

/// How long a new sandbox's record is kept while its sandbox starts (longer than the
/// manager takes to give up on a start); the start then sets the end it asked for.
const START_GRACE_SECS: i64 = 600;

/// What a caller asks for, parsed.
pub struct NewSandbox {
    pub template: Template,
    pub timeout: E2bTimeout,
    pub metadata: BTreeMap<String, String>,
    pub env_vars: BTreeMap<String, String>,
    pub network: Network,
    /// Paused rather than ended when its time is up.
    pub auto_pause: bool,
}

/// What a connect did.
pub struct Connected {
    pub sandbox: E2bSandbox,
    pub tokens: SandboxTokens,
    /// It was paused and runs again (E2B answers 201 then, 200 otherwise).
    pub resumed: bool,
}

pub struct E2bService {
    sandboxes: Arc<dyn E2bSandboxRepository>,
    /// Whose sandboxes may be reached: a deactivated owner's may not.
    users: Arc<dyn UserRepository>,
    gateway: Arc<dyn PausableSandboxes>,
    environment: Arc<dyn SandboxEnvironment>,
    keys: TokenKeys,
    found: Found,
    running: Running,
}

impl E2bService {
    /// `secret` keys the access tokens; the server's token secret serves.
    pub fn new(
        sandboxes: Arc<dyn E2bSandboxRepository>,
        users: Arc<dyn UserRepository>,
        gateway: Arc<dyn PausableSandboxes>,
        environment: Arc<dyn SandboxEnvironment>,
        secret: &str,
    ) -> Self {
        Self {
            sandboxes,
            users,
            gateway,
            environment,
            keys: TokenKeys::new(secret),
            found: Found::default(),
            running: Running::default(),
        }
    }

    /// A running sandbox for `owner`, with its tokens. A sandbox that could not be
    /// started leaves no record behind. One whose `timeout` is 0 is ended (or paused,
    /// with `auto_pause`) before this returns, as [`Self::set_timeout`] does.
    pub async fn create(&self, owner: &UserId, new: NewSandbox) -> AppResult<(E2bSandbox, SandboxTokens)> {
        let now = Utc::now();
        let sandbox = E2bSandbox {
            id: E2bSandboxId::new(),
            owner: owner.clone(),
            template: new.template,
            metadata: new.metadata,
            network: new.network,
            cpu_count: 0,
            memory_mb: 0,
            started_at: now,
            end_at: (now + chrono::Duration::seconds(START_GRACE_SECS)).trunc_subsecs(0),
            state: E2bState::Running,
            auto_pause: new.auto_pause,
            env_vars: new.env_vars,
        };
        // Stored first, so a sandbox whose start is cut short is still found and ended;
        // the sweep leaves it to start until its grace is over.
        self.sandboxes.insert(&sandbox).await?;
        let started = match self.start(&sandbox, new.timeout).await {
            Ok(started) => started,
            Err(err) => {
                self.end_surely(&sandbox.id).await;
                return Err(err);
            }
        };
        if new.timeout.is_zero() {
            self.end_now(&started).await?;
        }
        let tokens = self.keys.tokens(&started.id);
        Ok((started, tokens))
    }

    /// Starts the stored `sandbox` with its variables, then records its size and its end,
    /// `timeout` from now; `Gone` when it was killed, paused or ended while it started.
    async fn start(&self, sandbox: &E2bSandbox, timeout: E2bTimeout) -> AppResult<E2bSandbox> {
        let gone = || AppError::Gone("the sandbox was ended or paused while it was starting".into());
        let access = self
            .gateway
            .acquire_for_code(
                sandbox.id.session(),
                &sandbox.owner,
                Some(sandbox.network),
                sandbox.template.runs_code(),
            )
            .await?;
        self.environment.set(&access, &sandbox.env_vars).await?;
        let size = access.size;
        self.change(&sandbox.id, |sandbox| {
            if sandbox.state != E2bState::Running {
                return Err(gone());
            }
            sandbox.cpu_count = size.cpus.ceil() as u32;
            sandbox.memory_mb = size.memory_mb;
            sandbox.end_at = timeout.end_from(Utc::now());
            Ok(())
        })
        .await?
        .ok_or_else(gone)
    }

    /// The owner's sandbox; another person's is not found.
    pub async fn get(&self, owner: &UserId, id: &str) -> AppResult<E2bSandbox> {
        let id = E2bSandboxId::parse(id)?;
        match self.sandboxes.get(&id).await? {
            Some(sandbox) if &sandbox.owner == owner => Ok(sandbox),
            _ => Err(AppError::NotFound("sandbox")),
        }
    }

    /// Ends the owner's sandbox now.
    pub async fn kill(&self, owner: &UserId, id: &str) -> AppResult<()> {
        let sandbox = self.get(owner, id).await?;
        if !self.end(&sandbox.id).await {
            return Err(AppError::NotFound("sandbox"));
        }
        Ok(())
    }

    /// Ends every running sandbox of `owner` (their account was deactivated); paused ones
    /// keep their files and cannot be resumed meanwhile. How many ended.
    pub async fn end_all_of(&self, owner: &UserId) -> AppResult<usize> {
        let mut ended = 0;
        for sandbox in self.sandboxes.list(owner).await? {
            if sandbox.state == E2bState::Running && self.end(&sandbox.id).await {
                ended += 1;
            }
        }
        Ok(ended)
    }

    /// The running sandbox ends `timeout` from now, sooner or later than it would have;
    /// a timeout of 0 ends it (or pauses it, with `auto_pause`) before this returns.
    pub async fn set_timeout(&self, owner: &UserId, id: &str, timeout: E2bTimeout) -> AppResult<()> {
        let sandbox = self.get(owner, id).await?;
        let changed = self
            .change(&sandbox.id, |sandbox| {
                if sandbox.state == E2bState::Paused {
                    return Err(AppError::Conflict(
                        "the sandbox is paused: connect to it to resume it, with the timeout it should have"
                            .into(),
                    ));
                }
                sandbox.end_at = timeout.end_from(Utc::now());
                Ok(())
            })
            .await?
            .ok_or(AppError::NotFound("sandbox"))?;
        if timeout.is_zero() {
            // Not left to the sweep: the SDK's next call should find it ended.
            self.end_now(&changed).await?;
        }
        Ok(())
    }

    /// The owner's sandbox, running (a paused one resumes, with its files) and living at
    /// least `timeout` from now, with its tokens.
    pub async fn connect(&self, owner: &UserId, id: &str, timeout: E2bTimeout) -> AppResult<Connected> {
        for _ in 0..CHANGE_ATTEMPTS {
            let read = self.get(owner, id).await?;
            // The running sandbox, or a new one of the session on the files the paused
            // one left (also when the manager ended a running one, at its maximum
            // lifetime).
            let access = self
                .gateway
                .acquire_for_code(
                    read.id.session(),
                    owner,
                    Some(read.network),
                    read.template.runs_code(),
                )
                .await?;
            self.environment.set(&access, &read.env_vars).await?;
            let resumed = read.state == E2bState::Paused;
            let mut sandbox = read.clone();
            sandbox.end_at = if resumed {
                timeout.end_from(Utc::now())
            } else {
                sandbox.end_at.max(timeout.end_from(Utc::now()))
            };
            sandbox.state = E2bState::Running;
            match self.sandboxes.update(&sandbox, &read).await? {
                Updated::Stored => {
                    self.found.put(&sandbox.id, &access);
                    let tokens = self.keys.tokens(&sandbox.id);
                    return Ok(Connected {
                        sandbox,
                        tokens,
                        resumed,
                    });
                }
                // Paused by the sweep while it was acquired (its container stopped
                // again), or extended: acquired again from a fresh reading.
                Updated::ChangedMeanwhile => continue,
                // Killed (or ended by the sweep) while it was acquired: what was
                // started for it goes too.
                Updated::Removed => {
                    self.release(&read.id).await;
                    return Err(AppError::NotFound("sandbox"));
                }
            }
        }
        Err(changed_too_often())
    }

    /// Pauses the owner's sandbox: its container ends and its files stay until it is
    /// resumed or killed. `false` when it was paused already; its container is stopped
    /// again then, in case an earlier pause could not stop it.
    pub async fn pause(&self, owner: &UserId, id: &str) -> AppResult<bool> {
        for _ in 0..CHANGE_ATTEMPTS {
            let sandbox = self.get(owner, id).await?;
            if sandbox.state == E2bState::Paused {
                self.gateway.stop(sandbox.id.session()).await?;
                return Ok(false);
            }
            match self.pause_now(&sandbox).await? {
                Updated::Stored => return Ok(true),
                Updated::ChangedMeanwhile => continue,
                Updated::Removed => return Err(AppError::NotFound("sandbox")),
            }
        }
        Err(changed_too_often())
    }

    /// Ends every running sandbox whose time is up at `now`, or pauses it when it asked
    /// for that, and removes paused ones kept their time; how many this call touched.
    pub async fn end_overdue(&self, now: DateTime<Utc>) -> AppResult<usize> {
        let mut ended = 0;
        for sandbox in self.sandboxes.ended_by(now).await? {
            match self.time_up(&sandbox).await {
                Ok(true) => ended += 1,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(sandbox = sandbox.id.as_str(), error = %err, "a sandbox whose time was up was not paused")
                }
            }
        }
        Ok(ended)
    }

    /// Ends overdue sandboxes every `every` until `stopping` is cancelled. Every replica
    /// runs this; the store's remove makes each sandbox end once.
    pub fn keep_ending_overdue(self: &Arc<Self>, every: std::time::Duration, stopping: CancellationToken) {
        let service = self.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = stopping.cancelled() => return,
                    _ = ticks.tick() => {}
                }
                match service.end_overdue(Utc::now()).await {
                    Ok(0) => {}
                    Ok(ended) => tracing::info!(ended, "rented sandboxes whose time was up were ended"),
                    Err(err) => {
                        tracing::warn!(error = %err, "ending rented sandboxes whose time is up failed")
                    }
                }
            }
        });
    }

    /// Removes the record, then the container; `true` when this call removed the record.
    async fn end(&self, id: &E2bSandboxId) -> bool {
        self.found.forget(id);
        match self.sandboxes.remove(id).await {
            Ok(true) => {
                self.release(id).await;
                true
            }
            Ok(false) => false,
            Err(err) => {
                tracing::warn!(sandbox = id.as_str(), error = %err, "a sandbox's record was not removed");
                false
            }
        }
    }

    /// Removes the record and the container, the container also when another call (a
    /// kill, the sweep) removed the record first and may not have removed it yet.
    async fn end_surely(&self, id: &E2bSandboxId) {
        if !self.end(id).await {
            self.release(id).await;
        }
    }

    /// Removes the sandbox's container; one that outlives a failed removal is the
    /// manager's to reap.
    async fn release(&self, id: &E2bSandboxId) {
        if let Err(err) = self.gateway.release(id.session()).await {
            tracing::warn!(sandbox = id.as_str(), error = %err, "an ended sandbox's container was not removed");
        }
    }
}

#[cfg(test)]
mod tests;
