//! Sign-in: the mode, the token algorithm and secrets, the limits.

use std::path::PathBuf;

use serde::Deserialize;

use super::DEVELOPMENT_JWT_SECRET;
use crate::domain::invite::RegistrationMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthModeName {
    Password,
    Local,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JwtAlgorithm {
    Hs256,
    Rs256,
    Eddsa,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct AuthConfig {
    pub mode: AuthModeName,
    /// Who may register in `password` mode: `open`, `invite` (the default) or `closed`.
    pub registration: RegistrationMode,
    pub jwt_algorithm: JwtAlgorithm,
    pub jwt_secret: String,
    /// PEM files for RS256 / EdDSA.
    pub jwt_private_key_file: Option<PathBuf>,
    pub jwt_public_key_file: Option<PathBuf>,
    pub access_ttl_secs: u64,
    pub refresh_ttl_secs: u64,
    /// The admin account of the `local` mode.
    pub local_email: Option<String>,
    pub local_password: Option<String>,
    /// Failures for one account from one address before that pair is backed off.
    pub login_failures_before_backoff: u64,
    /// The first back-off, doubled with each further failure up to the max.
    pub login_backoff_base_secs: u64,
    pub login_backoff_max_secs: u64,
    /// Failures from one address, across accounts, before the address is refused.
    pub login_failures_per_address: u64,
    /// Failures on one account, from any address, after which every attempt on it waits
    /// (never refused): the first wait, doubled with each further failure up to the max.
    pub login_failures_per_account: u64,
    pub login_account_delay_base_ms: u64,
    pub login_account_delay_max_secs: u64,
    /// How long failures are remembered.
    pub login_window_secs: u64,
    /// Password checks (sign-in, sign-up, password change) at once per replica: the
    /// hashing threads, each keeping `argon2_memory_kib` (default: the cores, at most 4).
    pub password_threads: usize,
    /// Checks that may wait for a thread beyond those running; more are refused (`503`).
    pub password_queue: usize,
    /// Longest wait for a thread before a check is refused (`503`).
    pub password_wait_secs: u64,
    /// Argon2id cost: memory in KiB and passes.
    pub argon2_memory_kib: u32,
    pub argon2_iterations: u32,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            mode: AuthModeName::Password,
            registration: RegistrationMode::default(),
            jwt_algorithm: JwtAlgorithm::Hs256,
            jwt_secret: DEVELOPMENT_JWT_SECRET.into(),
            jwt_private_key_file: None,
            jwt_public_key_file: None,
            access_ttl_secs: 15 * 60,
            refresh_ttl_secs: 30 * 24 * 60 * 60,
            local_email: None,
            local_password: None,
            login_failures_before_backoff: 5,
            login_backoff_base_secs: 1,
            login_backoff_max_secs: 60,
            login_failures_per_address: 100,
            login_failures_per_account: 20,
            login_account_delay_base_ms: 500,
            login_account_delay_max_secs: 8,
            login_window_secs: 15 * 60,
            password_threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(4)),
            password_queue: 200,
            password_wait_secs: 5,
            argon2_memory_kib: 19 * 1024,
            argon2_iterations: 2,
        }
    }
}
