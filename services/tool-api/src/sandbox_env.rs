//! The environment a sandbox was given at creation: the variables E2B's control plane
//! asks for (`envVars`), set once through `POST /e2b/envd/init` by backend-api. Every
//! program the E2B surfaces start (a command, a PTY, a code context) sees them on top of
//! the sandbox's own environment; a request's own variables win over them.

use std::collections::BTreeMap;
use std::sync::RwLock;

/// Shared by the E2B surfaces; empty until set.
#[derive(Debug, Default)]
pub struct SandboxEnv {
    vars: RwLock<BTreeMap<String, String>>,
}

impl SandboxEnv {
    /// Replaces the variables with `vars`.
    pub fn set(&self, vars: BTreeMap<String, String>) {
        *self.vars.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = vars;
    }

    /// The variables as they are now.
    pub fn vars(&self) -> BTreeMap<String, String> {
        self.vars
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_set_replace_the_earlier_ones() {
        let env = SandboxEnv::default();
        assert!(env.vars().is_empty());
        env.set(BTreeMap::from([("A".to_owned(), "1".to_owned())]));
        env.set(BTreeMap::from([("B".to_owned(), "2".to_owned())]));
        assert_eq!(env.vars(), BTreeMap::from([("B".to_owned(), "2".to_owned())]));
    }
}
