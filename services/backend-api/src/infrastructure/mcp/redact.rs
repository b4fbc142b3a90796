//! The secrets of a server's configuration, blanked out of whatever the server or its
//! client says back: its headers' values (an `Authorization: Bearer …` too as the key
//! alone), the credentials and query values of its URL, its `env` values — those of 8
//! characters or more. An error of the HTTP
//! client quotes the URL it asked (query and all), and a server may echo the headers it
//! was sent; both reach a person's status and the model's tool results, so every text of
//! a server passes through [`Secrets::redact`] first.

use crate::domain::mcp::McpTransport;

/// What a redacted secret reads as.
const REDACTED: &str = "[redacted]";

/// Shorter values are not taken for secrets (`v=1` would blank every `1` in a result);
/// keys are longer.
const MIN_SECRET_CHARS: usize = 8;

/// One server's secrets, longest first (so a secret holding another goes whole).
#[derive(Debug, Default)]
pub(super) struct Secrets(Vec<String>);

impl Secrets {
    pub(super) fn of(transport: &McpTransport) -> Self {
        let mut found = Vec::new();
        match transport {
            McpTransport::Http { url, headers } => {
                for value in headers.values() {
                    found.push(value.clone());
                    // `Bearer <key>`: the key alone too, not the scheme.
                    found.extend(value.split_whitespace().skip(1).map(str::to_owned));
                }
                if let Ok(parsed) = reqwest::Url::parse(url) {
                    found.push(parsed.username().to_owned());
                    found.extend(parsed.password().map(str::to_owned));
                    for (_, value) in parsed.query_pairs() {
                        found.push(value.into_owned());
                    }
                    let raw_values = parsed.query().unwrap_or_default().split('&');
                    found.extend(
                        raw_values
                            .filter_map(|pair| pair.split_once('='))
                            .map(|(_, v)| v.to_owned()),
                    );
                }
            }
            McpTransport::Stdio { env, .. } => found.extend(env.values().cloned()),
        }
        found.retain(|secret| secret.chars().count() >= MIN_SECRET_CHARS);
        found.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        found.dedup();
        Self(found)
    }

    /// `text` with every secret blanked out.
    pub(super) fn redact(&self, text: String) -> String {
        self.0.iter().fold(text, |text, secret| {
            if text.contains(secret.as_str()) {
                text.replace(secret.as_str(), REDACTED)
            } else {
                text
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn header_values_url_credentials_and_query_values_are_blanked() {
        let transport = McpTransport::Http {
            url: "https://robert:pa55word@mcp.example.org/mcp?key=sk-q%2Fuery&v=1".into(),
            headers: BTreeMap::from([("Authorization".into(), "Bearer sk-header-secret".into())]),
        };
        let secrets = Secrets::of(&transport);
        let said = "error sending request for url (https://robert:pa55word@mcp.example.org/mcp?key=sk-q%2Fuery&v=1): \
                    the server said: bad token sk-header-secret (Bearer sk-header-secret), key sk-q/uery; Bearer auth failed";
        let redacted = secrets.redact(said.into());
        for secret in ["pa55word", "sk-q%2Fuery", "sk-q/uery", "sk-header-secret"] {
            assert!(!redacted.contains(secret), "{redacted}");
        }
        assert!(
            redacted.contains("mcp.example.org/mcp") && redacted.contains("v=1"),
            "{redacted}"
        );
        assert!(
            redacted.contains("; Bearer auth failed"),
            "the scheme alone stays: {redacted}"
        );
    }

    #[test]
    fn env_values_are_blanked_and_short_values_left_alone() {
        let transport = McpTransport::Stdio {
            command: "server".into(),
            args: Vec::new(),
            env: BTreeMap::from([
                ("TOKEN".into(), "canary-7781".into()),
                ("DEBUG".into(), "1".into()),
            ]),
        };
        let redacted = Secrets::of(&transport).redact("TOKEN=canary-7781 DEBUG=1".into());
        assert_eq!(redacted, "TOKEN=[redacted] DEBUG=1");
    }
}
