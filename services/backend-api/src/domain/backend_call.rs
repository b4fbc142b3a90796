//! The tools backend-api runs itself, outside any sandbox: web search, which needs the
//! operator's provider key, and no operator secret may enter a sandbox (whatever runs
//! there could read it). Declared like the sandbox's tools — one variant per tool, its
//! arguments typed and its schema generated from them — and run through the
//! [`WebSearch`](super::agent::WebSearch) port, without a sandbox, on the values of
//! [`super::web_search`].

use super::tool::tool_calls;
use super::web_search::WebSearchRequest;

tool_calls! {
    typed
    /// A call of one of the backend's own tools.
    BackendCall {
    WebSearch(WebSearchRequest) = "web_search", "Search the web.";
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn web_search_offers_the_schema_it_always_had() {
        let specs = BackendCall::specs();
        assert_eq!(specs.len(), 1);
        assert_eq!(specs[0].name, "web_search");
        assert_eq!(
            specs[0].parameters,
            json!({
                "type": "object",
                "required": ["query"],
                "properties": {
                    "query": { "type": "string" },
                    "max_results": {
                        "type": ["integer", "null"],
                        "format": "int32",
                        "minimum": 0,
                        "description": "Default 10, at most 50."
                    }
                }
            })
        );
        let call = BackendCall::parse("web_search", json!({ "query": "terns" }))
            .unwrap()
            .unwrap();
        assert!(matches!(&call, BackendCall::WebSearch(r) if r.query == "terns" && r.max_results.is_none()));
        let missing = BackendCall::parse("web_search", json!({})).unwrap();
        assert!(missing.unwrap_err().contains("query"));
    }
}
