//! Finding files by path or name (and by modification time) and searching their lines.

use super::*;

/// A small project: src/{main.rs, lib.rs, http/mod.rs}, README.md, docs/guide.md.
fn make_project(app: &TestApp) {
    for (path, content) in [
        ("proj/src/main.rs", "fn main() {\n    run();\n}\n"),
        ("proj/src/lib.rs", "pub fn run() {\n    // TODO: more\n}\n"),
        ("proj/src/http/mod.rs", "pub mod routes; // todo\n"),
        ("proj/README.md", "# Project\nRun it with `cargo run`.\n"),
        ("proj/docs/guide.md", "Nothing to do.\n"),
    ] {
        std::fs::create_dir_all(app.path(path).parent().unwrap()).unwrap();
        std::fs::write(app.path(path), content).unwrap();
    }
}

#[tokio::test]
async fn find_matches_relative_paths_or_names() {
    let app = spawn_app().await;
    make_project(&app);
    let rs = |relative: &[&str]| {
        relative
            .iter()
            .map(|r| shown(&app, &format!("proj/{r}")))
            .collect::<Vec<_>>()
    };

    let all_rs = app.client.find(&find("proj", "**/*.rs")).await.unwrap();
    assert_eq!(
        all_rs.matches,
        rs(&["src/http/mod.rs", "src/lib.rs", "src/main.rs"])
    );
    assert!(!all_rs.truncated);
    let by_name = app.client.find(&find("proj", "*.rs")).await.unwrap();
    assert_eq!(
        by_name.matches, all_rs.matches,
        "a glob without / matches names at any depth"
    );
    let direct = app.client.find(&find("proj", "src/*.rs")).await.unwrap();
    assert_eq!(direct.matches, rs(&["src/lib.rs", "src/main.rs"]));
    let dirs = app.client.find(&find("proj", "{docs,src}")).await.unwrap();
    assert_eq!(dirs.matches, rs(&["docs", "src"]));

    let capped = FindRequest {
        max_results: Some(2),
        ..find("proj", "**/*.rs")
    };
    let capped = app.client.find(&capped).await.unwrap();
    assert_eq!(capped.matches.len(), 2);
    assert!(capped.truncated);

    let message = expect_code(
        app.client.find(&find("proj", "src/[a")).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("glob"), "{message}");
    expect_code(
        app.client.find(&find("proj/README.md", "*")).await,
        ErrorCode::WrongKind,
    );
    expect_code(app.client.find(&find("nope", "*")).await, ErrorCode::NotFound);
}

#[tokio::test]
async fn find_lists_the_files_modified_since_a_time_without_hidden_ones() {
    let app = spawn_app().await;
    make_project(&app);
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for old in ["proj/README.md", "proj/docs/guide.md", "proj/src/lib.rs"] {
        let file = std::fs::File::options().write(true).open(app.path(old)).unwrap();
        file.set_modified(an_hour_ago).unwrap();
    }
    std::fs::create_dir_all(app.path("proj/.cache/pip")).unwrap();
    std::fs::write(app.path("proj/.cache/pip/wheel"), "x").unwrap();
    let a_minute_ago = std::time::SystemTime::now() - Duration::from_secs(60);
    let since = a_minute_ago
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;

    let recent = FindRequest {
        modified_since_ms: Some(since),
        skip_hidden: true,
        ..find("proj", "**")
    };
    let recent = app.client.find(&recent).await.unwrap();
    assert_eq!(
        recent.matches,
        [
            shown(&app, "proj/src/http/mod.rs"),
            shown(&app, "proj/src/main.rs")
        ],
        "new files only: no folders, nothing older, nothing hidden"
    );

    let with_hidden = FindRequest {
        modified_since_ms: Some(since),
        ..find("proj", "**")
    };
    let with_hidden = app.client.find(&with_hidden).await.unwrap();
    assert!(
        with_hidden
            .matches
            .contains(&shown(&app, "proj/.cache/pip/wheel")),
        "{:?}",
        with_hidden.matches
    );
}

#[tokio::test]
async fn find_stops_at_the_scan_limit() {
    let app = spawn_app_with(|settings| settings.limits.scan_max_files = 3).await;
    make_project(&app);
    let found = app.client.find(&find("proj", "*")).await.unwrap();
    assert_eq!(found.matches.len(), 3);
    assert!(found.truncated);
}

#[tokio::test]
async fn search_finds_lines_with_numbers() {
    let app = spawn_app().await;
    make_project(&app);

    let todo = app.client.search(&search("proj", "TODO")).await.unwrap();
    assert_eq!(todo.matches.len(), 1);
    assert_eq!(todo.matches[0].path, shown(&app, "proj/src/lib.rs"));
    assert_eq!(todo.matches[0].line, 2);
    assert_eq!(todo.matches[0].text, "    // TODO: more");
    assert_eq!(todo.files_scanned, 5);
    assert!(!todo.truncated);

    let any_case = SearchRequest {
        case_insensitive: true,
        ..search("proj", "todo|to do")
    };
    let any_case = app.client.search(&any_case).await.unwrap();
    let found: Vec<(String, u64)> = any_case
        .matches
        .iter()
        .map(|m| (m.path.clone(), m.line))
        .collect();
    assert_eq!(
        found,
        [
            (shown(&app, "proj/docs/guide.md"), 1),
            (shown(&app, "proj/src/http/mod.rs"), 1),
            (shown(&app, "proj/src/lib.rs"), 2),
        ]
    );

    let only_md = SearchRequest {
        glob: Some("*.md".into()),
        ..search("proj", "(?i)run")
    };
    let only_md = app.client.search(&only_md).await.unwrap();
    assert_eq!(only_md.matches.len(), 1);
    assert_eq!(only_md.matches[0].path, shown(&app, "proj/README.md"));
    assert_eq!(only_md.files_scanned, 2);

    let anchored = app.client.search(&search("proj", r"^\}$")).await.unwrap();
    assert_eq!(anchored.matches.len(), 2, "line ends do not get in the way of $");

    let one_file = app
        .client
        .search(&search("proj/src/main.rs", "run"))
        .await
        .unwrap();
    assert_eq!((one_file.matches.len(), one_file.files_scanned), (1, 1));
}

#[tokio::test]
async fn search_skips_binary_files_cuts_long_lines_and_caps_results() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("s")).unwrap();
    std::fs::write(app.path("s/blob.bin"), b"needle\0needle\n").unwrap();
    let long_line = format!("{}needle{}\n", "x".repeat(3000), "y".repeat(3000));
    std::fs::write(app.path("s/long.txt"), &long_line).unwrap();
    std::fs::write(app.path("s/many.txt"), "needle\n".repeat(50)).unwrap();

    let found = app.client.search(&search("s", "needle")).await.unwrap();
    assert!(
        found.matches.iter().all(|m| !m.path.ends_with("blob.bin")),
        "binary files are skipped"
    );
    let long = found
        .matches
        .iter()
        .find(|m| m.path.ends_with("long.txt"))
        .unwrap();
    assert!(long.text.contains("needle"), "the excerpt shows the match");
    assert!(
        long.text.chars().count() <= 502,
        "{} chars",
        long.text.chars().count()
    );
    assert_eq!(found.matches.len(), 51);
    assert_eq!(found.files_scanned, 3);

    let capped = SearchRequest {
        max_results: Some(5),
        ..search("s", "needle")
    };
    let capped = app.client.search(&capped).await.unwrap();
    assert_eq!(capped.matches.len(), 5);
    assert!(capped.truncated);
}

#[tokio::test]
async fn search_rejects_invalid_patterns() {
    let app = spawn_app().await;
    make_project(&app);
    let message = expect_code(
        app.client.search(&search("proj", "fn (")).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("regex"), "{message}");
    let bad_glob = SearchRequest {
        glob: Some("**/*.{rs".into()),
        ..search("proj", "fn")
    };
    expect_code(app.client.search(&bad_glob).await, ErrorCode::InvalidInput);
    expect_code(
        app.client.search(&search("nope", "fn")).await,
        ErrorCode::NotFound,
    );
}
