//! Watching a directory: its changes as events, the watch ending with its client.

use super::*;

/// Reads events until one matches, within a few seconds.
async fn expect_event(events: &mut SseReader, kind: FileEventKind, path: &str) {
    let wanted = FileEvent {
        kind,
        path: path.to_owned(),
    };
    let found = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(event) = events.next().await {
            assert_eq!(event.event, "file");
            if serde_json::from_str::<FileEvent>(&event.data).unwrap() == wanted {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(found, Ok(true), "no {wanted:?}");
}

/// inotify instances open in this process (the server runs in it).
fn inotify_instances() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.unwrap().path()).ok())
        .filter(|target| target.to_string_lossy().contains("inotify"))
        .count()
}

#[tokio::test]
async fn watch_reports_changes_and_ends_with_the_client() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("w/nested")).unwrap();
    let before = inotify_instances();

    let mut events = SseReader::new(app.client.watch("w", true).await.unwrap());
    assert_eq!(inotify_instances(), before + 1);

    app.client
        .write_file(&write("w/api.txt", "via the API"))
        .await
        .unwrap();
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/api.txt")).await;

    std::fs::write(app.path("w/nested/std.txt"), "via std::fs").unwrap();
    expect_event(
        &mut events,
        FileEventKind::Created,
        &shown(&app, "w/nested/std.txt"),
    )
    .await;
    expect_event(
        &mut events,
        FileEventKind::Modified,
        &shown(&app, "w/nested/std.txt"),
    )
    .await;

    let shell = tool_api_contract::shell::ExecRequest {
        command: "echo from-a-shell > w/shell.txt".into(),
        ..Default::default()
    };
    app.client.exec("watcher", &shell).await.unwrap();
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/shell.txt")).await;

    std::fs::rename(app.path("w/api.txt"), app.path("w/renamed.txt")).unwrap();
    expect_event(&mut events, FileEventKind::Removed, &shown(&app, "w/api.txt")).await;
    expect_event(&mut events, FileEventKind::Created, &shown(&app, "w/renamed.txt")).await;

    app.client.delete(&delete("w/renamed.txt", false)).await.unwrap();
    expect_event(&mut events, FileEventKind::Removed, &shown(&app, "w/renamed.txt")).await;

    drop(events);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while inotify_instances() > before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the watcher outlived its client"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    expect_code(app.client.watch("nope", true).await, ErrorCode::NotFound);
}
