//! The supported search providers: how each is configured, how a query becomes its HTTP
//! request (endpoint, method, parameters, where the key goes), where its JSON answer keeps
//! the results, and what its refusals usually mean.

use anyhow::{bail, Context};
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use reqwest::header::{HeaderName, HeaderValue, ACCEPT, AUTHORIZATION};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::layout::Layout;
use super::{SearchResult, SearchSettings};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Searxng,
    Brave,
    Tavily,
    Serper,
    Generic,
}

impl Kind {
    fn parse(name: &str) -> anyhow::Result<Self> {
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "searxng" => Self::Searxng,
            "brave" => Self::Brave,
            "tavily" => Self::Tavily,
            "serper" => Self::Serper,
            "generic" => Self::Generic,
            other => bail!(
                "SEARCH_PROVIDER `{other}` is not a known provider; use searxng, brave, tavily, \
                 serper or generic"
            ),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Searxng => "searxng",
            Self::Brave => "brave",
            Self::Tavily => "tavily",
            Self::Serper => "serper",
            Self::Generic => "generic",
        }
    }

    /// The public endpoint of a hosted API; self-hosted and generic ones need SEARCH_URL.
    fn default_endpoint(self) -> Option<&'static str> {
        match self {
            Self::Brave => Some("https://api.search.brave.com/res/v1/web/search"),
            Self::Tavily => Some("https://api.tavily.com/search"),
            Self::Serper => Some("https://google.serper.dev/search"),
            Self::Searxng | Self::Generic => None,
        }
    }

    /// The hosted APIs refuse every request without a key; a SearXNG instance or a generic
    /// endpoint may be open.
    fn requires_key(self) -> bool {
        matches!(self, Self::Brave | Self::Tavily | Self::Serper)
    }

    /// The header carrying the key. Where the provider has no header of its own, the key is
    /// sent as a bearer token (Tavily's documented way; the usual one for a proxy in front of
    /// SearXNG or a generic API).
    fn key_header(self, key: &str) -> anyhow::Result<(HeaderName, HeaderValue)> {
        let (name, value) = match self {
            Self::Brave => (HeaderName::from_static("x-subscription-token"), key.to_owned()),
            Self::Serper => (HeaderName::from_static("x-api-key"), key.to_owned()),
            Self::Searxng | Self::Tavily | Self::Generic => (AUTHORIZATION, format!("Bearer {key}")),
        };
        let mut value = HeaderValue::from_str(&value)
            .context("SEARCH_API_KEY contains characters that cannot be sent in an HTTP header")?;
        // Keeps the key out of any debug output of the request.
        value.set_sensitive(true);
        Ok((name, value))
    }

    /// Most results one request may ask for: Brave and Tavily refuse larger counts instead
    /// of capping them.
    fn max_count(self) -> u32 {
        match self {
            Self::Brave | Self::Tavily => 20,
            Self::Serper => 100,
            Self::Searxng | Self::Generic => u32::MAX,
        }
    }

    fn layout(self, settings: &SearchSettings) -> Layout {
        match self {
            Self::Searxng | Self::Tavily => Layout::new("results", "title", "url", "content"),
            Self::Brave => Layout::new("web.results", "title", "url", "description"),
            Self::Serper => Layout::new("organic", "title", "link", "snippet"),
            Self::Generic => Layout::new(
                non_blank(&settings.results_field).unwrap_or("results"),
                non_blank(&settings.title_field).unwrap_or("title"),
                non_blank(&settings.url_field).unwrap_or("url"),
                non_blank(&settings.snippet_field).unwrap_or("snippet"),
            ),
        }
    }
}

/// A configured provider, checked at start-up.
pub struct Provider {
    kind: Kind,
    /// The URL requests go to; for the generic provider a template that may contain
    /// `{query}` and `{count}`.
    endpoint: String,
    api_key: Option<String>,
    /// `api_key` in the header the provider expects.
    auth: Option<(HeaderName, HeaderValue)>,
    layout: Layout,
}

impl Provider {
    /// `None` when no provider is named. Errors never quote SEARCH_URL, which may carry a
    /// key in its query string.
    pub fn from_settings(settings: &SearchSettings) -> anyhow::Result<Option<Self>> {
        let Some(name) = non_blank(&settings.provider) else {
            return Ok(None);
        };
        let kind = Kind::parse(name)?;
        let endpoint = match (non_blank(&settings.url), kind.default_endpoint()) {
            (Some(url), _) => url,
            (None, Some(default)) => default,
            (None, None) => bail!(
                "SEARCH_PROVIDER={} needs SEARCH_URL: {}",
                kind.name(),
                match kind {
                    Kind::Searxng => "the SearXNG base URL, e.g. http://searxng:8080",
                    _ => "the search URL, with {query} where the query goes (otherwise ?q= is appended)",
                }
            ),
        };
        let endpoint = match kind {
            // Accept the instance's base URL as well as its /search endpoint.
            Kind::Searxng if !endpoint.trim_end_matches('/').ends_with("/search") => {
                format!("{}/search", endpoint.trim_end_matches('/'))
            }
            _ => endpoint.to_owned(),
        };
        let example = fill_template(&endpoint, "test", 10);
        match reqwest::Url::parse(&example) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            Ok(_) => bail!("SEARCH_URL must be an http or https URL"),
            Err(err) => bail!("SEARCH_URL is not a valid URL: {err}"),
        }
        let api_key = non_blank(&settings.api_key);
        if api_key.is_none() && kind.requires_key() {
            bail!("SEARCH_PROVIDER={} needs SEARCH_API_KEY", kind.name());
        }
        Ok(Some(Self {
            kind,
            endpoint,
            auth: api_key.map(|key| kind.key_header(key)).transpose()?,
            api_key: api_key.map(str::to_owned),
            layout: kind.layout(settings),
        }))
    }

    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The request for `query`, asking for `count` results where the provider takes a count
    /// (the answer is cut to `count` afterwards either way).
    pub fn request(&self, http: &reqwest::Client, query: &str, count: u32) -> reqwest::RequestBuilder {
        let count = count.min(self.kind.max_count());
        let request = match self.kind {
            Kind::Searxng => http
                .get(&self.endpoint)
                .query(&[("q", query), ("format", "json")]),
            Kind::Brave => http
                .get(&self.endpoint)
                .query(&[("q", query), ("count", &count.to_string())]),
            Kind::Tavily => http
                .post(&self.endpoint)
                .json(&json!({ "query": query, "max_results": count })),
            Kind::Serper => http
                .post(&self.endpoint)
                .json(&json!({ "q": query, "num": count })),
            Kind::Generic => {
                let request = http.get(fill_template(&self.endpoint, query, count));
                if self.endpoint.contains("{query}") {
                    request
                } else {
                    request.query(&[("q", query)])
                }
            }
        };
        let request = request.header(ACCEPT, "application/json");
        match &self.auth {
            Some((name, value)) => request.header(name.clone(), value.clone()),
            None => request,
        }
    }

    /// The results in a parsed answer, or what the answer lacks.
    pub fn read(&self, document: &Value) -> Result<Vec<SearchResult>, String> {
        // Brave leaves `web` out altogether when it found no web pages.
        if self.kind == Kind::Brave
            && document.get("web").is_none()
            && document.get("type").and_then(Value::as_str) == Some("search")
        {
            return Ok(Vec::new());
        }
        self.layout.read(document).map_err(|missing| match self.kind {
            Kind::Generic => format!(
                "{missing}; set SEARCH_RESULTS_FIELD, SEARCH_TITLE_FIELD, SEARCH_URL_FIELD and \
                 SEARCH_SNIPPET_FIELD to the layout of its answers"
            ),
            _ => missing,
        })
    }

    /// What a refusal with `status` most likely means here.
    pub fn status_hint(&self, status: StatusCode) -> Option<&'static str> {
        match (status.as_u16(), &self.api_key) {
            (403, None) if self.kind == Kind::Searxng => Some(
                "SearXNG answers 403 when its JSON output is off: add `json` to search.formats in \
                 its settings.yml",
            ),
            (401 | 403, Some(_)) => Some("the API key was refused; check SEARCH_API_KEY"),
            (401 | 403, None) => Some("it wants authentication; set SEARCH_API_KEY"),
            (429, _) => {
                Some("rate limited: too many searches, or the plan's quota is used up; wait and retry")
            }
            _ => None,
        }
    }

    /// `text` with the key blanked out, for quoting the provider's answers back: some echo
    /// the request they refused.
    pub fn redact(&self, text: &str) -> String {
        match &self.api_key {
            Some(key) => text.replace(key.as_str(), "[SEARCH_API_KEY]"),
            None => text.to_owned(),
        }
    }
}

fn non_blank(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|value| !value.is_empty())
}

/// The generic provider's URL with `{query}` (percent-encoded, so it is safe in a path as
/// well as in a query string) and `{count}` filled in.
fn fill_template(template: &str, query: &str, count: u32) -> String {
    template
        .replace(
            "{query}",
            &utf8_percent_encode(query, NON_ALPHANUMERIC).to_string(),
        )
        .replace("{count}", &count.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(provider: &str, url: Option<&str>, key: Option<&str>) -> SearchSettings {
        SearchSettings {
            provider: Some(provider.into()),
            url: url.map(Into::into),
            api_key: key.map(Into::into),
            ..SearchSettings::default()
        }
    }

    fn error(settings: &SearchSettings) -> String {
        match Provider::from_settings(settings) {
            Err(err) => err.to_string(),
            Ok(_) => panic!("{settings:?} should be refused"),
        }
    }

    #[test]
    fn no_provider_means_not_configured() {
        assert!(Provider::from_settings(&SearchSettings::default())
            .unwrap()
            .is_none());
        assert!(Provider::from_settings(&settings("  ", None, None))
            .unwrap()
            .is_none());
    }

    #[test]
    fn bad_configurations_are_refused_with_the_variable_to_fix() {
        assert!(error(&settings("bing", None, None)).contains("`bing` is not a known provider"));
        assert!(error(&settings("searxng", None, None)).contains("SEARCH_URL"));
        assert!(error(&settings("generic", None, None)).contains("SEARCH_URL"));
        assert!(error(&settings("brave", None, None)).contains("SEARCH_API_KEY"));
        assert!(error(&settings("serper", None, Some(" "))).contains("SEARCH_API_KEY"));
        let err = error(&settings("searxng", Some("ftp://host?key=secret"), None));
        assert!(err.contains("http or https") && !err.contains("secret"), "{err}");
        assert!(error(&settings("tavily", None, Some("bad\nkey"))).contains("HTTP header"));
    }

    #[test]
    fn searxng_accepts_the_base_url_or_the_search_endpoint() {
        for url in [
            "http://searx:8080",
            "http://searx:8080/",
            "http://searx:8080/search",
        ] {
            let provider = Provider::from_settings(&settings("SearXNG", Some(url), None))
                .unwrap()
                .unwrap();
            assert_eq!(provider.endpoint, "http://searx:8080/search");
        }
    }

    #[test]
    fn templates_encode_the_query() {
        assert_eq!(
            fill_template("http://h/find/{query}?n={count}", "a b/c&d=é", 5),
            "http://h/find/a%20b%2Fc%26d%3D%C3%A9?n=5"
        );
    }

    #[test]
    fn the_key_is_redacted() {
        let provider = Provider::from_settings(&settings("brave", None, Some("sk-secret-123")))
            .unwrap()
            .unwrap();
        assert_eq!(
            provider.redact("bad token sk-secret-123!"),
            "bad token [SEARCH_API_KEY]!"
        );
    }
}
