//! How one sandbox is reached and what it alone knows: its [`Endpoints`] (where its
//! services listen) and its [`Secrets`] (the token it gets). Engine drivers report the
//! first, the manager hands out both; neither depends on anything else in the crate.

use serde::{Deserialize, Serialize};

/// Where a sandbox's services are reached: the published host ports on the advertised
/// host, or the container's own ports under its name on a shared network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoints {
    /// Records written before the host was kept hold none; they were reached at
    /// `advertise_host`, taken to be its default (loopback). A deployment that changed it
    /// sees such sandboxes fail their health check; the restart records the right host.
    #[serde(default = "loopback")]
    pub host: String,
    pub tool_api_port: u16,
}

fn loopback() -> String {
    "127.0.0.1".to_owned()
}

impl Endpoints {
    pub fn tool_api_url(&self) -> String {
        format!("http://{}:{}", self.host, self.tool_api_port)
    }
}

/// The secrets one sandbox gets and nobody else.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secrets {
    pub token: String,
}

impl Secrets {
    /// A fresh random 32-character token.
    pub fn generate() -> Self {
        Self {
            token: random_string(32),
        }
    }

    /// What the sandbox is given of its token: the hex SHA-256, enough for tool-api to
    /// check a bearer and useless to a process in the sandbox that reads it.
    pub fn token_sha256(&self) -> String {
        service_kit::sha256_hex(&self.token)
    }
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secrets(..)")
    }
}

pub(crate) fn random_string(len: usize) -> String {
    use rand::distr::{Alphanumeric, SampleString};
    Alphanumeric.sample_string(&mut rand::rng(), len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_differ_every_time() {
        let (a, b) = (Secrets::generate(), Secrets::generate());
        assert_ne!(a.token, b.token);
        assert_eq!(a.token.len(), 32);
        assert!(!format!("{a:?}").contains(&a.token));
    }
}
