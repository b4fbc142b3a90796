//! The sandbox gateway until the agent wires the sandbox-manager in: sessions have no
//! sandboxes yet, so releasing one has nothing to do.

use crate::domain::ports::SandboxGateway;
use crate::domain::session::SessionId;
use crate::domain::DomainResult;

pub struct NoSandboxes;

#[async_trait::async_trait]
impl SandboxGateway for NoSandboxes {
    async fn release(&self, _session: &SessionId) -> DomainResult<()> {
        Ok(())
    }
}
