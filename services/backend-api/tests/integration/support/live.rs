//! The live desktop and terminal from a client's side: tickets and the relays'
//! WebSockets, as the front end (noVNC, xterm.js) opens them.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use std::time::Duration;

use super::fake_llm::{FakeLlm, Reply};
use super::manager::Manager;
use super::{borrowed, SseStream, TestApp};

/// What a live connection needs: the real sandbox-manager, a backend using it with a
/// scripted model that answers `reply`, a signed-in person and a fresh session.
pub struct Live {
    pub llm: FakeLlm,
    pub manager: Manager,
    pub app: TestApp,
    pub token: String,
    pub session: String,
}

impl Live {
    pub async fn start(reply: &'static str) -> Self {
        let llm = FakeLlm::start(vec![Reply::Text(reply)]).await;
        let manager = Manager::start();
        let mut settings = llm.settings();
        settings.extend(manager.settings());
        let app = TestApp::spawn(&borrowed(&settings)).await;
        let (token, _, _) = app.register("ada@example.org").await;
        let session = app.new_session(&token).await;
        Self {
            llm,
            manager,
            app,
            token,
            session,
        }
    }
}

/// The agent is held: the model gets no request for 1.5 s; `message` says by what.
pub async fn assert_agent_held(llm: &FakeLlm, message: &str) {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(llm.requests().is_empty(), "{message}");
}

/// The run goes on to `completed`, and the model's scripted `reply` is among its events.
pub async fn assert_run_completes(events: &mut SseStream, reply: &str) {
    let seen = events
        .until(Duration::from_secs(15), |e| {
            e["type"] == "status" && e["status"] == "completed"
        })
        .await;
    assert!(seen.iter().any(|e| e["content"] == reply), "{seen:?}");
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A desktop ticket in `mode` for the session, checked for its shape.
pub async fn ticket(app: &TestApp, token: &str, session: &str, mode: &str) -> String {
    let (issued, ticket) = issue(app, token, session, "vnc", Some(json!({ "mode": mode }))).await;
    assert_eq!(issued["mode"], mode);
    ticket
}

/// A terminal ticket for the session, checked for its shape.
pub async fn terminal_ticket(app: &TestApp, token: &str, session: &str) -> String {
    issue(app, token, session, "terminal", None).await.1
}

/// Asks for a ticket to the session's `relay` and checks what every ticket carries: a
/// lifetime and the relay's URL with the ticket in it.
async fn issue(
    app: &TestApp,
    token: &str,
    session: &str,
    relay: &str,
    body: Option<Value>,
) -> (Value, String) {
    let issued = app
        .expect(
            StatusCode::CREATED,
            Method::POST,
            &format!("/api/v1/sessions/{session}/{relay}/tickets"),
            Some(token),
            body,
        )
        .await;
    assert!(issued["expires_in_secs"].as_u64().unwrap() > 0);
    let ticket = issued["ticket"].as_str().unwrap().to_owned();
    assert_eq!(
        issued["url"],
        format!("/api/v1/sessions/{session}/{relay}?ticket={ticket}")
    );
    (issued, ticket)
}

/// Opens a relay (the desktop's asks for the `binary` subprotocol, as noVNC does);
/// `Err` carries the refusal's status and JSON body.
pub async fn open(app: &TestApp, path: &str, origin: Option<&str>) -> Result<Socket, (StatusCode, Value)> {
    let url = format!("{}{path}", app.base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    let binary = path.contains("/vnc?");
    if binary {
        request
            .headers_mut()
            .insert("sec-websocket-protocol", "binary".parse().unwrap());
    }
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, response)) => {
            if binary {
                assert_eq!(response.headers()["sec-websocket-protocol"], "binary");
            }
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

/// A relay that must refuse: its status and error code.
pub async fn refused(app: &TestApp, path: &str, origin: Option<&str>) -> (StatusCode, String) {
    match open(app, path, origin).await {
        Ok(_) => panic!("{path} was accepted"),
        Err((status, body)) => (status, body["error"]["code"].as_str().unwrap().to_owned()),
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
