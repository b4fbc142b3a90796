//! Settings read the same way by every service: defaults, then the optional file named by
//! `<PREFIX>_CONFIG`, then the `<PREFIX>_*` variables (nested keys joined by `__`), then
//! the variables a service shares with the rest of the system under their own names. A
//! blank `<PREFIX>_CONFIG` or shared variable counts as unset, as `VAR=` in a compose file
//! or a `.env` means.

use std::collections::HashMap;

use serde::de::DeserializeOwned;

/// Reads `T` from, in rising precedence: `defaults` (key, value), the file named by
/// `<prefix>_CONFIG` when it is set, the `<prefix>_*` variables, and `overrides` (key,
/// variable name) for the variables that are set and not blank.
pub fn load_settings<T: DeserializeOwned>(
    prefix: &str,
    defaults: &[(&str, config::Value)],
    overrides: &[(&str, &str)],
) -> Result<T, config::ConfigError> {
    read_settings(prefix, defaults, overrides, None)?.try_deserialize()
}

/// The sources [`load_settings`] reads, merged but not yet deserialized, for a service
/// that checks the merged keys first; from `variables` instead of the process's
/// environment when given (tests).
pub fn read_settings(
    prefix: &str,
    defaults: &[(&str, config::Value)],
    overrides: &[(&str, &str)],
    variables: Option<HashMap<String, String>>,
) -> Result<config::Config, config::ConfigError> {
    let variable = |name: &str| {
        match &variables {
            Some(given) => given.get(name).cloned(),
            None => std::env::var(name).ok(),
        }
        .filter(|value| !value.is_empty())
    };
    let mut builder = config::Config::builder();
    for (key, value) in defaults {
        builder = builder.set_default(*key, value.clone())?;
    }
    if let Some(file) = variable(&format!("{prefix}_CONFIG")) {
        builder = builder.add_source(config::File::with_name(&file));
    }
    builder = builder.add_source(
        config::Environment::with_prefix(prefix)
            .prefix_separator("_")
            .separator("__")
            .try_parsing(true)
            .source(variables.clone()),
    );
    for (key, name) in overrides {
        builder = builder.set_override_option(*key, variable(name))?;
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(variables: &[(&str, &str)]) -> config::Config {
        let variables = variables
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        let defaults = [("port", 8000.into()), ("image", "default-image".into())];
        read_settings("KIT", &defaults, &[("image", "SHARED_IMAGE")], Some(variables)).unwrap()
    }

    #[test]
    fn each_source_wins_over_the_one_before() {
        assert_eq!(read(&[]).get::<u16>("port").unwrap(), 8000);
        assert_eq!(read(&[("KIT_PORT", "9000")]).get::<u16>("port").unwrap(), 9000);
        let both = read(&[("KIT_IMAGE", "prefixed"), ("SHARED_IMAGE", "shared")]);
        assert_eq!(both.get_string("image").unwrap(), "shared");
    }

    #[test]
    fn nested_keys_are_joined_by_two_underscores() {
        let nested = read(&[("KIT_POOL__SIZE", "3")]);
        assert_eq!(nested.get::<u32>("pool.size").unwrap(), 3);
    }

    #[test]
    fn a_blank_shared_variable_or_file_name_is_unset() {
        let blank = read(&[("SHARED_IMAGE", ""), ("KIT_CONFIG", "")]);
        assert_eq!(blank.get_string("image").unwrap(), "default-image");
        let under = read(&[("SHARED_IMAGE", ""), ("KIT_IMAGE", "prefixed")]);
        assert_eq!(under.get_string("image").unwrap(), "prefixed");
    }

    #[test]
    fn the_named_file_is_read_and_a_missing_one_refused() {
        let file = std::env::temp_dir().join(format!("service-kit-settings-{}.toml", std::process::id()));
        std::fs::write(&file, "port = 7000\nimage = \"from-file\"\n").unwrap();
        let path = file.to_str().unwrap();
        let config = read(&[("KIT_CONFIG", path), ("KIT_IMAGE", "prefixed")]);
        std::fs::remove_file(&file).unwrap();
        assert_eq!(config.get::<u16>("port").unwrap(), 7000);
        assert_eq!(config.get_string("image").unwrap(), "prefixed");
        let variables = HashMap::from([("KIT_CONFIG".to_owned(), path.to_owned())]);
        assert!(read_settings("KIT", &[], &[], Some(variables)).is_err());
    }
}
