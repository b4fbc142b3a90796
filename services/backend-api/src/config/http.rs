//! The HTTP server: CORS origins, the front end, trusted proxies and request limits.

use serde::Deserialize;

use crate::interfaces::http::forwarded::TrustedProxies;

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct HttpConfig {
    /// Origins allowed by CORS (the front end's); empty allows none cross-origin. A list,
    /// or one comma-separated string (as environment variables give it).
    #[serde(deserialize_with = "list_or_commas")]
    pub cors_origins: Vec<String>,
    /// Largest JSON request body.
    pub body_limit_bytes: usize,
    /// Largest uploaded file (attachments, file browser uploads); streamed, never held
    /// in memory.
    pub upload_limit_bytes: u64,
    /// How long a VNC ticket may wait to be used.
    pub vnc_ticket_secs: u64,
    /// Comment lines on idle SSE streams, so proxies keep them open.
    pub sse_heartbeat_secs: u64,
    /// The proxies in front whose `X-Forwarded-For` names the client (for the sign-in
    /// limits): addresses, CIDR ranges and host names, a list or one comma-separated
    /// string. None by default: the client is the peer.
    #[serde(deserialize_with = "trusted_proxies")]
    pub trusted_proxies: TrustedProxies,
    /// Marks the refresh cookie `Secure` on every answer. Off, it is `Secure` when the
    /// page is on https or a trusted proxy says it was reached over https, so plain http
    /// on a developer's machine keeps working; turn it on where the site is https only.
    pub secure_cookies: bool,
    /// Connections one person may hold open at once, per replica: event streams, file
    /// watches, desktop and terminal relays.
    pub max_streams_per_person: usize,
    pub max_watches_per_person: usize,
    pub max_relays_per_person: usize,
    /// The built front end (`frontend/dist`), served at `/` when set.
    pub static_dir: Option<std::path::PathBuf>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            cors_origins: Vec::new(),
            body_limit_bytes: 256 * 1024,
            upload_limit_bytes: 100 * 1024 * 1024,
            vnc_ticket_secs: 30,
            sse_heartbeat_secs: 15,
            trusted_proxies: TrustedProxies::default(),
            secure_cookies: false,
            max_streams_per_person: 32,
            max_watches_per_person: 8,
            max_relays_per_person: 8,
            static_dir: None,
        }
    }
}

fn list_or_commas<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Origins {
        List(Vec<String>),
        Commas(String),
    }
    let list = match Origins::deserialize(deserializer)? {
        Origins::List(list) => list,
        Origins::Commas(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(list
        .into_iter()
        .map(|o| o.trim().to_owned())
        .filter(|o| !o.is_empty())
        .collect())
}

fn trusted_proxies<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<TrustedProxies, D::Error> {
    let entries = list_or_commas(deserializer)?;
    // Named here: where the config crate says the error is depends on its walk.
    TrustedProxies::parse(&entries)
        .map_err(|err| serde::de::Error::custom(format!("BACKEND_HTTP__TRUSTED_PROXIES: {err}")))
}
