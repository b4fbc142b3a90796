//! Signalling whole process groups. Every process the tool-api starts (shell sessions,
//! terminals, desktop programs) leads a group of its own, so one signal reaches everything
//! it spawned.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Sends `signal` to the group led by `pid`. A group that is already gone (ESRCH) is the
/// normal outcome of a repeated kill, so errors are ignored.
pub fn signal(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = killpg(Pid::from_raw(pid), signal);
    }
}
