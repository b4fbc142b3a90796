//! Archives: a directory streamed as a zip or a tar.gz, and the errors of an archive
//! request.

use super::*;

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
