//! envd's REST `/files` over the wire: uploads as E2B's SDK sends them (a raw body, gzip,
//! multipart with one or several files, metadata headers) and downloads (kernel files
//! that misreport their size included), within the upload limit and the storage quota.

use std::io::Write;

use serde_json::{json, Value};

use super::wire::unary;
use crate::support::{spawn_app, spawn_app_with, TestApp};

fn files_url(path: &str) -> String {
    format!("/e2b/envd/files?path={}", urlencode(path))
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

async fn download(app: &TestApp, path: &str) -> reqwest::Response {
    app.request(reqwest::Method::GET, &files_url(path))
        .send()
        .await
        .unwrap()
}

fn multipart(parts: &[(&str, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "envd-test-boundary-7f3a";
    let mut body = Vec::new();
    for (name, content) in parts {
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{boundary}--\r\n").unwrap();
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn a_raw_upload_lands_with_its_metadata_and_downloads_again() {
    let app = spawn_app().await;
    let path = app.path("deep/dir/a.bin").display().to_string();
    let content: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    let response = app
        .request(reqwest::Method::POST, &files_url(&path))
        .header("content-type", "application/octet-stream")
        .header("X-Metadata-Owner", "Alice")
        .body(content.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let written: Value = response.json().await.unwrap();
    assert_eq!(
        written,
        json!([{ "name": "a.bin", "type": "file", "path": path, "metadata": { "owner": "Alice" } }])
    );
    assert_eq!(std::fs::read(&path).unwrap(), content);
    let (_, stat) = unary(&app, "filesystem.Filesystem/Stat", json!({ "path": path })).await;
    assert_eq!(
        stat["entry"]["metadata"],
        json!({ "owner": "Alice" }),
        "kept as user.e2b.* attributes"
    );

    let fetched = download(&app, &path).await;
    assert_eq!(fetched.status(), 200);
    assert_eq!(fetched.headers()["content-length"], "100000");
    assert_eq!(fetched.bytes().await.unwrap().to_vec(), content);

    // Again, gzip-compressed: the file is replaced by the decompressed body.
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(b"second version").unwrap();
    let response = app
        .request(reqwest::Method::POST, &files_url(&path))
        .header("content-type", "application/octet-stream")
        .header("content-encoding", "gzip")
        .body(gzip.finish().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second version");
}

#[tokio::test]
async fn multipart_uploads_write_each_part_to_its_name() {
    let app = spawn_app().await;
    let first = app.path("m/one.txt").display().to_string();
    let second = app.path("m/two.txt").display().to_string();
    let (content_type, body) = multipart(&[(&first, b"1"), (&second, b"22")]);
    let response = app
        .request(reqwest::Method::POST, "/e2b/envd/files")
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let written: Value = response.json().await.unwrap();
    assert_eq!(written[0]["path"], first);
    assert_eq!(written[1]["path"], second);
    assert_eq!(written[1]["type"], "file");
    assert_eq!(std::fs::read_to_string(&second).unwrap(), "22");

    // One file with `path`: the path wins over the part's name.
    let target = app.path("m/renamed.txt").display().to_string();
    let (content_type, body) = multipart(&[("ignored.txt", b"3")]);
    let response = app
        .request(reqwest::Method::POST, &files_url(&target))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "3");
    assert!(!app.path("m/ignored.txt").exists());
}

/// `/proc` and `/sys` files report a size of 0 or a page, whatever they hold: they come
/// whole, chunked, here and on the tool-api's own download route (Range or not).
#[tokio::test]
async fn kernel_files_download_whole_though_their_size_says_otherwise() {
    let app = spawn_app().await;
    for path in [
        "/proc/sys/kernel/random/boot_id",
        "/sys/devices/system/cpu/online",
    ] {
        let expected = std::fs::read_to_string(path).unwrap();
        let envd = download(&app, path).await;
        let own = app.client.download(path, Some("bytes=0-3")).await.unwrap();
        for response in [envd, own] {
            assert_eq!(response.status(), 200, "{path}");
            assert!(
                response.headers().get("content-length").is_none(),
                "{path}: no length to announce"
            );
            assert_eq!(response.text().await.unwrap(), expected, "{path}");
        }
    }
    let status = download(&app, "/proc/self/status").await.text().await.unwrap();
    assert!(status.starts_with("Name:"), "{status}");
}

#[tokio::test]
async fn transfers_are_refused_with_envd_errors() {
    let app = spawn_app().await;
    let missing = download(&app, &app.path("nope.txt").display().to_string()).await;
    assert_eq!(missing.status(), 404);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["code"], 404);
    assert!(body["message"].as_str().unwrap().contains("nope.txt"), "{body}");
    assert_eq!(
        download(&app, &app.root().display().to_string()).await.status(),
        400
    );
    let as_root = app
        .request(
            reqwest::Method::GET,
            &format!("{}&username=root", files_url("/etc/hostname")),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(as_root.status(), 403);
    let no_path = app
        .request(reqwest::Method::POST, "/e2b/envd/files")
        .header("content-type", "application/octet-stream")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(no_path.status(), 400);
    let bad_metadata = app
        .request(
            reqwest::Method::POST,
            &files_url(&app.path("m.txt").display().to_string()),
        )
        .header("content-type", "application/octet-stream")
        .header("X-Metadata-Key", "caf\u{e9}")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_metadata.status(), 400);
    assert!(!app.path("m.txt").exists());
}

#[tokio::test]
async fn the_storage_quota_refuses_uploads_with_507() {
    let app = spawn_app_with(|settings| settings.limits.storage_quota_bytes = Some(1 << 20)).await;
    let path = app.path("big.bin").display().to_string();
    let declared = app
        .request(reqwest::Method::POST, &files_url(&path))
        .header("content-type", "application/octet-stream")
        .body(vec![0u8; 2 << 20])
        .send()
        .await
        .unwrap();
    assert_eq!(declared.status(), 507, "refused by its Content-Length");
    let body: Value = declared.json().await.unwrap();
    assert!(
        body["message"].as_str().unwrap().contains("storage quota"),
        "{body}"
    );

    // Without a length, the body is cut off where the quota ends.
    let chunks = futures::stream::iter((0..32).map(|_| Ok::<_, std::io::Error>(vec![0u8; 64 << 10])));
    let streamed = app
        .request(reqwest::Method::POST, &files_url(&path))
        .header("content-type", "application/octet-stream")
        .body(reqwest::Body::wrap_stream(chunks))
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.status(), 507);
    assert!(!app.path("big.bin").exists(), "nothing is left behind");
}
