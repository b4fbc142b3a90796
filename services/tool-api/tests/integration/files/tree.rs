//! The tree: listing, stat, mkdir, move (across filesystems too) and delete.

use super::*;

#[tokio::test]
async fn list_puts_directories_first_then_names() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("d/zeta")).unwrap();
    std::fs::create_dir_all(app.path("d/alpha")).unwrap();
    std::fs::write(app.path("d/b.txt"), "12345").unwrap();
    std::fs::write(app.path("d/a.txt"), "").unwrap();
    std::fs::set_permissions(app.path("d/a.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("b.txt", app.path("d/c-link")).unwrap();

    let listing = app.client.list("d").await.unwrap();
    assert_eq!(listing.path, shown(&app, "d"));
    let names: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["alpha", "zeta", "a.txt", "b.txt", "c-link"]);
    let kinds: Vec<FileKind> = listing.entries.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            FileKind::Dir,
            FileKind::Dir,
            FileKind::File,
            FileKind::File,
            FileKind::Symlink
        ]
    );
    let b = &listing.entries[3];
    assert_eq!((b.size, b.path.as_str()), (5, shown(&app, "d/b.txt").as_str()));
    assert_eq!(listing.entries[2].mode, 0o640);
    assert_eq!(listing.entries[4].symlink_target.as_deref(), Some("b.txt"));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(
        (now_ms - b.mtime_ms).abs() < 60_000,
        "mtime {} vs now {now_ms}",
        b.mtime_ms
    );

    expect_code(app.client.list("d/b.txt").await, ErrorCode::WrongKind);
    expect_code(app.client.list("nope").await, ErrorCode::NotFound);
}

#[tokio::test]
async fn stat_describes_without_following_symlinks() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "abc").unwrap();
    std::os::unix::fs::symlink("gone", app.path("dangling")).unwrap();

    let file = app.client.stat("f.txt").await.unwrap();
    assert_eq!(
        (file.name.as_str(), file.kind, file.size),
        ("f.txt", FileKind::File, 3)
    );
    assert_eq!(file.symlink_target, None);
    let link = app.client.stat("dangling").await.unwrap();
    assert_eq!(link.kind, FileKind::Symlink);
    assert_eq!(link.symlink_target.as_deref(), Some("gone"));
    let root = app.client.stat("/").await.unwrap();
    assert_eq!((root.name.as_str(), root.kind), ("/", FileKind::Dir));
    expect_code(app.client.stat("missing").await, ErrorCode::NotFound);
}

#[tokio::test]
async fn mkdir_creates_parents_and_accepts_existing_directories() {
    let app = spawn_app().await;
    let mkdir = |path: &str, parents: bool| MkdirRequest {
        path: path.into(),
        parents,
    };
    let made = app.client.mkdir(&mkdir("x/y/z", true)).await.unwrap();
    assert_eq!(
        (made.kind, made.path.as_str()),
        (FileKind::Dir, shown(&app, "x/y/z").as_str())
    );
    assert!(app.path("x/y/z").is_dir());
    app.client.mkdir(&mkdir("x/y/z", true)).await.unwrap();
    app.client.mkdir(&mkdir("x/y/z", false)).await.unwrap();

    expect_code(app.client.mkdir(&mkdir("p/q", false)).await, ErrorCode::NotFound);
    std::fs::write(app.path("file"), "").unwrap();
    expect_code(
        app.client.mkdir(&mkdir("file", true)).await,
        ErrorCode::AlreadyExists,
    );
    expect_code(
        app.client.mkdir(&mkdir("file/sub", true)).await,
        ErrorCode::WrongKind,
    );
}

#[tokio::test]
async fn move_renames_and_respects_overwrite() {
    let app = spawn_app().await;
    std::fs::write(app.path("a.txt"), "A").unwrap();
    std::fs::write(app.path("b.txt"), "B").unwrap();

    let moved = app
        .client
        .move_path(&moving("a.txt", "sub/dir/a2.txt", false))
        .await
        .unwrap();
    assert_eq!(
        (moved.path.as_str(), moved.size),
        (shown(&app, "sub/dir/a2.txt").as_str(), 1)
    );
    assert!(!app.path("a.txt").exists());
    assert_eq!(std::fs::read_to_string(app.path("sub/dir/a2.txt")).unwrap(), "A");

    let message = expect_code(
        app.client
            .move_path(&moving("sub/dir/a2.txt", "b.txt", false))
            .await,
        ErrorCode::AlreadyExists,
    );
    assert!(message.contains("overwrite"), "{message}");
    assert_eq!(
        std::fs::read_to_string(app.path("b.txt")).unwrap(),
        "B",
        "the target is untouched"
    );

    app.client
        .move_path(&moving("sub/dir/a2.txt", "b.txt", true))
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(app.path("b.txt")).unwrap(), "A");

    app.client
        .move_path(&moving("sub", "renamed", false))
        .await
        .unwrap();
    assert!(app.path("renamed/dir").is_dir());

    expect_code(
        app.client.move_path(&moving("ghost", "x", false)).await,
        ErrorCode::NotFound,
    );
    expect_code(
        app.client.move_path(&moving(".", "elsewhere", false)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client.move_path(&moving("b.txt", "/", true)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client
            .move_path(&moving("renamed", "renamed/inside", false))
            .await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn move_copies_files_across_filesystems() {
    let app = spawn_app().await;
    // /dev/shm is a tmpfs: a rename from there into the workspace crosses filesystems.
    let outside = tempfile::tempdir_in("/dev/shm").unwrap();
    let source = outside.path().join("report.txt");
    std::fs::write(&source, "from another filesystem").unwrap();
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::write(app.path("taken.txt"), "keep").unwrap();

    let from = source.display().to_string();
    expect_code(
        app.client.move_path(&moving(&from, "taken.txt", false)).await,
        ErrorCode::AlreadyExists,
    );
    let moved = app
        .client
        .move_path(&moving(&from, "in/report.txt", false))
        .await
        .unwrap();
    assert_eq!((moved.size, moved.mode), (23, 0o640));
    assert!(!source.exists(), "the original is removed");
    assert_eq!(
        std::fs::read_to_string(app.path("in/report.txt")).unwrap(),
        "from another filesystem"
    );
    assert_eq!(names_in_dir(&app, "in"), ["report.txt"]);
}

#[tokio::test]
async fn delete_needs_recursive_for_full_directories_and_spares_the_workspace() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("full/inner")).unwrap();
    std::fs::write(app.path("full/inner/f"), "x").unwrap();
    std::fs::create_dir(app.path("empty")).unwrap();
    std::fs::write(app.path("target.txt"), "keep me").unwrap();
    std::os::unix::fs::symlink(app.path("target.txt"), app.path("link")).unwrap();

    app.client.delete(&delete("link", false)).await.unwrap();
    assert!(std::fs::symlink_metadata(app.path("link")).is_err());
    assert_eq!(
        std::fs::read_to_string(app.path("target.txt")).unwrap(),
        "keep me"
    );

    app.client.delete(&delete("target.txt", false)).await.unwrap();
    assert!(!app.path("target.txt").exists());
    app.client.delete(&delete("empty", false)).await.unwrap();
    assert!(!app.path("empty").exists());

    let message = expect_code(
        app.client.delete(&delete("full", false)).await,
        ErrorCode::DirectoryNotEmpty,
    );
    assert!(message.contains("recursive"), "{message}");
    assert!(app.path("full/inner/f").exists());
    app.client.delete(&delete("full", true)).await.unwrap();
    assert!(!app.path("full").exists());

    for protected in ["/", ".", "", "..", &shown(&app, ""), "sub/../.."] {
        let result = app.client.delete(&delete(protected, true)).await;
        expect_code(result, ErrorCode::InvalidInput);
    }
    assert!(app.root().is_dir());
    expect_code(
        app.client.delete(&delete("missing", false)).await,
        ErrorCode::NotFound,
    );
}
