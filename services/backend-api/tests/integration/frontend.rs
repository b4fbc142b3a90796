//! The built front end served by the backend (`FRONTEND_DIR`): files, the app's own
//! routes falling back to `index.html`, cache headers, and the API untouched by it.

use crate::support;

use reqwest::{Method, StatusCode};
use support::TestApp;

#[tokio::test]
async fn the_front_end_is_served_beside_the_api() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html><div id=app></div>",
    )
    .unwrap();
    std::fs::write(dist.path().join("favicon.svg"), "<svg/>").unwrap();
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/index-abc123.js"), "console.log(1)").unwrap();
    let app = TestApp::spawn(&[("http.static_dir", dist.path().to_str().unwrap())]).await;

    for path in ["/", "/s/some-chat", "/share/a-token"] {
        let response = app.call(Method::GET, path, None, None).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(
            response.text().await.unwrap().contains("id=app"),
            "{path} is the app"
        );
    }
    let asset = app.call(Method::GET, "/assets/index-abc123.js", None, None).await;
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(asset.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
    assert_eq!(asset.text().await.unwrap(), "console.log(1)");
    let icon = app.call(Method::GET, "/favicon.svg", None, None).await;
    assert_eq!(icon.headers()["content-type"], "image/svg+xml");

    let missing = app.call(Method::GET, "/assets/gone.js", None, None).await;
    assert_eq!(
        missing.status(),
        StatusCode::NOT_FOUND,
        "a missing asset is not the app"
    );
    let api = app.call(Method::GET, "/api/v1/no-such-thing", None, None).await;
    assert_eq!(api.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        api.json::<serde_json::Value>().await.unwrap()["error"]["code"],
        "not_found"
    );
    let wrong_method = app.call(Method::DELETE, "/api/v1/auth/me", None, None).await;
    assert_eq!(wrong_method.status(), StatusCode::METHOD_NOT_ALLOWED);
    let health = app.call(Method::GET, "/health", None, None).await;
    assert_eq!(health.status(), StatusCode::OK);
}
