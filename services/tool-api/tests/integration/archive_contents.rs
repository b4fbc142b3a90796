//! What an archive may hold, tried as someone would who wants an archive to reach past
//! its folder: links to `/etc/passwd`, `../../`, an absolute path, and a link that only
//! leads outside once the links it goes through are resolved are left out, while links
//! inside are kept as links; a sparse file that would expand past the cap is refused
//! with a 413 before anything is sent; an ordinary folder still archives to exactly its
//! contents, in both formats.

use crate::support;

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::{symlink, PermissionsExt};

use reqwest::header::CONTENT_TYPE;
use reqwest::{Method, StatusCode};
use support::{expect_code, spawn_app, spawn_app_with, TestApp};
use tool_api_contract::files::ArchiveFormat;
use tool_api_contract::{ErrorBody, ErrorCode};

/// What an archive entry (or a file on disk) is: a folder, a file's mode and bytes, or a
/// link's target.
#[derive(Debug, PartialEq)]
enum Item {
    Dir,
    File { mode: u32, bytes: Vec<u8> },
    Link(String),
}

/// The entries of a zip, by name (without a folder's trailing `/`).
fn zip_items(bytes: &[u8]) -> BTreeMap<String, Item> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut items = BTreeMap::new();
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).unwrap();
        let name = entry.name().unwrap().trim_end_matches('/').to_owned();
        let mut bytes = Vec::new();
        let item = if entry.is_dir() {
            Item::Dir
        } else if entry.is_symlink() {
            entry.read_to_end(&mut bytes).unwrap();
            Item::Link(String::from_utf8(bytes).unwrap())
        } else {
            entry.read_to_end(&mut bytes).unwrap();
            Item::File {
                mode: entry.unix_mode().unwrap() & 0o777,
                bytes,
            }
        };
        items.insert(name, item);
    }
    items
}

/// The entries of a tar.gz, by name.
fn tar_items(bytes: &[u8]) -> BTreeMap<String, Item> {
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    let mut items = BTreeMap::new();
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().display().to_string();
        let item = match entry.header().entry_type() {
            tar::EntryType::Directory => Item::Dir,
            tar::EntryType::Symlink => Item::Link(entry.link_name().unwrap().unwrap().display().to_string()),
            _ => {
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                Item::File {
                    mode: entry.header().mode().unwrap() & 0o777,
                    bytes,
                }
            }
        };
        items.insert(name, item);
    }
    items
}

/// The archive of `path` in `format`, unpacked into items.
async fn archived(app: &TestApp, path: &str, format: ArchiveFormat) -> BTreeMap<String, Item> {
    let response = app.client.archive(path, format).await.unwrap();
    let bytes = response.bytes().await.unwrap();
    match format {
        ArchiveFormat::Zip => zip_items(&bytes),
        ArchiveFormat::TarGz => tar_items(&bytes),
    }
}

/// The tree at `path` in the workspace, as an archive of it should hold it.
fn on_disk(app: &TestApp, path: &str) -> BTreeMap<String, Item> {
    walkdir::WalkDir::new(app.path(path))
        .into_iter()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry
                .path()
                .strip_prefix(app.root())
                .unwrap()
                .display()
                .to_string();
            let kind = entry.file_type();
            let item = if kind.is_dir() {
                Item::Dir
            } else if kind.is_symlink() {
                Item::Link(std::fs::read_link(entry.path()).unwrap().display().to_string())
            } else {
                Item::File {
                    mode: entry.metadata().unwrap().permissions().mode() & 0o777,
                    bytes: std::fs::read(entry.path()).unwrap(),
                }
            };
            (name, item)
        })
        .collect()
}

fn names(items: &BTreeMap<String, Item>) -> Vec<&str> {
    items.keys().map(String::as_str).collect()
}

#[tokio::test]
async fn links_leading_outside_are_left_out_and_links_inside_kept() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("proj/sub")).unwrap();
    std::fs::create_dir_all(app.path("proj/d")).unwrap();
    std::fs::write(app.path("proj/a.txt"), "alpha\n").unwrap();
    std::fs::write(app.path("outside.txt"), "not in proj\n").unwrap();
    // Inside: kept as links.
    symlink("../a.txt", app.path("proj/sub/inside")).unwrap();
    symlink(".", app.path("proj/d/here")).unwrap();
    // Outside, each its own way.
    symlink("/etc/passwd", app.path("proj/passwd")).unwrap();
    symlink("../../", app.path("proj/sub/up")).unwrap();
    symlink("../../outside.txt", app.path("proj/sub/escape")).unwrap();
    symlink(app.path("proj/a.txt"), app.path("proj/absolute")).unwrap();
    // Inside by its text (proj/d/here/../.. is proj), outside once `here` is resolved.
    symlink("d/here/../..", app.path("proj/through")).unwrap();
    // Leads nowhere, so nowhere inside.
    symlink("missing.txt", app.path("proj/dangling")).unwrap();

    for format in [ArchiveFormat::Zip, ArchiveFormat::TarGz] {
        let items = archived(&app, "proj", format).await;
        assert_eq!(
            names(&items),
            [
                "proj",
                "proj/a.txt",
                "proj/d",
                "proj/d/here",
                "proj/sub",
                "proj/sub/inside"
            ],
            "{format:?}"
        );
        assert_eq!(
            items["proj/sub/inside"],
            Item::Link("../a.txt".into()),
            "{format:?}"
        );
        assert_eq!(items["proj/d/here"], Item::Link(".".into()), "{format:?}");
    }

    // Archived from the workspace, the same links lead inside: `outside.txt` is in it,
    // and `up` is the workspace itself. Absolute links never are.
    let items = archived(&app, ".", ArchiveFormat::Zip).await;
    let root = app.root().file_name().unwrap().to_str().unwrap().to_owned();
    let name = |path: &str| format!("{root}/{path}");
    assert_eq!(
        items[&name("proj/sub/escape")],
        Item::Link("../../outside.txt".into())
    );
    assert_eq!(items[&name("proj/sub/up")], Item::Link("../../".into()));
    assert_eq!(items[&name("proj/through")], Item::Link("d/here/../..".into()));
    for left_out in ["proj/passwd", "proj/absolute", "proj/dangling"] {
        assert!(
            !items.contains_key(&name(left_out)),
            "{left_out}: {:?}",
            names(&items)
        );
    }
}

#[tokio::test]
async fn an_ordinary_folder_archives_to_exactly_its_contents() {
    let app = spawn_app().await;
    std::fs::create_dir_all(app.path("proj/src/deep")).unwrap();
    std::fs::create_dir_all(app.path("proj/empty")).unwrap();
    std::fs::write(app.path("proj/a.txt"), "alpha\n").unwrap();
    std::fs::write(app.path("proj/run.sh"), "#!/bin/sh\necho run\n").unwrap();
    std::fs::set_permissions(app.path("proj/run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(app.path("proj/src/lib.rs"), "pub fn f() {}\n".repeat(1000)).unwrap();
    std::fs::write(
        app.path("proj/src/deep/data.bin"),
        (0..=255u8).cycle().take(300_000).collect::<Vec<_>>(),
    )
    .unwrap();
    // A sparse file within the cap expands to its zeros.
    std::fs::File::create(app.path("proj/sparse.img"))
        .unwrap()
        .set_len(3 << 20)
        .unwrap();
    symlink("a.txt", app.path("proj/link")).unwrap();
    symlink("../../a.txt", app.path("proj/src/deep/up-to-a")).unwrap();

    let expected = on_disk(&app, "proj");
    assert_eq!(expected.len(), 11, "{:?}", names(&expected));
    for format in [ArchiveFormat::Zip, ArchiveFormat::TarGz] {
        assert!(archived(&app, "proj", format).await == expected, "{format:?}");
    }
}

#[tokio::test]
async fn a_sparse_file_past_the_cap_is_a_413_before_anything_is_sent() {
    // The default cap: a 5 GiB file that takes no disk at all.
    let app = spawn_app().await;
    std::fs::create_dir(app.path("proj")).unwrap();
    std::fs::write(app.path("proj/a.txt"), "alpha\n").unwrap();
    std::fs::File::create(app.path("proj/huge.img"))
        .unwrap()
        .set_len(5 << 30)
        .unwrap();
    for format in [ArchiveFormat::Zip, ArchiveFormat::TarGz] {
        let message = expect_code(
            app.client.archive("proj", format).await,
            ErrorCode::PayloadTooLarge,
        );
        assert!(
            message.contains("4.0 GiB") && message.contains("sparse"),
            "{message}"
        );
    }
    let response = app
        .request(Method::GET, "/v1/files/archive?path=proj&format=zip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
    let body: ErrorBody = response.json().await.unwrap();
    assert_eq!(body.error.details.unwrap()["max_bytes"], 4u64 << 30);

    // A smaller storage quota caps archives too; within it, the folder archives.
    let app = spawn_app_with(|settings| settings.limits.storage_quota_bytes = Some(8 << 20)).await;
    std::fs::create_dir(app.path("proj")).unwrap();
    let sparse = std::fs::File::create(app.path("proj/sparse.img")).unwrap();
    sparse.set_len(6 << 20).unwrap();
    assert_eq!(archived(&app, "proj", ArchiveFormat::Zip).await.len(), 2);
    sparse.set_len(9 << 20).unwrap();
    let message = expect_code(
        app.client.archive("proj", ArchiveFormat::TarGz).await,
        ErrorCode::PayloadTooLarge,
    );
    assert!(message.contains("8.0 MiB"), "{message}");
}
