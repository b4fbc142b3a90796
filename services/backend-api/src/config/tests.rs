//! Reading the settings from files and the environment.

use super::*;
use crate::domain::model::Prices;

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
    let environment = variables.map(|(k, v)| (k.to_owned(), v.to_owned()));
    let models = config::Config::builder()
        .add_source(backend_environment().source(Some(environment.into_iter().collect())))
        .build()
        .and_then(|c| c.get::<LlmConfig>("llm"))
        .unwrap()
        .models()
        .unwrap();
    let fast = models.catalog.default_model().unwrap();
    assert_eq!(fast.name.as_str(), "fast");
    assert_eq!(fast.context_tokens, 32_768);
    assert!(!fast.supports_tools);
    assert_eq!(fast.prices, Some(Prices::parse(0.5, 1.0).unwrap()));
    assert_eq!(models.endpoints[0].1.model.as_deref(), Some("qwen2.5-coder:7b"));
}

#[test]
fn trusted_proxies_are_checked_at_start_and_the_old_switch_is_refused() {
    let http = |value: &str| {
        let environment = [("BACKEND_HTTP__TRUSTED_PROXIES".to_owned(), value.to_owned())];
        config::Config::builder()
            .add_source(backend_environment().source(Some(environment.into_iter().collect())))
            .build()
            .and_then(|c| c.get::<HttpConfig>("http"))
    };
    let trusted = http("10.0.0.0/8, fd00::/8").unwrap().trusted_proxies;
    let peer = "10.0.0.2".parse().unwrap();
    assert_eq!(trusted.client(peer, ["198.51.100.7"]).to_string(), "198.51.100.7");
    let err = http("10.0.0.0/8,10.0.0.0/33").unwrap_err().to_string();
    assert!(
        err.contains("`10.0.0.0/33` is not an IP address") && err.contains("BACKEND_HTTP__TRUSTED_PROXIES"),
        "{err}"
    );
    let old = config::Config::builder()
        .set_override("http.trust_forwarded_for", "true")
        .and_then(|b| b.build())
        .unwrap();
    let err = Settings::from_config(old).unwrap_err().to_string();
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
