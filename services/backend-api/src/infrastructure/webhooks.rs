//! Jobs' webhooks over HTTP. A URL's host is resolved and refused when any of its
//! addresses is not public (so a job cannot make the backend call its own network),
//! both when the job is made and before each call; redirects are not followed, since a
//! redirect could lead anywhere. A call goes to the addresses that were checked. `allow_private` lifts the address rule, for receivers
//! on the operator's own network (and the tests' local receiver).

use std::net::SocketAddr;
use std::time::Duration;

use crate::domain::job::{is_public, WebhookUrl};
use crate::domain::ports::WebhookSender;
use crate::domain::{DomainError, DomainResult};

/// Longest wait for a receiver's answer.
const TIMEOUT: Duration = Duration::from_secs(10);

pub struct HttpWebhooks {
    allow_private: bool,
}

impl HttpWebhooks {
    pub fn new(allow_private: bool) -> Self {
        Self { allow_private }
    }

    /// The URL's host and the addresses a call may use: the resolved ones, refused when
    /// any is not public; `None` when private ones are allowed (then the client resolves).
    async fn addresses(&self, url: &WebhookUrl) -> DomainResult<Option<(String, Vec<SocketAddr>)>> {
        if self.allow_private {
            return Ok(None);
        }
        let refused = |message: String| DomainError::InvalidField {
            field: "webhook_url",
            message,
        };
        let parsed = url::Url::parse(url.as_str()).map_err(|_| refused("not a URL".into()))?;
        let host = parsed.host_str().unwrap_or_default();
        let port = parsed.port_or_known_default().unwrap_or(443);
        // An IPv6 literal comes bracketed; the resolver wants it bare.
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let addresses: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
            .await
            .map_err(|_| refused(format!("{host} does not resolve")))?
            .collect();
        if addresses.is_empty() || addresses.iter().any(|a| !is_public(a.ip())) {
            return Err(refused(format!(
                "{host} is a private, loopback or link-local address; webhooks go to public ones"
            )));
        }
        Ok(Some((bare.to_owned(), addresses)))
    }
}

#[async_trait::async_trait]
impl WebhookSender for HttpWebhooks {
    async fn check(&self, url: &WebhookUrl) -> DomainResult<()> {
        self.addresses(url).await.map(drop)
    }

    async fn post(&self, url: &WebhookUrl, body: &[u8], signature: &str) -> DomainResult<()> {
        let unavailable = |detail: String| DomainError::Unavailable {
            what: "the webhook's receiver",
            detail,
        };
        let mut client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none());
        // The call goes to the addresses just checked, not to what the name resolves to
        // a moment later (which its owner could have changed to a private one).
        if let Some((host, addresses)) = self.addresses(url).await? {
            client = client.resolve_to_addrs(&host, &addresses);
        }
        let client = client.build().map_err(|err| unavailable(err.to_string()))?;
        let response = client
            .post(url.as_str())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("X-Sandpiper-Signature", signature)
            .body(body.to_vec())
            .send()
            .await
            .map_err(|err| unavailable(err.to_string()))?;
        if !response.status().is_success() {
            return Err(unavailable(format!("answered {}", response.status())));
        }
        Ok(())
    }
}
