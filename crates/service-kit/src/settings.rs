//! Settings read the same way by every service: defaults, then the optional file named by
//! `<PREFIX>_CONFIG`, then the `<PREFIX>_*` variables (nested keys joined by `__`), then
//! the variables a service shares with the rest of the system under their own names.

use serde::de::DeserializeOwned;

/// Reads `T` from, in rising precedence: `defaults` (key, value), the file named by
/// `<prefix>_CONFIG` when it is set, the `<prefix>_*` variables, and `overrides` (key,
/// variable name) for the variables that are set.
pub fn load_settings<T: DeserializeOwned>(
    prefix: &str,
    defaults: &[(&str, config::Value)],
    overrides: &[(&str, &str)],
) -> Result<T, config::ConfigError> {
    let mut builder = config::Config::builder();
    for (key, value) in defaults {
        builder = builder.set_default(*key, value.clone())?;
    }
    if let Ok(file) = std::env::var(format!("{prefix}_CONFIG")) {
        builder = builder.add_source(config::File::with_name(&file));
    }
    builder = builder.add_source(
        config::Environment::with_prefix(prefix)
            .prefix_separator("_")
            .separator("__")
            .try_parsing(true),
    );
    for (key, variable) in overrides {
        builder = builder.set_override_option(*key, std::env::var(variable).ok())?;
    }
    builder.build()?.try_deserialize()
}
