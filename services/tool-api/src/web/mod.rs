//! Web search through the configured provider, and page fetch as readable text.

use crate::config::Settings;

pub struct WebTools {}

impl WebTools {
    pub fn new(_settings: &Settings) -> anyhow::Result<Self> {
        Ok(Self {})
    }
}
