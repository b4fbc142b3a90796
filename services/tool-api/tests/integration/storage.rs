//! The workspace's storage quota: writes past it refused with 507, a command that keeps
//! filling the disk ended with a note, and room again once files are deleted.

use crate::support;

use std::time::{Duration, Instant};

use support::{expect_code, spawn_app_with, TestApp};
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
        filled.output.contains("[ended: the workspace holds"),
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
