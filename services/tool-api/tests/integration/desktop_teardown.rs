//! What a desktop leaves on the host when its tool-api goes away without stopping it.
//!
//! x11vnc shares its screen copies with the X server through System V shared memory. A
//! killed x11vnc never removes those segments, and they outlive every process: the tests
//! that ran the desktop on the host once used up the kernel's 4,096, after which no
//! x11vnc could start. The supervisor therefore asks its processes to end when it is
//! dropped, and x11vnc removes its segments on the way out.

use crate::support;

use std::time::{Duration, Instant};

use support::desktop::spawn_desktop;

/// The segments a process created that are still in the kernel's table, from
/// `/proc/sysvipc/shm` (columns: key shmid perms size cpid lpid nattch …).
fn segments_created_by(pid: u32) -> usize {
    let table = std::fs::read_to_string("/proc/sysvipc/shm").expect("reading /proc/sysvipc/shm");
    table
        .lines()
        .skip(1)
        .filter(|line| line.split_whitespace().nth(4) == Some(pid.to_string().as_str()))
        .count()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The tool-api's runtime ends with the desktop up (as each test's does): x11vnc's
/// shared memory goes with it.
#[test]
fn a_desktop_dropped_with_its_server_leaves_no_shared_memory() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let vnc = runtime.block_on(async {
        let desktop = spawn_desktop().await;
        let info = desktop.app.client.start_desktop().await.unwrap();
        let vnc = info.processes.iter().find(|p| p.name == "vnc");
        vnc.and_then(|vnc| vnc.pid)
            .unwrap_or_else(|| panic!("x11vnc has no pid: {info:?}"))
    });
    wait_until("x11vnc never made a shared memory segment", || {
        segments_created_by(vnc) > 0
    });
    drop(runtime);
    wait_until("x11vnc's shared memory segments outlived the tool-api", || {
        segments_created_by(vnc) == 0
    });
}
