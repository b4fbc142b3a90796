//! Clients that go away halfway through a download or an archive.

use super::*;

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
