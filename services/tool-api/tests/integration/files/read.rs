//! Reading files: whole or by lines, past the end, binary and invalid UTF-8, the byte
//! limit, the errors' words, malformed bodies; and `..` resolved from the workspace.

use super::*;

#[tokio::test]
async fn read_returns_the_whole_file_or_a_line_range() {
    let app = spawn_app().await;
    std::fs::write(app.path("poem.txt"), "one\ntwo\nthree\nfour").unwrap();

    let all = app.client.read_file(&read("poem.txt")).await.unwrap();
    assert_eq!(all.path, shown(&app, "poem.txt"));
    assert_eq!(all.content, "one\ntwo\nthree\nfour");
    assert_eq!((all.start_line, all.end_line, all.total_lines), (1, 4, Some(4)));
    assert_eq!(all.size, 18);
    assert!(!all.binary && !all.lossy && !all.truncated);

    let middle = app
        .client
        .read_file(&lines("poem.txt", Some(2), Some(3)))
        .await
        .unwrap();
    assert_eq!(middle.content, "two\nthree\n");
    assert_eq!(
        (middle.start_line, middle.end_line, middle.total_lines),
        (2, 3, Some(4))
    );

    let tail = app
        .client
        .read_file(&lines("poem.txt", Some(4), None))
        .await
        .unwrap();
    assert_eq!(
        (tail.content.as_str(), tail.start_line, tail.end_line),
        ("four", 4, 4)
    );

    let absolute = app
        .client
        .read_file(&read(&shown(&app, "poem.txt")))
        .await
        .unwrap();
    assert_eq!(absolute.content, all.content);
}

#[tokio::test]
async fn read_past_the_end_and_huge_numbers_are_empty_not_errors() {
    let app = spawn_app().await;
    std::fs::write(app.path("short.txt"), "a\nb\n").unwrap();

    for start in [3, 1000, u64::MAX] {
        let past = app
            .client
            .read_file(&lines("short.txt", Some(start), None))
            .await
            .unwrap();
        assert_eq!(past.content, "", "start {start}");
        assert_eq!(
            (past.start_line, past.end_line, past.total_lines),
            (0, 0, Some(2))
        );
        assert!(!past.truncated);
    }

    let request = ReadFileRequest {
        end_line: Some(u64::MAX),
        max_bytes: Some(u64::MAX),
        ..read("short.txt")
    };
    let everything = app.client.read_file(&request).await.unwrap();
    assert_eq!((everything.content.as_str(), everything.end_line), ("a\nb\n", 2));

    let empty = app.client.read_file(&read("short.txt")).await.unwrap();
    assert_eq!(empty.total_lines, Some(2));
    std::fs::write(app.path("empty.txt"), "").unwrap();
    let empty = app.client.read_file(&read("empty.txt")).await.unwrap();
    assert_eq!(
        (empty.content.as_str(), empty.start_line, empty.total_lines),
        ("", 0, Some(0))
    );
}

#[tokio::test]
async fn read_rejects_reversed_and_zero_line_numbers() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "a\nb\nc\n").unwrap();
    let message = expect_code(
        app.client.read_file(&lines("f.txt", Some(3), Some(2))).await,
        ErrorCode::InvalidInput,
    );
    assert!(message.contains("start_line 3 is after end_line 2"), "{message}");
    expect_code(
        app.client.read_file(&lines("f.txt", Some(0), None)).await,
        ErrorCode::InvalidInput,
    );
    expect_code(
        app.client
            .read_file(&lines("f.txt", Some(u64::MAX), Some(1)))
            .await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn numbers_json_cannot_hold_and_malformed_bodies_are_400() {
    let app = spawn_app().await;
    std::fs::write(app.path("f.txt"), "a\n").unwrap();
    for body in [
        r#"{"path":"f.txt","start_line":18446744073709551616}"#,
        r#"{"path":"f.txt","start_line":1e30}"#,
        r#"{"path":"f.txt","start_line":-1}"#,
        r#"{"path":"f.txt","end_line":"2"}"#,
        r#"{"path":"f.txt","max_bytes":1.5}"#,
        r#"{"path":"f.txt""#,
        r#"{"start_line":1}"#,
        "not json",
    ] {
        let (status, error) = post_raw(&app, "/v1/files/read", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(error.error.code, ErrorCode::MalformedRequest, "{body}");
    }
    // The largest number JSON can carry into a u64 is accepted.
    let response = app
        .request(Method::POST, "/v1/files/read")
        .json(&json!({"path": "f.txt", "start_line": 18446744073709551615u64}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for route in [
        "/v1/files/write",
        "/v1/files/replace",
        "/v1/files/find",
        "/v1/files/delete",
    ] {
        let (status, _) = post_raw(&app, route, "{").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{route}");
    }
}

#[tokio::test]
async fn binary_files_are_flagged_and_invalid_utf8_is_decoded_lossily() {
    let app = spawn_app().await;
    let mut binary = b"\x7fELF\x02\x01".to_vec();
    binary.extend_from_slice(&[0u8; 64]);
    std::fs::write(app.path("prog"), &binary).unwrap();
    let read_binary = app.client.read_file(&read("prog")).await.unwrap();
    assert!(read_binary.binary);
    assert_eq!(read_binary.content, "");
    assert_eq!(read_binary.size, binary.len() as u64);

    std::fs::write(app.path("latin1.txt"), b"caf\xe9\nna\xefve\n").unwrap();
    let latin1 = app.client.read_file(&read("latin1.txt")).await.unwrap();
    assert!(latin1.lossy && !latin1.binary);
    assert_eq!(latin1.content, "caf\u{FFFD}\nna\u{FFFD}ve\n");

    std::fs::write(app.path("utf8.txt"), "grüße ☃\n").unwrap();
    let utf8 = app.client.read_file(&read("utf8.txt")).await.unwrap();
    assert!(!utf8.lossy);
    assert_eq!(utf8.content, "grüße ☃\n");
}

#[tokio::test]
async fn reads_stop_at_the_byte_limit_without_splitting_characters() {
    let app = spawn_app_with(|settings| settings.limits.read_max_bytes = 10).await;
    std::fs::write(app.path("long.txt"), "0123456\n89abcdef\nmore\n").unwrap();
    let capped = app.client.read_file(&read("long.txt")).await.unwrap();
    assert_eq!(capped.content, "0123456\n89");
    assert!(capped.truncated);
    assert_eq!((capped.start_line, capped.end_line), (1, 2));

    let smaller = ReadFileRequest {
        max_bytes: Some(4),
        ..read("long.txt")
    };
    let smaller = app.client.read_file(&smaller).await.unwrap();
    assert_eq!((smaller.content.as_str(), smaller.truncated), ("0123", true));

    // ☃ is 3 bytes; a cut through it drops it instead of producing U+FFFD.
    std::fs::write(app.path("snow.txt"), "abcdefgh☃").unwrap();
    let snow = app.client.read_file(&read("snow.txt")).await.unwrap();
    assert_eq!(
        (snow.content.as_str(), snow.lossy, snow.truncated),
        ("abcdefgh", false, true)
    );
}

#[tokio::test]
async fn read_errors_name_the_problem() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("dir")).unwrap();
    let missing = expect_code(app.client.read_file(&read("nope.txt")).await, ErrorCode::NotFound);
    assert!(missing.contains(&shown(&app, "nope.txt")), "{missing}");
    expect_code(app.client.read_file(&read("dir")).await, ErrorCode::WrongKind);
    let nul = expect_code(app.client.read_file(&read("a\0b")).await, ErrorCode::InvalidInput);
    assert!(nul.contains("NUL"), "{nul}");
    expect_code(app.client.read_file(&read("")).await, ErrorCode::InvalidInput);
    expect_code(
        app.client.read_file(&read(&"x/".repeat(3000))).await,
        ErrorCode::InvalidInput,
    );
}

#[tokio::test]
async fn dot_dot_resolves_lexically_from_the_workspace() {
    let app = spawn_app().await;
    app.client
        .write_file(&write("a/../b.txt", "inside"))
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(app.path("b.txt")).unwrap(), "inside");

    // Enough `..` to reach `/`, then a detour through /etc: the path is taken apart
    // lexically, so this lands in /tmp, outside the workspace.
    let unique = format!("tool-api-escape-{}", std::process::id());
    let depth = app.root().components().count();
    let raw = format!("{}etc/../tmp/{unique}/x.txt", "../".repeat(depth + 2));
    let written = app.client.write_file(&write(&raw, "outside")).await.unwrap();
    assert_eq!(written.path, format!("/tmp/{unique}/x.txt"));
    assert_eq!(std::fs::read_to_string(&written.path).unwrap(), "outside");
    std::fs::remove_dir_all(format!("/tmp/{unique}")).unwrap();
}
