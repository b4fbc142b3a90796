//! Reading the settings from files and the environment.

use super::*;
use crate::domain::model::Prices;

/// The settings [`Settings::load`] reads when the environment holds just `variables`.
fn read(variables: &[(&str, &str)]) -> Result<Settings, config::ConfigError> {
    let variables = variables.iter().map(|(k, v)| (k.to_string(), v.to_string()));
    Settings::read(Some(variables.collect()))
}

#[test]
fn defaults_then_backend_variables_then_conventional_ones_and_blank_is_unset() {
    let settings = read(&[]).unwrap();
    assert_eq!((settings.host.as_str(), settings.port), ("127.0.0.1", 8000));
    assert_eq!(settings.mongodb_database, "sandpiper");
    assert!(settings.mongodb_uri.is_none());
    let prefixed = [("BACKEND_PORT", "9000"), ("BACKEND_MONGODB_DATABASE", "prefixed")];
    let settings = read(&prefixed).unwrap();
    assert_eq!(
        (settings.port, settings.mongodb_database.as_str()),
        (9000, "prefixed")
    );
    let conventional = read(&[
        ("BACKEND_MONGODB_DATABASE", "prefixed"),
        ("MONGODB_DATABASE", "named"),
    ]);
    assert_eq!(conventional.unwrap().mongodb_database, "named");
    let blank = [
        ("BACKEND_MONGODB_DATABASE", "prefixed"),
        ("MONGODB_DATABASE", ""),
        ("MONGODB_URI", ""),
        ("SEARCH_PROVIDER", ""),
        ("BACKEND_CONFIG", ""),
    ];
    let settings = read(&blank).unwrap();
    assert_eq!(settings.mongodb_database, "prefixed");
    assert!(settings.mongodb_uri.is_none());
    let search = read(&[("SEARCH_PROVIDER", "brave"), ("SEARCH_SNIPPET_FIELD", "text")])
        .unwrap()
        .search;
    assert_eq!(search.provider.as_deref(), Some("brave"));
    assert_eq!(search.snippet_field.as_deref(), Some("text"));
}

/// The `llm` section of a TOML file, read the way [`Settings::load`] reads one.
fn llm(toml: &str) -> LlmConfig {
    config::Config::builder()
        .add_source(config::File::from_str(toml, config::FileFormat::Toml))
        .build()
        .and_then(|c| c.get::<LlmConfig>("llm"))
        .unwrap()
}

#[test]
fn a_list_of_models_is_read_with_its_default() {
    let models = llm(r#"
        [llm]
        default_model = "coder"
        [llm.models.planner]
        base_url = "https://api.example.com/v1"
        api_key = "k1"
        model = "big-model-2"
        context_tokens = 200000
        input_price_per_million = 3.0
        output_price_per_million = 15.0
        [llm.models.coder]
        base_url = "http://localhost:11434/v1"
        supports_tools = true
        supports_images = true
    "#)
    .models()
    .unwrap();
    let names: Vec<_> = models.catalog.list().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["coder", "planner"], "the default comes first");
    let planner = &models.catalog.list()[1];
    assert_eq!(planner.context_tokens, 200_000);
    assert_eq!(planner.prices, Some(Prices::parse(3.0, 15.0).unwrap()));
    let coder = &models.catalog.list()[0];
    assert!(coder.supports_images && coder.prices.is_none());
    assert_eq!(coder.context_tokens, 128_000);
    assert_eq!(models.endpoints.len(), 2);
}

#[test]
fn the_llm_variables_make_the_one_default_model() {
    let models = llm(r#"
        [llm]
        base_url = "http://localhost:8080/v1"
        model = "openai/gpt-4o"
    "#)
    .models()
    .unwrap();
    assert_eq!(
        models.catalog.default_model().unwrap().name.as_str(),
        "openai/gpt-4o"
    );
    assert_eq!(models.endpoints[0].1.model.as_deref(), Some("openai/gpt-4o"));
    assert!(llm("[llm]").models().unwrap().catalog.list().is_empty());
}

#[test]
fn models_are_listed_in_the_environment_too() {
    let variables = [
        ("BACKEND_LLM__MODELS__FAST__BASE_URL", "http://localhost:11434/v1"),
        ("BACKEND_LLM__MODELS__FAST__MODEL", "qwen2.5-coder:7b"),
        ("BACKEND_LLM__MODELS__FAST__CONTEXT_TOKENS", "32768"),
        ("BACKEND_LLM__MODELS__FAST__SUPPORTS_TOOLS", "false"),
        ("BACKEND_LLM__MODELS__FAST__INPUT_PRICE_PER_MILLION", "0.5"),
        ("BACKEND_LLM__MODELS__FAST__OUTPUT_PRICE_PER_MILLION", "1"),
    ];
    let models = read(&variables).unwrap().llm.models().unwrap();
    let fast = models.catalog.default_model().unwrap();
    assert_eq!(fast.name.as_str(), "fast");
    assert_eq!(fast.context_tokens, 32_768);
    assert!(!fast.supports_tools);
    assert_eq!(fast.prices, Some(Prices::parse(0.5, 1.0).unwrap()));
    assert_eq!(models.endpoints[0].1.model.as_deref(), Some("qwen2.5-coder:7b"));
}

#[test]
fn trusted_proxies_are_checked_at_start_and_the_old_switch_is_refused() {
    let http = |value: &str| read(&[("BACKEND_HTTP__TRUSTED_PROXIES", value)]).map(|s| s.http);
    let trusted = http("10.0.0.0/8, fd00::/8").unwrap().trusted_proxies;
    let peer = "10.0.0.2".parse().unwrap();
    assert_eq!(trusted.client(peer, ["198.51.100.7"]).to_string(), "198.51.100.7");
    let err = http("10.0.0.0/8,10.0.0.0/33").unwrap_err().to_string();
    assert!(
        err.contains("`10.0.0.0/33` is not an IP address") && err.contains("BACKEND_HTTP__TRUSTED_PROXIES"),
        "{err}"
    );
    let old = read(&[("BACKEND_HTTP__TRUST_FORWARDED_FOR", "true")]);
    let err = old.unwrap_err().to_string();
    assert!(err.contains("BACKEND_HTTP__TRUSTED_PROXIES"), "{err}");
}

#[test]
fn bad_model_lists_are_refused_with_a_reason() {
    let model = |name: &str| format!("[llm.models.{name}]\nbase_url = \"http://x/v1\"\n");
    let refused = |toml: String| llm(&toml).models().unwrap_err();
    let two = format!("{}{}", model("a"), model("b"));
    assert!(refused(two.clone()).contains("name the default one"));
    assert!(refused(format!("[llm]\ndefault_model = \"c\"\n{two}"))
        .contains("`c` is not one of the models (a, b)"));
    assert!(refused(format!(
        "[llm]\nmodel = \"x\"\nbase_url = \"http://y/v1\"\n{}",
        model("a")
    ))
    .contains("both"));
    assert!(refused(format!("{}input_price_per_million = 1.0\n", model("a"))).contains("both input_price"));
    assert!(refused(model("\"two words\"")).contains("no spaces"));
}
