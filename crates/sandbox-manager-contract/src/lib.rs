//! Wire types of the sandbox-manager API, shared by the server and its client
//! (backend-api), so the two cannot drift apart. Every type derives an OpenAPI schema.

pub mod error;
pub mod events;
pub mod sandbox;

pub use error::{ErrorBody, ErrorCode, ErrorDetail};
pub use events::{LifecycleEvent, LifecycleKind};
pub use sandbox::{
    CreateSandbox, LimitsRequest, ListQuery, LogsQuery, NetworkMode, ResourceLimits, Sandbox, SandboxList,
    SandboxState, StorageKind, ToolApiAccess,
};
