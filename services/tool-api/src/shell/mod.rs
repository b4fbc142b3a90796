//! Shell sessions.

use crate::config::Limits;
use crate::paths::Workspace;

pub struct ShellManager {}

impl ShellManager {
    pub fn new(_workspace: Workspace, _limits: Limits) -> Self {
        Self {}
    }
    pub async fn shutdown(&self) {}
    pub async fn running_count(&self) -> u32 {
        0
    }
}
