//! The storage quota of the sandbox's home: writes past it refused with 507, a command
//! that keeps filling the disk ended with a note, a detached writer ended too, and room
//! again once files are deleted.

use crate::support;

use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use support::{alive, expect_code, spawn_app_with, TestApp};
use tool_api_contract::files::{MkdirRequest, WriteFileRequest};
use tool_api_contract::shell::{CommandState, ExecRequest};
use tool_api_contract::ErrorCode;

const QUOTA: u64 = 4 << 20;

fn write(path: &str, bytes: usize) -> WriteFileRequest {
    WriteFileRequest {
        path: path.into(),
        content: "x".repeat(bytes),
        append: false,
    }
}

fn exec(command: &str) -> ExecRequest {
    ExecRequest {
        command: command.into(),
        timeout_secs: Some(20.0),
        ..Default::default()
    }
}

/// The usage `/v1/info` reports once a measurement satisfies `wanted`.
async fn measured(app: &TestApp, wanted: impl Fn(u64) -> bool) -> u64 {
    let started = Instant::now();
    loop {
        let storage = app.client.info().await.unwrap().storage.expect("a quota is set");
        assert_eq!(storage.quota_bytes, QUOTA);
        if wanted(storage.used_bytes) {
            return storage.used_bytes;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "usage stayed at {}",
            storage.used_bytes
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn the_storage_quota_refuses_writes_and_ends_what_fills_the_disk() {
    let app = spawn_app_with(|settings| {
        settings.limits.storage_quota_bytes = Some(QUOTA);
        settings.limits.storage_check_secs = 0.2;
    })
    .await;
    app.client.write_file(&write("a.txt", 1 << 20)).await.unwrap();
    measured(&app, |used| used >= 1 << 20).await;

    // A write or upload the quota has no room for is refused, and nothing is written.
    let message = expect_code(
        app.client.write_file(&write("big.txt", 4 << 20)).await,
        ErrorCode::StorageFull,
    );
    assert!(message.contains("of its 4.0 MiB storage quota"), "{message}");
    assert!(!app.workspace.path().join("big.txt").exists());
    expect_code(
        app.client.upload("big.bin", false, vec![0u8; 4 << 20]).await,
        ErrorCode::StorageFull,
    );
    assert!(!app.workspace.path().join("big.bin").exists());

    // A command that keeps writing is ended at the next measurement, saying why.
    let started = Instant::now();
    let filled = app
        .client
        .exec(
            "fill",
            &exec("while true; do head -c 262144 /dev/zero >> fill.bin; sleep 0.02; done"),
        )
        .await
        .unwrap();
    assert_eq!(filled.state, CommandState::Killed, "{filled:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        filled.output.contains("[ended: the home directory holds"),
        "{}",
        filled.output
    );
    // Settled: the filler's last write, between a measurement and its end, may count
    // as growth once more; after that, nothing grows and nothing is ended.
    let mut used = measured(&app, |used| used > QUOTA).await;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = measured(&app, |_| true).await;
        if now == used {
            break;
        }
        used = now;
    }
    let message = expect_code(
        app.client
            .mkdir(&MkdirRequest {
                path: "more".into(),
                parents: false,
            })
            .await,
        ErrorCode::StorageFull,
    );
    assert!(message.contains("delete files"), "{message}");

    // Deleting works, and once measured the room is back.
    let removed = app
        .client
        .exec("fill", &exec("rm fill.bin && echo gone"))
        .await
        .unwrap();
    assert_eq!(
        removed.output.trim_end().lines().last(),
        Some("gone"),
        "{removed:?}"
    );
    measured(&app, |used| used < QUOTA / 2).await;
    app.client.write_file(&write("b.txt", 1 << 20)).await.unwrap();
}

/// Kills the process group it names when dropped, so that a failing test leaves no
/// writer filling the disk.
struct Detached(u32);

impl Drop for Detached {
    fn drop(&mut self) {
        let _ = killpg(Pid::from_raw(self.0 as i32), Signal::SIGKILL);
    }
}

/// What `path` takes on disk now (0 when it does not exist).
fn allocated(path: &std::path::Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).map_or(0, |metadata| metadata.blocks() * 512)
}

fn length(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |metadata| metadata.len())
}

#[tokio::test]
async fn the_whole_home_counts_and_a_detached_writer_is_ended() {
    let home = tempfile::tempdir().unwrap();
    let workspace = home.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let app = spawn_app_with(|settings| {
        settings.workspace = workspace.clone();
        settings.storage_root = home.path().to_path_buf();
        settings.limits.storage_quota_bytes = Some(QUOTA);
        settings.limits.storage_check_secs = 0.2;
    })
    .await;

    // A file in the home outside the workspace counts, and the API refuses by it.
    std::fs::write(home.path().join("outside.bin"), vec![1u8; 3 << 20]).unwrap();
    measured(&app, |used| used >= 3 << 20).await;
    expect_code(
        app.client.write_file(&write("w.txt", 3 << 19)).await,
        ErrorCode::StorageFull,
    );
    assert!(!workspace.join("w.txt").exists());

    // A writer that leaves every group the tool-api knows: the exec returns at once.
    let fill = home.path().join("fill.bin");
    let started = app
        .client
        .exec(
            "detached",
            &exec(&format!(
                "export HOME_DIR='{}'; setsid sh -c 'while true; do head -c 262144 /dev/zero \
                 >> \"$HOME_DIR/fill.bin\"; sleep 0.02; done' >/dev/null 2>&1 & echo $!",
                home.path().display()
            )),
        )
        .await
        .unwrap();
    assert_eq!(started.state, CommandState::Exited, "{started:?}");
    let pid: u32 = started.output.trim().parse().expect("the writer's pid");
    let _writer = Detached(pid);

    // Once the home passes the quota, the writer is ended: it is gone and its file
    // stops growing.
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(pid) {
        assert!(
            Instant::now() < deadline,
            "the writer still runs; {} written",
            allocated(&fill)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // By its length: the blocks the file system allocates for the last writes may
    // still be counted a moment after the writer has gone. A write under way when the
    // group was killed ends first, so the length is read once things settle.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let written = length(&fill);
    assert!(written > 0, "the writer never wrote");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(length(&fill), written, "the file still grows");
    measured(&app, |used| used > QUOTA).await;

    // The tool-api itself and its shells go on.
    let after = app
        .client
        .exec("detached", &exec("rm \"$HOME_DIR/fill.bin\" && echo gone"))
        .await
        .unwrap();
    assert_eq!(after.output.trim_end().lines().last(), Some("gone"), "{after:?}");
    measured(&app, |used| used < QUOTA).await;
}
