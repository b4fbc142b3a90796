//! Writing files (parents made, permissions and symlinks kept, writers never tearing a
//! file) and replacing one occurrence of a text.

use super::*;

#[tokio::test]
async fn write_creates_parents_replaces_and_appends() {
    let app = spawn_app().await;
    let first = app
        .client
        .write_file(&write("deep/er/notes.md", "hello\n"))
        .await
        .unwrap();
    assert_eq!(first.path, shown(&app, "deep/er/notes.md"));
    assert_eq!((first.bytes_written, first.size), (6, 6));

    let appended = WriteFileRequest {
        append: true,
        ..write("deep/er/notes.md", "world\n")
    };
    let appended = app.client.write_file(&appended).await.unwrap();
    assert_eq!((appended.bytes_written, appended.size), (6, 12));
    assert_eq!(
        std::fs::read_to_string(app.path("deep/er/notes.md")).unwrap(),
        "hello\nworld\n"
    );

    let replaced = app
        .client
        .write_file(&write("deep/er/notes.md", "new"))
        .await
        .unwrap();
    assert_eq!(replaced.size, 3);
    assert_eq!(
        std::fs::read_to_string(app.path("deep/er/notes.md")).unwrap(),
        "new"
    );

    let fresh_append = WriteFileRequest {
        append: true,
        ..write("new/log.txt", "line\n")
    };
    app.client.write_file(&fresh_append).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(app.path("new/log.txt")).unwrap(),
        "line\n"
    );

    // No staging file is left beside the target.
    assert_eq!(names_in_dir(&app, "deep/er"), ["notes.md"]);
}

#[tokio::test]
async fn write_keeps_permissions_and_symlinks() {
    let app = spawn_app().await;
    std::fs::write(app.path("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(app.path("run.sh"), std::fs::Permissions::from_mode(0o751)).unwrap();
    app.client
        .write_file(&write("run.sh", "#!/bin/sh\necho hi\n"))
        .await
        .unwrap();
    let mode = std::fs::metadata(app.path("run.sh"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(mode, 0o751);

    std::fs::write(app.path("real.txt"), "old").unwrap();
    std::os::unix::fs::symlink(app.path("real.txt"), app.path("link.txt")).unwrap();
    app.client
        .write_file(&write("link.txt", "through the link"))
        .await
        .unwrap();
    assert!(std::fs::symlink_metadata(app.path("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(app.path("real.txt")).unwrap(),
        "through the link"
    );
}

#[tokio::test]
async fn write_to_a_directory_is_refused() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(
        app.client.write_file(&write("dir", "x")).await,
        ErrorCode::WrongKind,
    );
    let append = WriteFileRequest {
        append: true,
        ..write("dir", "x")
    };
    expect_code(app.client.write_file(&append).await, ErrorCode::WrongKind);
    std::fs::write(app.path("file"), "").unwrap();
    expect_code(
        app.client.write_file(&write("file/child", "x")).await,
        ErrorCode::WrongKind,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_never_tear_a_file() {
    let app = spawn_app().await;
    let a = "a".repeat(1 << 20);
    let b = "b".repeat(1 << 20);
    std::fs::write(app.path("shared.txt"), &a).unwrap();
    // A reader alongside the writers must never see a partial file either.
    let stop = Arc::new(AtomicBool::new(false));
    let reader = tokio::task::spawn_blocking({
        let (path, a, b, stop) = (app.path("shared.txt"), a.clone(), b.clone(), stop.clone());
        move || {
            let mut reads = 0;
            while !stop.load(Ordering::Relaxed) {
                let content = std::fs::read_to_string(&path).unwrap();
                assert!(
                    content == a || content == b,
                    "a reader saw {} bytes",
                    content.len()
                );
                reads += 1;
            }
            reads
        }
    });
    let (write_a, write_b) = (write("shared.txt", &a), write("shared.txt", &b));
    for round in 0..20 {
        let (first, second) = tokio::join!(app.client.write_file(&write_a), app.client.write_file(&write_b));
        first.unwrap();
        second.unwrap();
        let content = std::fs::read_to_string(app.path("shared.txt")).unwrap();
        assert!(content == a || content == b, "round {round}: a torn file");
    }
    stop.store(true, Ordering::Relaxed);
    assert!(reader.await.unwrap() > 0);

    // Appends land whole: every line is one writer's complete line.
    let line_a = format!("{}\n", "A".repeat(1000));
    let line_b = format!("{}\n", "B".repeat(1000));
    let appender = |line: String| {
        let client = app.client.clone();
        tokio::spawn(async move {
            for _ in 0..25 {
                let request = WriteFileRequest {
                    append: true,
                    ..write("log.txt", &line)
                };
                client.write_file(&request).await.unwrap();
            }
        })
    };
    let (x, y) = tokio::join!(appender(line_a.clone()), appender(line_b.clone()));
    x.unwrap();
    y.unwrap();
    let log = std::fs::read_to_string(app.path("log.txt")).unwrap();
    let lines: Vec<&str> = log.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 50);
    assert_eq!(lines.iter().filter(|l| **l == line_a).count(), 25);
    assert_eq!(lines.iter().filter(|l| **l == line_b).count(), 25);
}

#[tokio::test]
async fn replace_swaps_exactly_one_occurrence() {
    let app = spawn_app().await;
    std::fs::write(
        app.path("main.rs"),
        "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
    )
    .unwrap();
    std::fs::set_permissions(app.path("main.rs"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let done = app
        .client
        .replace(&replace("main.rs", "let x = 1;", "let x = 42;"))
        .await
        .unwrap();
    assert_eq!(done.line, 2);
    assert_eq!(done.path, shown(&app, "main.rs"));
    let content = std::fs::read_to_string(app.path("main.rs")).unwrap();
    assert_eq!(
        content,
        "fn main() {\n    let x = 42;\n    println!(\"{x}\");\n}\n"
    );
    assert_eq!(done.size, content.len() as u64);
    let mode = std::fs::metadata(app.path("main.rs"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(mode, 0o600);

    // Multi-line text, replaced by nothing.
    let done = app
        .client
        .replace(&replace("main.rs", "    println!(\"{x}\");\n", ""))
        .await
        .unwrap();
    assert_eq!(done.line, 3);
    assert_eq!(
        std::fs::read_to_string(app.path("main.rs")).unwrap(),
        "fn main() {\n    let x = 42;\n}\n"
    );
}

#[tokio::test]
async fn replace_refuses_absent_ambiguous_and_empty_text() {
    let app = spawn_app().await;
    let original = "x = 1\nx = 1\ny = 2\nx = 1\n";
    std::fs::write(app.path("vars.txt"), original).unwrap();

    match app.client.replace(&replace("vars.txt", "x = 1", "x = 3")).await {
        Err(ClientError::Api { status, body }) => {
            assert_eq!(status, 409);
            assert_eq!(body.error.code, ErrorCode::AmbiguousMatch);
            assert_eq!(body.error.details, Some(json!({"count": 3})));
            assert!(body.error.message.contains("3 times"), "{}", body.error.message);
        }
        other => panic!("expected an ambiguous match, got {other:?}"),
    }
    expect_code(
        app.client.replace(&replace("vars.txt", "z = 9", "")).await,
        ErrorCode::NoMatch,
    );
    expect_code(
        app.client.replace(&replace("vars.txt", "", "x")).await,
        ErrorCode::InvalidInput,
    );
    assert_eq!(
        std::fs::read_to_string(app.path("vars.txt")).unwrap(),
        original,
        "nothing changed"
    );

    expect_code(
        app.client.replace(&replace("missing.txt", "a", "b")).await,
        ErrorCode::NotFound,
    );
    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(
        app.client.replace(&replace("dir", "a", "b")).await,
        ErrorCode::WrongKind,
    );
}
