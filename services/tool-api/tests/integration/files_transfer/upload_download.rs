//! Upload and download: a 200 MB file intact both ways, single ranges, errors, content
//! types and names, overwrite, the size limit, an upload that breaks off, bad queries.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_200_mb_file_streams_up_and_down_intact() {
    let app = spawn_app().await;
    const CHUNKS: usize = 200;
    let (crc, len) = expected(CHUNKS);

    let memory = MemoryWatch::start();
    let uploaded = app
        .client
        .upload("big/data.bin", false, streamed_body(CHUNKS))
        .await
        .unwrap();
    let growth = memory.growth_mib().await;
    assert!(growth < 100, "memory grew by {growth} MiB during the upload");
    assert_eq!(uploaded.size, len);
    assert_eq!(uploaded.path, app.path("big/data.bin").display().to_string());
    assert_eq!(std::fs::metadata(app.path("big/data.bin")).unwrap().len(), len);
    assert_eq!(names_in(&app.path("big")), ["data.bin"]);

    let memory = MemoryWatch::start();
    let response = app.client.download("big/data.bin", None).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_LENGTH], len.to_string().as_str());
    assert_eq!(response.headers()[CONTENT_TYPE], "application/octet-stream");
    assert_eq!(response.headers()[ACCEPT_RANGES], "bytes");
    let disposition = response.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"data.bin\""),
        "{disposition}"
    );
    assert_eq!(consume(response).await, (crc, len));
    let growth = memory.growth_mib().await;
    assert!(growth < 100, "memory grew by {growth} MiB during the download");
}

#[tokio::test]
async fn download_serves_single_ranges() {
    let app = spawn_app().await;
    let content: Vec<u8> = (0..1000u32).map(|i| (i % 256) as u8).collect();
    std::fs::write(app.path("r.bin"), &content).unwrap();

    for (range, first, last) in [
        ("bytes=0-99", 0, 99),
        ("bytes=900-", 900, 999),
        ("bytes=-10", 990, 999),
        ("bytes=995-5000", 995, 999),
    ] {
        let response = app.client.download("r.bin", Some(range)).await.unwrap();
        assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT, "{range}");
        assert_eq!(
            response.headers()[CONTENT_RANGE],
            format!("bytes {first}-{last}/1000").as_str()
        );
        assert_eq!(
            response.headers()[CONTENT_LENGTH],
            (last - first + 1).to_string().as_str()
        );
        assert_eq!(response.bytes().await.unwrap(), &content[first..=last], "{range}");
    }

    // Several ranges: the whole file, as the RFC allows.
    let response = app.client.download("r.bin", Some("bytes=0-1,5-6")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.bytes().await.unwrap(), content);

    let response = app
        .request(Method::GET, "/v1/files/download?path=r.bin")
        .header("range", "bytes=1000-")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(response.headers()[CONTENT_RANGE], "bytes */1000");
    let body: ErrorBody = response.json().await.unwrap();
    assert_eq!(body.error.code, ErrorCode::RangeNotSatisfiable);
    expect_code(
        app.client.download("r.bin", Some("bytes=-0")).await,
        ErrorCode::RangeNotSatisfiable,
    );
}

#[tokio::test]
async fn download_errors() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(
        app.client.download("missing.bin", None).await,
        ErrorCode::NotFound,
    );
    expect_code(app.client.download("dir", None).await, ErrorCode::WrongKind);
    expect_code(app.client.download("a\0b", None).await, ErrorCode::InvalidInput);
    let response = app
        .request(Method::GET, "/v1/files/download")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST, "no path");
}

#[tokio::test]
async fn download_guesses_the_content_type_and_names_the_file() {
    let app = spawn_app().await;
    std::fs::write(app.path("ünïcode \"notes\".txt"), "hello").unwrap();
    let response = app.client.download("ünïcode \"notes\".txt", None).await.unwrap();
    assert_eq!(response.headers()[CONTENT_TYPE], "text/plain; charset=utf-8");
    let disposition = response.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.contains("filename*=UTF-8''%C3%BCn%C3%AFcode%20%22notes%22.txt"),
        "{disposition}"
    );
    assert_eq!(response.text().await.unwrap(), "hello");
}

#[tokio::test]
async fn upload_respects_overwrite() {
    let app = spawn_app().await;
    std::fs::write(app.path("keep.txt"), "original").unwrap();
    std::fs::set_permissions(app.path("keep.txt"), std::fs::Permissions::from_mode(0o600)).unwrap();

    let refused = app.client.upload("keep.txt", false, "new content").await;
    expect_code(refused, ErrorCode::AlreadyExists);
    assert_eq!(std::fs::read_to_string(app.path("keep.txt")).unwrap(), "original");

    let replaced = app.client.upload("keep.txt", true, "new content").await.unwrap();
    assert_eq!(replaced.size, 11);
    assert_eq!(
        std::fs::read_to_string(app.path("keep.txt")).unwrap(),
        "new content"
    );
    let mode = std::fs::metadata(app.path("keep.txt"))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777;
    assert_eq!(mode, 0o600, "the replaced file's permissions are kept");

    let empty = app.client.upload("empty.bin", false, Vec::new()).await.unwrap();
    assert_eq!(empty.size, 0);
    assert!(app.path("empty.bin").is_file());

    std::fs::create_dir(app.path("dir")).unwrap();
    expect_code(app.client.upload("dir", true, "x").await, ErrorCode::WrongKind);
    assert_eq!(names_in(app.root()), ["dir", "empty.bin", "keep.txt"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_over_the_limit_are_refused_and_leave_nothing() {
    let app = spawn_app_with(|settings| settings.limits.upload_max_bytes = 3 * MIB as u64).await;
    std::fs::create_dir(app.path("up")).unwrap();

    // Declared too large: refused from the Content-Length, before the body is read.
    let declared = app
        .client
        .upload("up/declared.bin", false, vec![0u8; 4 * MIB])
        .await;
    let message = expect_code(declared, ErrorCode::PayloadTooLarge);
    assert!(message.contains(&(3 * MIB).to_string()), "{message}");

    // Streamed without a length: cut off once it passes the limit.
    let streamed = app
        .client
        .upload("up/streamed.bin", false, streamed_body(8))
        .await;
    expect_code(streamed, ErrorCode::PayloadTooLarge);

    // At the limit exactly: accepted.
    let at_limit = app
        .client
        .upload("up/fits.bin", false, streamed_body(3))
        .await
        .unwrap();
    assert_eq!(at_limit.size, 3 * MIB as u64);
    assert_eq!(names_in(&app.path("up")), ["fits.bin"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_that_breaks_off_leaves_nothing() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("up")).unwrap();
    let (sent, mut sent_rx) = tokio::sync::mpsc::channel::<()>(1);
    // Five chunks, then the body fails: the client abandons the request mid-body.
    let stream = futures::stream::iter(0..6).then(move |index| {
        let sent = sent.clone();
        async move {
            if index < 5 {
                Ok(chunk(index))
            } else {
                let _ = sent.send(()).await;
                tokio::time::sleep(Duration::from_millis(200)).await;
                Err(std::io::Error::other("client gives up"))
            }
        }
    });
    let result = app
        .client
        .upload("up/partial.bin", false, reqwest::Body::wrap_stream(stream))
        .await;
    assert!(result.is_err());
    sent_rx.recv().await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !names_in(&app.path("up")).is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "left behind: {:?}",
            names_in(&app.path("up"))
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The server goes on serving.
    app.client.upload("up/next.bin", false, "fine").await.unwrap();
}

#[tokio::test]
async fn upload_query_errors_are_400_and_422() {
    let app = spawn_app().await;
    let response = app
        .request(Method::PUT, "/v1/files/upload")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let response = app
        .request(Method::PUT, "/v1/files/upload?path=x&overwrite=maybe")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    expect_code(
        app.client.upload("bad\0name", false, "x").await,
        ErrorCode::InvalidInput,
    );
}
