//! Sign-in limits that slow guessing without letting anyone lock a person out.
//!
//! Only failures count, in the key-value store (so the limits hold across replicas):
//! - per account and address: after `failures_before_backoff` failures that pair is
//!   refused for `backoff_base`, doubling with each further failure up to
//!   `backoff_max`; a success clears the pair's failures. The same account from
//!   another address is not affected, so failures from elsewhere never keep the owner out.
//! - per address across accounts: after `failures_per_address` failures within
//!   `window` the address is refused, so one address cannot spray many accounts.
//! - per account across addresses: after `failures_per_account` failures within
//!   `window`, from wherever they came, every attempt on the account waits before its
//!   password is checked (`account_delay_base`, doubling with each further failure up to
//!   `account_delay_max`), so guessing from many addresses gains nothing; a delay, never a
//!   refusal, so no one can lock the owner out.
//!
//! An address is an IPv4 address, or an IPv6 address's /64: one household or server
//! gets a whole /64, so a guesser must not get a fresh count from each of its addresses.
//!
//! These limits are checked before the password is: a refused guesser takes no turn
//! among the password checks (`password_checks.rs`), where people signing in correctly
//! during a rush wait briefly instead of being refused.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::error::{AppError, AppResult};
use super::principal::hash_token as digest;
use crate::domain::ports::KeyValueStore;

#[derive(Debug, Clone)]
pub struct LoginLimitSettings {
    pub failures_before_backoff: u64,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    pub failures_per_address: u64,
    pub failures_per_account: u64,
    pub account_delay_base: Duration,
    pub account_delay_max: Duration,
    /// How long failures are remembered.
    pub window: Duration,
}

pub struct LoginLimits {
    kv: Arc<dyn KeyValueStore>,
    settings: LoginLimitSettings,
}

/// The store keys of one sign-in attempt.
pub struct Attempt {
    pair_failures: String,
    pair_blocked_until: String,
    address_failures: String,
    account_failures: String,
}

impl LoginLimits {
    pub fn new(kv: Arc<dyn KeyValueStore>, settings: LoginLimitSettings) -> Self {
        Self { kv, settings }
    }

    /// `account` is what the person typed as their e-mail; it is hashed, so the store
    /// holds no addresses of people.
    pub fn attempt(&self, account: &str, address: IpAddr) -> Attempt {
        let address = counted_as(address);
        let account = account.trim().to_lowercase();
        let pair = digest(&format!("{account}\n{address}"));
        Attempt {
            pair_failures: format!("ratelimit:login:pair:{pair}"),
            pair_blocked_until: format!("ratelimit:login:blocked:{pair}"),
            address_failures: format!("ratelimit:login:address:{}", digest(&address)),
            account_failures: format!("ratelimit:login:account:{}", digest(&account)),
        }
    }

    /// Refuses a backed-off pair or an address over its limit; an account over its
    /// ceiling is let through after its delay.
    pub async fn admit(&self, attempt: &Attempt) -> AppResult<()> {
        if let Some(until) = self.kv.get(&attempt.pair_blocked_until).await? {
            let left_ms = until.parse::<i64>().unwrap_or(0) - Utc::now().timestamp_millis();
            if left_ms > 0 {
                return Err(refused((left_ms as u64).div_ceil(1000)));
            }
        }
        let address_failures = self.kv.get(&attempt.address_failures).await?;
        if address_failures.and_then(|n| n.parse::<u64>().ok()) >= Some(self.settings.failures_per_address) {
            return Err(refused(self.settings.window.as_secs()));
        }
        let account_failures = self.kv.get(&attempt.account_failures).await?;
        let over = account_failures
            .and_then(|n| n.parse::<u64>().ok())
            .and_then(|n| n.checked_sub(self.settings.failures_per_account));
        if let Some(over) = over {
            let settings = &self.settings;
            tokio::time::sleep(backoff(
                settings.account_delay_base,
                over,
                settings.account_delay_max,
            ))
            .await;
        }
        Ok(())
    }

    /// Counts a failure; from the threshold on, backs the pair off for longer each time.
    pub async fn failed(&self, attempt: &Attempt) -> AppResult<()> {
        let window = self.settings.window;
        self.kv.increment(&attempt.address_failures, window).await?;
        self.kv.increment(&attempt.account_failures, window).await?;
        let failures = self.kv.increment(&attempt.pair_failures, window).await?;
        if let Some(over) = failures.checked_sub(self.settings.failures_before_backoff) {
            let delay = backoff(self.settings.backoff_base, over, self.settings.backoff_max);
            let until = Utc::now().timestamp_millis() + delay.as_millis() as i64;
            self.kv
                .put(&attempt.pair_blocked_until, &until.to_string(), delay)
                .await?;
        }
        Ok(())
    }

    /// A correct password clears the pair's failures (not the address's: one account
    /// of its own must not let an address reset its spraying; nor the account's: the
    /// owner signing in must not give a guesser elsewhere a fresh run).
    pub async fn succeeded(&self, attempt: &Attempt) -> AppResult<()> {
        self.kv.take(&attempt.pair_failures).await?;
        Ok(())
    }
}

/// What an address counts as: itself (IPv4, or IPv4 mapped into IPv6), or its /64.
fn counted_as(address: IpAddr) -> String {
    match address.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !(u128::MAX >> 64);
            format!("{}/64", Ipv6Addr::from(network))
        }
    }
}

fn refused(retry_after_secs: u64) -> AppError {
    AppError::RateLimited {
        reason: "too many attempts".into(),
        retry_after_secs,
    }
}

/// `base × 2^over`, at most `max`.
fn backoff(base: Duration, over: u64, max: Duration) -> Duration {
    let factor = 1u32.checked_shl(over.min(31) as u32).unwrap_or(u32::MAX);
    base.saturating_mul(factor).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_count_by_their_64_and_ipv4_by_itself() {
        let counted = |text: &str| counted_as(text.parse().unwrap());
        assert_eq!(counted("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(counted("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
        assert_ne!(counted("2001:db8:1:3::1"), counted("2001:db8:1:2::1"));
        assert_eq!(counted("203.0.113.9"), "203.0.113.9");
        assert_eq!(counted("::ffff:203.0.113.9"), "203.0.113.9");
        assert_ne!(counted("203.0.113.9"), counted("203.0.113.10"));
    }

    #[test]
    fn the_backoff_doubles_from_the_base_up_to_the_max() {
        let (base, max) = (Duration::from_secs(1), Duration::from_secs(60));
        let secs: Vec<u64> = (0..8).map(|over| backoff(base, over, max).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60]);
        assert_eq!(backoff(base, u64::MAX, max).as_secs(), 60);
    }
}
