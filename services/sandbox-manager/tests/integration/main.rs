//! sandbox-manager's integration tests, one binary with a module per area: the real
//! manager binary against the real Docker engine (and a fake Kubernetes API whose kubelet
//! runs real containers). Run one area with
//! `cargo test -p sandbox-manager --test integration lifecycle::`.

mod api;
mod code_pool;
mod kubernetes;
mod lifecycle;
mod network;
mod reconcile;
mod support;
