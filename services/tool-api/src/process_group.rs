//! Signalling whole process groups. Every process the tool-api starts (shell sessions,
//! terminals, desktop programs) leads a group of its own, so one signal reaches everything
//! it spawned.

use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Sends `signal` to the group led by `pid`. A group that is already gone (ESRCH) is the
/// normal outcome of a repeated kill, so errors are ignored.
pub fn signal(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = killpg(Pid::from_raw(pid), signal);
    }
}

/// Sends `signal` to the process `pid` only, not to its group.
pub fn signal_leader(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = nix::sys::signal::kill(Pid::from_raw(pid), signal);
    }
}

/// Whether a process of the group led by `pid` still runs. Zombies do not count: they
/// are already dead and only wait to be reaped. SIGKILL is delivered asynchronously, so
/// a killer that promises "gone" asks this until it says no. Reads all of /proc, which
/// is fine for the rare kill path.
pub fn has_living_members(pid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
        .any(|stat| {
            // After the command name in parentheses: state, parent pid, process group.
            let mut fields = stat.rsplit(')').next().unwrap_or("").split_whitespace();
            let state = fields.next();
            let group = fields.nth(1).and_then(|group| group.parse::<u32>().ok());
            group == Some(pid) && state != Some("Z")
        })
}

/// Waits until no process of the group led by `pid` runs, for at most `within`; says
/// whether the group is gone.
pub async fn wait_until_gone(pid: u32, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if !has_living_members(pid) {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
