//! The outside web as Sandpiper's tools reach it, shared by the two services that go out
//! there: tool-api fetches pages from inside a sandbox (from the sandbox's own network),
//! backend-api searches the web with the operator's provider (whose key never enters a
//! sandbox).
//!
//! [`upstream`] is the one path every request to the outside takes: a shared client, one
//! deadline over the whole exchange, a byte cap while the body streams in, and transport
//! failures turned into [`WebError`]s a person can act on. [`html`] turns pages and
//! snippets into text a model can read. [`search`] asks the configured provider and reads
//! its answer.

// Library code handles every error; tests may unwrap.
#![deny(clippy::unwrap_used)]

mod error;
pub mod html;
pub mod search;
pub mod upstream;

pub use error::{WebError, WebResult};
