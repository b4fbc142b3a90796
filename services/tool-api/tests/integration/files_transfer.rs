//! Upload, download and archive through HTTP against the real server: streamed in both
//! directions, with size limits, byte ranges, and clients that go away halfway.

use crate::support;

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use reqwest::header::{ACCEPT_RANGES, CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use support::{expect_code, spawn_app, spawn_app_with, TestApp};
use tool_api_contract::files::ArchiveFormat;
use tool_api_contract::{ErrorBody, ErrorCode};

const MIB: usize = 1 << 20;

/// Chunk `index` of a generated file: 1 MiB whose first bytes carry the index, so a lost,
/// repeated or reordered chunk changes the checksum.
fn chunk(index: usize) -> Bytes {
    let mut data = vec![(index % 251) as u8; MIB];
    data[..8].copy_from_slice(&(index as u64).to_le_bytes());
    Bytes::from(data)
}

/// CRC-32 and length of the generated file of `chunks` chunks.
fn expected(chunks: usize) -> (u32, u64) {
    let mut crc = flate2::Crc::new();
    for index in 0..chunks {
        crc.update(&chunk(index));
    }
    (crc.sum(), (chunks * MIB) as u64)
}

/// The generated file as a streamed request body (no `Content-Length`).
fn streamed_body(chunks: usize) -> reqwest::Body {
    let stream = futures::stream::iter(0..chunks).map(|index| Ok::<_, std::io::Error>(chunk(index)));
    reqwest::Body::wrap_stream(stream)
}

/// CRC-32 and length of a response body, read as it arrives.
async fn consume(response: reqwest::Response) -> (u32, u64) {
    let mut crc = flate2::Crc::new();
    let mut len = 0u64;
    let mut body = response.bytes_stream();
    while let Some(piece) = body.next().await {
        let piece = piece.unwrap();
        crc.update(&piece);
        len += piece.len() as u64;
    }
    (crc.sum(), len)
}

/// Samples this process's resident memory (client and server both) while a transfer runs.
struct MemoryWatch {
    baseline: u64,
    stop: Arc<AtomicBool>,
    sampler: tokio::task::JoinHandle<u64>,
}

impl MemoryWatch {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let sampler = tokio::spawn({
            let stop = stop.clone();
            async move {
                let mut peak = 0;
                while !stop.load(Ordering::Relaxed) {
                    peak = peak.max(resident_bytes());
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                peak
            }
        });
        Self {
            baseline: resident_bytes(),
            stop,
            sampler,
        }
    }

    /// How far above its level at the start memory went, in MiB.
    async fn growth_mib(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.sampler.await.unwrap().saturating_sub(self.baseline) >> 20
    }
}

fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// Names in a directory, sorted; staging files included, so leftovers show.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---- upload and download ----

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

// ---- archive ----

/// proj/{a.txt, run.sh (0755), src/lib.rs, empty/, link -> a.txt}
fn make_tree(app: &TestApp) {
    std::fs::create_dir_all(app.path("proj/src")).unwrap();
    std::fs::create_dir_all(app.path("proj/empty")).unwrap();
    std::fs::write(app.path("proj/a.txt"), "alpha\n").unwrap();
    std::fs::write(app.path("proj/run.sh"), "#!/bin/sh\necho run\n").unwrap();
    std::fs::set_permissions(app.path("proj/run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(app.path("proj/src/lib.rs"), "pub fn f() {}\n".repeat(1000)).unwrap();
    std::os::unix::fs::symlink("a.txt", app.path("proj/link")).unwrap();
}

#[tokio::test]
async fn a_directory_streams_as_a_zip() {
    let app = spawn_app().await;
    make_tree(&app);
    let response = app.client.archive("proj", ArchiveFormat::Zip).await.unwrap();
    assert_eq!(response.headers()[CONTENT_TYPE], "application/zip");
    assert!(response.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("filename=\"proj.zip\""));
    let bytes = response.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();

    let mut names: Vec<String> = zip.file_names().map(|name| name.unwrap().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "proj/",
            "proj/a.txt",
            "proj/empty/",
            "proj/link",
            "proj/run.sh",
            "proj/src/",
            "proj/src/lib.rs"
        ]
    );
    let mut lib = String::new();
    zip.by_name("proj/src/lib.rs")
        .unwrap()
        .read_to_string(&mut lib)
        .unwrap();
    assert_eq!(lib, "pub fn f() {}\n".repeat(1000));
    let run = zip.by_name("proj/run.sh").unwrap();
    assert_eq!(run.unix_mode().unwrap() & 0o777, 0o755);
    assert!(run.last_modified().unwrap().year() >= 2024);
    drop(run);
    let mut link = zip.by_name("proj/link").unwrap();
    assert!(link.is_symlink());
    let mut target = String::new();
    link.read_to_string(&mut target).unwrap();
    assert_eq!(target, "a.txt");
}

#[tokio::test]
async fn a_directory_streams_as_a_tar_gz() {
    let app = spawn_app().await;
    make_tree(&app);
    let response = app.client.archive("proj", ArchiveFormat::TarGz).await.unwrap();
    assert_eq!(response.headers()[CONTENT_TYPE], "application/gzip");
    assert!(response.headers()[CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("filename=\"proj.tar.gz\""));
    let bytes = response.bytes().await.unwrap();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));

    let mut seen = Vec::new();
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().display().to_string();
        match name.as_str() {
            "proj/src/lib.rs" => {
                let mut lib = String::new();
                entry.read_to_string(&mut lib).unwrap();
                assert_eq!(lib, "pub fn f() {}\n".repeat(1000));
            }
            "proj/run.sh" => assert_eq!(entry.header().mode().unwrap() & 0o777, 0o755),
            "proj/link" => {
                assert_eq!(entry.header().entry_type(), tar::EntryType::Symlink);
                assert_eq!(entry.link_name().unwrap().unwrap().display().to_string(), "a.txt");
            }
            "proj/empty" | "proj/src" | "proj" => {
                assert_eq!(entry.header().entry_type(), tar::EntryType::Directory)
            }
            _ => {}
        }
        seen.push(name);
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "proj",
            "proj/a.txt",
            "proj/empty",
            "proj/link",
            "proj/run.sh",
            "proj/src",
            "proj/src/lib.rs"
        ]
    );
}

#[tokio::test]
async fn archive_errors() {
    let app = spawn_app().await;
    make_tree(&app);
    expect_code(
        app.client.archive("proj/a.txt", ArchiveFormat::Zip).await,
        ErrorCode::WrongKind,
    );
    expect_code(
        app.client.archive("nope", ArchiveFormat::TarGz).await,
        ErrorCode::NotFound,
    );
    let response = app
        .request(Method::GET, "/v1/files/archive?path=proj&format=rar")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

// ---- clients that go away ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_leaving_mid_download_or_archive_do_not_hurt_the_server() {
    let app = spawn_app().await;
    std::fs::create_dir(app.path("big")).unwrap();
    let mut file = std::fs::File::create(app.path("big/data.bin")).unwrap();
    for index in 0..64 {
        std::io::Write::write_all(&mut file, &chunk(index)).unwrap();
    }
    drop(file);

    for _ in 0..3 {
        let response = app.client.download("big/data.bin", None).await.unwrap();
        let mut body = response.bytes_stream();
        body.next().await.unwrap().unwrap();
        drop(body);

        for format in [ArchiveFormat::Zip, ArchiveFormat::TarGz] {
            let response = app.client.archive("big", format).await.unwrap();
            let mut body = response.bytes_stream();
            body.next().await.unwrap().unwrap();
            drop(body);
        }
    }

    // Later requests are served in full.
    let response = app
        .client
        .download("big/data.bin", Some("bytes=-1048576"))
        .await
        .unwrap();
    assert_eq!(response.bytes().await.unwrap(), chunk(63));
    let response = app.client.archive("big", ArchiveFormat::Zip).await.unwrap();
    let zip = zip::ZipArchive::new(std::io::Cursor::new(response.bytes().await.unwrap())).unwrap();
    assert_eq!(zip.len(), 2);
}
