//! The live desktop from a client's side: VNC tickets and the relay's WebSocket, as a
//! browser running noVNC opens it.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::TestApp;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn ticket(app: &TestApp, token: &str, session: &str, mode: &str) -> String {
    let issued = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            &format!("/api/v1/sessions/{session}/vnc/tickets"),
            Some(token),
            Some(json!({ "mode": mode })),
        )
        .await;
    assert_eq!(issued["mode"], mode);
    assert!(issued["expires_in_secs"].as_u64().unwrap() > 0);
    let ticket = issued["ticket"].as_str().unwrap().to_owned();
    assert_eq!(
        issued["url"],
        format!("/api/v1/sessions/{session}/vnc?ticket={ticket}")
    );
    ticket
}

/// Opens the relay; `Err` carries the refusal's status and JSON body.
pub async fn open(app: &TestApp, path: &str, origin: Option<&str>) -> Result<Socket, (StatusCode, Value)> {
    let url = format!("{}{path}", app.base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("sec-websocket-protocol", "binary".parse().unwrap());
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, response)) => {
            assert_eq!(response.headers()["sec-websocket-protocol"], "binary");
            Ok(socket)
        }
        Err(tungstenite::Error::Http(response)) => {
            let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
            let body = response.body().clone().unwrap_or_default();
            Err((status, serde_json::from_slice(&body).expect("a JSON error body")))
        }
        Err(other) => panic!("the relay failed without an HTTP answer: {other}"),
    }
}

/// A ticket of this mode, used at once: the relay's WebSocket.
pub async fn connect(app: &TestApp, token: &str, session: &str, mode: &str) -> Socket {
    let ticket = ticket(app, token, session, mode).await;
    let path = format!("/api/v1/sessions/{session}/vnc?ticket={ticket}");
    open(app, &path, None)
        .await
        .unwrap_or_else(|refusal| panic!("a {mode} connection: {refusal:?}"))
}
