//! The files routes as a whole: guarded by the token, listed in the OpenAPI document.

use super::*;

#[tokio::test]
async fn files_routes_need_the_token() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(format!("{}/v1/files/read", app.base))
        .json(&read("x"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn openapi_lists_the_files_routes() {
    let app = spawn_app().await;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", app.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for (route, method) in [
        ("/v1/files/read", "post"),
        ("/v1/files/write", "post"),
        ("/v1/files/replace", "post"),
        ("/v1/files/find", "post"),
        ("/v1/files/search", "post"),
        ("/v1/files/list", "post"),
        ("/v1/files/stat", "post"),
        ("/v1/files/mkdir", "post"),
        ("/v1/files/move", "post"),
        ("/v1/files/delete", "post"),
        ("/v1/files/upload", "put"),
        ("/v1/files/download", "get"),
        ("/v1/files/archive", "get"),
        ("/v1/files/watch", "get"),
    ] {
        let operation = &doc["paths"][route][method];
        assert_eq!(operation["tags"], json!(["files"]), "{method} {route}");
    }
}
