//! The sandboxes' networks, tried with real sandboxes of the real manager.
//!
//! # Layout
//! - `red_team`: what a sandbox reaches over the network, from inside, and how the
//!   manager reaches it.
//! - `twins`: the network the manager makes, kept usable when twins of it appear or it
//!   is removed under the manager.

mod red_team;
mod twins;
