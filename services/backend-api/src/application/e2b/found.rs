//! Where each running rented sandbox's tool-api was found, kept for a moment: the data
//! plane needs it for every request (a command is one), and asking the sandbox-manager
//! each time would cost a round trip. An entry lives [`FOUND_FOR`], and goes at once
//! when the sandbox is ended here or its tool-api does not answer at that address.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::agent::SandboxAccess;
use crate::domain::e2b::E2bSandboxId;

/// How long an address is trusted without asking again.
pub const FOUND_FOR: Duration = Duration::from_secs(2);
/// Beyond this many entries, the expired ones are dropped when one is added.
const PRUNE_ABOVE: usize = 1024;

#[derive(Default)]
pub struct Found(Mutex<HashMap<E2bSandboxId, (Instant, SandboxAccess)>>);

impl Found {
    pub fn get(&self, id: &E2bSandboxId) -> Option<SandboxAccess> {
        let found = self.lock();
        let (at, access) = found.get(id)?;
        (at.elapsed() < FOUND_FOR).then(|| access.clone())
    }

    pub fn put(&self, id: &E2bSandboxId, access: &SandboxAccess) {
        let mut found = self.lock();
        if found.len() >= PRUNE_ABOVE {
            found.retain(|_, (at, _)| at.elapsed() < FOUND_FOR);
        }
        found.insert(id.clone(), (Instant::now(), access.clone()));
    }

    pub fn forget(&self, id: &E2bSandboxId) {
        self.lock().remove(id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<E2bSandboxId, (Instant, SandboxAccess)>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::agent::SandboxSize;

    #[test]
    fn an_address_is_kept_until_forgotten() {
        let found = Found::default();
        let id = E2bSandboxId::new();
        assert!(found.get(&id).is_none());
        let access = SandboxAccess {
            tool_api_url: "http://127.0.0.1:1".into(),
            tool_api_token: "t".into(),
            shell: SandboxAccess::AGENT_SHELL.into(),
            size: SandboxSize::default(),
        };
        found.put(&id, &access);
        assert_eq!(found.get(&id), Some(access));
        found.forget(&id);
        assert!(found.get(&id).is_none());
    }
}
