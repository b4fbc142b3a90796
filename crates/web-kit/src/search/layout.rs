//! Where a provider's JSON answer keeps its results, and how they are read out of it.
//!
//! Every provider answers with an array of objects somewhere in a JSON document; only the
//! place of the array and the names of three fields differ. A [`Layout`] holds those as
//! dotted paths (`web.results`, `data.0.items`), so the built-in providers and the generic
//! one share a single reader.

use serde_json::Value;

use super::SearchResult;
use crate::html::fragment_to_text;

#[derive(Debug, Clone)]
pub struct Layout {
    results: String,
    title: String,
    url: String,
    snippet: String,
}

impl Layout {
    pub fn new(results: &str, title: &str, url: &str, snippet: &str) -> Self {
        Self {
            results: results.into(),
            title: title.into(),
            url: url.into(),
            snippet: snippet.into(),
        }
    }

    /// The results in the provider's order. An entry without a URL is skipped (there is
    /// nothing to visit); a missing title falls back to the URL, a missing snippet to "".
    /// `Err` says what is missing when the document does not have this layout.
    pub fn read(&self, document: &Value) -> Result<Vec<SearchResult>, String> {
        let entries = match lookup(document, &self.results) {
            Some(Value::Array(entries)) => entries,
            Some(other) => {
                return Err(format!(
                    "`{}` is {} rather than an array",
                    self.results,
                    describe(other)
                ))
            }
            None => {
                return Err(format!(
                    "there is no `{}` array{}",
                    self.results,
                    top_level_keys(document)
                ))
            }
        };
        let results: Vec<SearchResult> = entries.iter().filter_map(|entry| self.result(entry)).collect();
        if results.is_empty() && !entries.is_empty() {
            return Err(format!(
                "none of the {} entries of `{}` has a text field `{}`",
                entries.len(),
                self.results,
                self.url
            ));
        }
        Ok(results)
    }

    fn result(&self, entry: &Value) -> Option<SearchResult> {
        let url = text_at(entry, &self.url).filter(|url| !url.is_empty())?;
        // Some providers highlight matches with <strong> and escape quotes as entities.
        let title = text_at(entry, &self.title).map_or_else(|| url.clone(), |title| fragment_to_text(&title));
        let snippet =
            text_at(entry, &self.snippet).map_or_else(String::new, |snippet| fragment_to_text(&snippet));
        Some(SearchResult { title, url, snippet })
    }
}

/// The value at a dotted path: each segment is an object key, or an index into an array.
fn lookup<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(value, |value, segment| match value {
        Value::Object(map) => map.get(segment),
        Value::Array(items) => segment.parse::<usize>().ok().and_then(|index| items.get(index)),
        _ => None,
    })
}

fn text_at(entry: &Value, path: &str) -> Option<String> {
    lookup(entry, path)?.as_str().map(|text| text.trim().to_owned())
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// " (the top-level keys are: a, b)" — a hint at where the results might be instead.
fn top_level_keys(document: &Value) -> String {
    match document {
        Value::Object(map) if !map.is_empty() => {
            // Sorted: the map keeps document order or not depending on serde_json's
            // features, and the hint should read the same either way.
            let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
            keys.sort_unstable();
            keys.truncate(12);
            format!(" (the top-level keys are: {})", keys.join(", "))
        }
        other => format!(" (the document is {})", describe(other)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lookup_follows_keys_and_indices() {
        let doc = json!({"data": {"items": [{"a": 1}, {"a": {"b": "deep"}}]}, "x": null});
        assert_eq!(lookup(&doc, "data.items.1.a.b"), Some(&json!("deep")));
        assert_eq!(lookup(&doc, "data.items.0"), Some(&json!({"a": 1})));
        assert_eq!(lookup(&doc, "x"), Some(&Value::Null));
        assert_eq!(lookup(&doc, "data.missing"), None);
        assert_eq!(lookup(&doc, "data.items.7"), None);
        assert_eq!(lookup(&doc, "data.items.first"), None);
        assert_eq!(
            lookup(&doc, "data.items.0.a.b"),
            None,
            "cannot descend into a number"
        );
    }

    #[test]
    fn reads_results_with_fallbacks() {
        let layout = Layout::new("hits", "name", "link.href", "summary");
        let doc = json!({"hits": [
            {"name": "<b>One</b> &amp; more", "link": {"href": "https://one.example"}, "summary": "first"},
            {"link": {"href": "https://two.example"}},
            {"name": "no url"},
            {"name": "blank url", "link": {"href": "  "}},
        ]});
        let results = layout.read(&doc).unwrap();
        assert_eq!(
            results,
            vec![
                SearchResult {
                    title: "One & more".into(),
                    url: "https://one.example".into(),
                    snippet: "first".into()
                },
                SearchResult {
                    title: "https://two.example".into(),
                    url: "https://two.example".into(),
                    snippet: String::new()
                },
            ]
        );
    }

    #[test]
    fn says_what_is_missing() {
        let layout = Layout::new("web.results", "title", "url", "description");
        assert_eq!(layout.read(&json!({"web": {"results": []}})).unwrap(), vec![]);
        let err = layout.read(&json!({"type": "search", "query": {}})).unwrap_err();
        assert!(
            err.contains("no `web.results` array") && err.contains("query, type"),
            "{err}"
        );
        let err = layout.read(&json!({"web": {"results": "nope"}})).unwrap_err();
        assert!(err.contains("a string rather than an array"), "{err}");
        let err = layout.read(&json!([1, 2])).unwrap_err();
        assert!(err.contains("the document is an array"), "{err}");
        let err = layout
            .read(&json!({"web": {"results": [{"link": "x"}]}}))
            .unwrap_err();
        assert!(
            err.contains("none of the 1 entries") && err.contains("`url`"),
            "{err}"
        );
    }
}
