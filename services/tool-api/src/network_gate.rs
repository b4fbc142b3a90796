//! The gate that keeps every program of the sandbox's user from starting before the
//! sandbox's egress rules are in place.
//!
//! A sandbox's firewall is loaded from outside, once its container runs (the manager's
//! driver does it), so for a moment after every start — create, resume, restart — its
//! network is open. The kernel warmed with the server, or the desktop started with it,
//! would run the person's own code in that moment (a `.pth` file in the home's
//! `~/.local` is executed by every Python start) and could open a connection the rules
//! then keep, as they accept established flows. With `TOOL_API_HOLD_UNTIL_NETWORK` set
//! (the manager sets it on every sandbox), what the server starts by itself waits until
//! the manager says the rules are loaded (`POST /v1/network-ready`, with the sandbox's
//! token), and every other authenticated route answers `503 network_pending` until then,
//! so nothing a caller asks for starts early either. `/health` says `starting`.
//!
//! Only what runs none of the person's files goes ahead: the kernel's driver, an isolated
//! Python (`-I`) of tool-api's own, imports its libraries meanwhile, and starts the kernel
//! (which loads the home's site packages) once the gate opens.

use std::sync::Arc;

use tokio::sync::watch;

pub struct NetworkGate {
    open: watch::Sender<bool>,
}

impl NetworkGate {
    /// A gate closed until [`NetworkGate::open`] when `hold` is set, else open.
    pub fn new(hold: bool) -> Arc<Self> {
        Arc::new(Self {
            open: watch::Sender::new(!hold),
        })
    }

    /// Opens the gate; later calls change nothing.
    pub fn open(&self) {
        self.open.send_replace(true);
    }

    pub fn is_open(&self) -> bool {
        *self.open.borrow()
    }

    /// Returns once the gate is open.
    pub async fn opened(&self) {
        let mut open = self.open.subscribe();
        // The sender lives as long as `self`, so the wait cannot fail.
        let _ = open.wait_for(|open| *open).await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn what_waits_goes_on_when_the_gate_opens() {
        let gate = NetworkGate::new(true);
        let waiting = tokio::spawn({
            let gate = gate.clone();
            async move { gate.opened().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!gate.is_open() && !waiting.is_finished());
        gate.open();
        gate.open();
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .unwrap()
            .unwrap();
        assert!(gate.is_open());
    }

    #[tokio::test]
    async fn a_gate_not_held_is_open_from_the_start() {
        let gate = NetworkGate::new(false);
        assert!(gate.is_open());
        tokio::time::timeout(Duration::from_secs(5), gate.opened())
            .await
            .unwrap();
    }
}
