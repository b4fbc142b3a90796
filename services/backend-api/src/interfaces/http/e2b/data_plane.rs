//! The data plane through one host: with `E2B_SANDBOX_URL=<app>/e2b/sandbox`, E2B's SDKs
//! send every request meant for a sandbox here, naming it with `E2b-Sandbox-Id` and the
//! in-sandbox port with `E2b-Sandbox-Port`, and proving access with `X-Access-Token` (or,
//! for the code interpreter only, `E2B-Traffic-Access-Token`). The
//! request is relayed as it comes, streaming both ways, to the sandbox's tool-api: envd's
//! port (49983) to `/e2b/envd…`, the code interpreter's (49999) to `/e2b/code…`. A client
//! that hangs up drops the relay, so the sandbox sees the hang-up (a running cell stops).
//! A signed file link (`/files?path=…&signature=…`, at the root, where the SDKs build it)
//! carries no header: it goes to the running sandbox whose token signed it.
//!
//! No wildcard DNS, no TLS of its own, no affinity: any replica finds the sandbox by its
//! id. The SDK's `Authorization: Basic <user>:` (envd's user) travels as `E2b-User`,
//! since `Authorization` carries the tool-api's own token on the way in.
//!
//! What the sandbox answers is untrusted, and it is answered on the app's own origin: a
//! path with a dot segment (`..`, also percent-encoded) is refused before any sandbox is
//! looked for, since it would leave the E2B prefix on the tool-api once normalised; the
//! relay follows no redirect; cookies pass neither way (the person's cookies are not the
//! sandbox's to read, and a sandbox sets none on the app's origin).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use tool_api_client::ToolApiClient;

use super::error::E2bError;
use crate::application::e2b::{FileOperation, SignedFile};
use crate::application::AppError;
use crate::domain::agent::SandboxAccess;
use crate::interfaces::http::AppState;

/// Where the data plane is mounted; the rest of the path goes to the sandbox.
pub const MOUNT: &str = "/e2b/sandbox";
/// Where signed file links arrive: the SDKs build them as `<E2B_SANDBOX_URL's origin>/files`.
pub const SIGNED_FILES: &str = "/files";
const ENVD_PORT: &str = "49983";
const CODE_INTERPRETER_PORT: &str = "49999";

/// Headers that belong to one hop, or to this relay, and are not passed on. A sandbox's
/// own Content-Security-Policy is not: the API's (`hardening.rs`) holds for what it answers.
const NOT_RELAYED: [&str; 16] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
    "te",
    "trailer",
    "host",
    "authorization",
    "x-access-token",
    "e2b-traffic-access-token",
    "e2b-sandbox-id",
    "e2b-sandbox-port",
    "content-security-policy",
    "cookie",
    "set-cookie",
];

/// The HTTP client the relay sends with: it follows no redirect (a `3xx` is answered as
/// it came), so a sandbox cannot point the relay anywhere else.
pub fn client() -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
}

pub async fn relay(State(state): State<AppState>, request: Request) -> Response {
    match forward(&state, request).await {
        Ok(response) => response,
        // E2B's proxy answers 502 for a sandbox that is not running.
        Err(E2bError::Api(AppError::Gone(message))) => E2bError::Unavailable(message).into_response(),
        Err(err) => err.into_response(),
    }
}

async fn forward(state: &AppState, request: Request) -> Result<Response, E2bError> {
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let path = parts.uri.path();
    let rest = path.strip_prefix(MOUNT).unwrap_or(path);
    if has_dot_segment(rest) {
        return Err(E2bError::Malformed(
            "a sandbox path may not hold `.` or `..` segments (nor their percent-encoded forms)".into(),
        ));
    }
    let mut signed = false;
    let (id, prefix, access) = match signed_link(&parts.method, rest, parts.uri.query()) {
        // A signed link is opened with no header at all, by whoever holds it.
        Some(link) if text("x-access-token").is_none() => {
            let link = link?;
            let (id, access) = state
                .e2b
                .admit_signed(text("e2b-sandbox-id"), &link.as_signed(&parts.method))
                .await?;
            signed = true;
            (id.as_str().to_owned(), "/e2b/envd", access)
        }
        _ => admitted(state, headers).await?,
    };
    let id = id.as_str();
    let target = match parts.uri.query() {
        Some(query) => format!("{prefix}{rest}?{query}"),
        None => format!("{prefix}{rest}"),
    };
    let mut outbound = HeaderMap::new();
    for (name, value) in headers {
        if !NOT_RELAYED.contains(&name.as_str()) {
            outbound.append(name.clone(), value.clone());
        }
    }
    if let Some(user) = text("authorization").and_then(basic_user) {
        if let Ok(value) = HeaderValue::from_str(&user) {
            outbound.insert(HeaderName::from_static("e2b-user"), value);
        }
    }
    let upstream = ToolApiClient::with_http(
        state.relay_http.clone(),
        &access.tool_api_url,
        &access.tool_api_token,
    )
    .request(parts.method, &target)
    .headers(outbound)
    .body(reqwest::Body::wrap_stream(body.into_data_stream()))
    .send()
    .await
    .map_err(|err| {
        tracing::warn!(sandbox = id, error = %err, "the sandbox's tool-api did not answer a relayed request");
        state.e2b.unreachable(id);
        AppError::Gone(format!("sandbox {id} does not answer"))
    })?;
    let mut response = relayed(upstream)?;
    if signed {
        // Kept by no cache, so what a link opened is not served once it has expired.
        let no_store = HeaderValue::from_static("no-store");
        response.headers_mut().insert(header::CACHE_CONTROL, no_store);
    }
    Ok(response)
}

/// The sandbox's answer as the caller gets it: its status and body, its headers but those
/// of one hop, of this relay or setting cookies.
fn relayed(upstream: reqwest::Response) -> Result<Response, E2bError> {
    let mut response = Response::builder().status(upstream.status());
    for (name, value) in upstream.headers() {
        if !NOT_RELAYED.contains(&name.as_str()) {
            response = response.header(name, value);
        }
    }
    Ok(response
        .body(Body::from_stream(upstream.bytes_stream()))
        .map_err(|err| AppError::Internal(err.into()))?)
}

/// Whether a path holds a `.` or `..` segment once percent-decoded (`%2e`, `.%2E`, …), with
/// `/` and `\` both taken as separators (`..%2f`, `..%5c`), as URL parsers normalise them.
fn has_dot_segment(path: &str) -> bool {
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    decoded
        .split(['/', '\\'])
        .any(|segment| segment == "." || segment == "..")
}

/// The sandbox (its id) and the tool-api prefix a request names by its headers, admitted by its
/// token; a port that is not served is answered as E2B's proxy does.
async fn admitted(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(String, &'static str, SandboxAccess), E2bError> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let id = text("e2b-sandbox-id")
        .ok_or_else(|| E2bError::Malformed("name the sandbox with the E2b-Sandbox-Id header".into()))?;
    let prefix = match text("e2b-sandbox-port") {
        Some(ENVD_PORT) => "/e2b/envd",
        Some(CODE_INTERPRETER_PORT) => "/e2b/code",
        other => {
            return Err(E2bError::Unavailable(format!(
                "the sandbox's port {} is not open here: ports {ENVD_PORT} (envd) and \
                 {CODE_INTERPRETER_PORT} (code interpreter) are served",
                other.unwrap_or("(none given in E2b-Sandbox-Port)")
            )))
        }
    };
    // The traffic token opens the code interpreter only, as on E2B.
    let traffic = (prefix == "/e2b/code")
        .then(|| text("e2b-traffic-access-token"))
        .flatten();
    let access = state.e2b.admit(id, text("x-access-token"), traffic).await?;
    Ok((id.to_owned(), prefix, access))
}

/// The query of a signed file link (`/files?path=…&signature=…`), when the request is one.
struct SignedLink {
    path: String,
    user: String,
    signature: String,
    expiration: Option<i64>,
}

impl SignedLink {
    fn as_signed(&self, method: &Method) -> SignedFile<'_> {
        SignedFile {
            path: &self.path,
            operation: if method == Method::POST {
                FileOperation::Write
            } else {
                FileOperation::Read
            },
            user: &self.user,
            signature: &self.signature,
            expiration: self.expiration,
        }
    }
}

/// `None` unless the request is a `GET` or `POST` of `/files` with a `signature`.
fn signed_link(method: &Method, rest: &str, query: Option<&str>) -> Option<Result<SignedLink, E2bError>> {
    if rest != SIGNED_FILES || !(method == Method::GET || method == Method::POST) {
        return None;
    }
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query?.as_bytes())
        .into_owned()
        .collect();
    let value = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let signature = value("signature")?;
    let expiration = match value("signature_expiration") {
        None => None,
        Some(text) => match text.parse() {
            Ok(seconds) => Some(seconds),
            Err(_) => {
                return Some(Err(E2bError::Malformed(
                    "signature_expiration must be a Unix time in seconds".into(),
                )))
            }
        },
    };
    Some(Ok(SignedLink {
        path: value("path").unwrap_or_default(),
        user: value("username").unwrap_or_default(),
        signature,
        expiration,
    }))
}

/// The user of `Authorization: Basic base64(<user>:)`.
fn basic_user(value: &str) -> Option<String> {
    let encoded = value.strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let user = text.split(':').next()?;
    (!user.is_empty()).then(|| user.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_are_found_in_every_spelling() {
        for path in [
            "/..",
            "/../files",
            "/a/./b",
            "/%2e%2e/x",
            "/%2E%2e/x",
            "/.%2e/x",
            "/%2e./x",
            "/%2e/x",
            "/a/..%2fshell",
            "/a/..%5cshell",
            "/a\\..\\b",
            "/..;/x/..",
        ] {
            assert!(has_dot_segment(path), "{path}");
        }
        for path in [
            "/files",
            "/health",
            "/a/...",
            "/.hidden",
            "/a/..b",
            "/%252e%252e/x",
            "",
        ] {
            assert!(!has_dot_segment(path), "{path}");
        }
    }

    /// A sandbox answering a redirect that sets a cookie, through the relay's own client
    /// and answer: the redirect comes back as it was (not followed), without the cookie.
    #[tokio::test]
    async fn a_sandbox_neither_redirects_the_relay_nor_sets_cookies() {
        use axum::http::StatusCode;
        let followed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = followed.clone();
        let sandbox = axum::Router::new()
            .route(
                "/e2b/envd/files",
                axum::routing::get(|| async {
                    (
                        StatusCode::FOUND,
                        [
                            (header::LOCATION, "/elsewhere"),
                            (header::SET_COOKIE, "sandpiper_refresh=planted; Path=/"),
                        ],
                    )
                }),
            )
            .route(
                "/elsewhere",
                axum::routing::get(move || async move {
                    seen.store(true, std::sync::atomic::Ordering::SeqCst);
                    "followed"
                }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, sandbox).await });

        let upstream = client()
            .unwrap()
            .get(format!("http://{address}/e2b/envd/files"))
            .send()
            .await
            .unwrap();
        let answer = relayed(upstream).unwrap();
        assert_eq!(answer.status(), StatusCode::FOUND);
        assert_eq!(answer.headers()[header::LOCATION], "/elsewhere");
        assert!(answer.headers().get(header::SET_COOKIE).is_none());
        assert!(!followed.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[test]
    fn the_envd_user_is_read_from_basic_auth() {
        assert_eq!(basic_user("Basic dXNlcjo=").as_deref(), Some("user"));
        assert_eq!(basic_user("Basic cm9vdDo=").as_deref(), Some("root"));
        assert_eq!(basic_user("Basic Og=="), None);
        assert_eq!(basic_user("Bearer x"), None);
    }
}
