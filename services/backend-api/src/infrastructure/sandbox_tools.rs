//! The agent's hands: each tool the model may call is one tool-api route. The arguments
//! the model writes are the route's request body, checked against the contract type
//! before anything is sent (so a wrong argument is an error the model can read, not a
//! request the sandbox rejects), and the schema offered to the model is generated from
//! that same type — the model, this adapter and the tool-api cannot drift apart.
//!
//! A tool's own failure (a file that does not exist, a command that fails) is an outcome
//! the model sees; only an unreachable sandbox is an error.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tool_api_client::contract::{browser, files, search, shell};
use tool_api_client::{decode, ClientError, ToolApiClient};
use utoipa::PartialSchema;

use crate::domain::agent::{SandboxAccess, SandboxTools, ToolOutcome, ToolSpec};
use crate::domain::{DomainError, DomainResult};

/// The shell session the agent's commands run in (a person's terminal is another).
const AGENT_SHELL: &str = "agent";

/// The browser's picture after each browser tool, for the person: JPEG at this quality
/// keeps a 1280×800 page around 100 KB.
const SCREENSHOT_QUALITY: u8 = 70;

/// What the person sees for a tool's result.
#[derive(Clone, Copy)]
enum ViewKind {
    Shell,
    File,
    Browser,
    Search,
    Plain,
}

struct Route {
    name: &'static str,
    description: &'static str,
    method: Method,
    path: &'static str,
    parameters: fn() -> Value,
    check: fn(&Value) -> Result<(), String>,
    view: ViewKind,
}

fn schema_of<T: PartialSchema>() -> Value {
    serde_json::to_value(T::schema()).unwrap_or_else(|_| json!({ "type": "object" }))
}

fn parses_as<T: DeserializeOwned>(args: &Value) -> Result<(), String> {
    serde_json::from_value::<T>(args.clone())
        .map(drop)
        .map_err(|err| err.to_string())
}

/// The arguments of a tool that takes none.
#[derive(serde::Deserialize, utoipa::ToSchema)]
struct NoArguments {}

macro_rules! route {
    ($name:literal, $description:literal, $method:ident, $path:literal, $body:ty, $view:ident) => {
        Route {
            name: $name,
            description: $description,
            method: Method::$method,
            path: $path,
            parameters: schema_of::<$body>,
            check: parses_as::<$body>,
            view: ViewKind::$view,
        }
    };
}

fn routes() -> Vec<Route> {
    vec![
        route!("shell_exec", "Run a bash command in the sandbox's shell (state such as cd and exported variables carries over). Answers when it ends or after timeout_secs with state running; then use shell_wait, shell_view, shell_write_input or shell_kill.", POST, "/v1/shell/sessions/agent/exec", shell::ExecRequest, Shell),
        route!("shell_view", "Show the running or last command's console output.", GET, "/v1/shell/sessions/agent", NoArguments, Shell),
        route!("shell_wait", "Wait for the running command to end (or the timeout).", POST, "/v1/shell/sessions/agent/wait", shell::WaitRequest, Shell),
        route!("shell_write_input", "Type input into the running command's stdin (enter adds a newline).", POST, "/v1/shell/sessions/agent/input", shell::InputRequest, Shell),
        route!("shell_kill", "Kill the running command.", POST, "/v1/shell/sessions/agent/kill", NoArguments, Shell),
        route!("file_read", "Read a text file (optionally a line range).", POST, "/v1/files/read", files::ReadFileRequest, File),
        route!("file_write", "Write (or append to) a file, creating folders as needed.", POST, "/v1/files/write", files::WriteFileRequest, File),
        route!("file_replace", "Replace one exact occurrence of `old` with `new` in a file.", POST, "/v1/files/replace", files::ReplaceRequest, File),
        route!("file_find", "Find files by name with a glob under a folder.", POST, "/v1/files/find", files::FindRequest, Plain),
        route!("file_search", "Search file contents with a regular expression.", POST, "/v1/files/search", files::SearchRequest, Plain),
        route!("file_list", "List a folder.", POST, "/v1/files/list", files::PathRequest, Plain),
        route!("browser_navigate", "Open a URL in the sandbox's browser.", POST, "/v1/browser/navigate", browser::NavigateRequest, Browser),
        route!("browser_view", "See the current page: visible text and numbered interactive elements.", POST, "/v1/browser/view", NoArguments, Browser),
        route!("browser_click", "Click an element by its number from browser_view (or at x, y).", POST, "/v1/browser/click", browser::ClickRequest, Browser),
        route!("browser_input", "Type text into an element by its number (optionally pressing Enter).", POST, "/v1/browser/type", browser::TypeRequest, Browser),
        route!("browser_move_mouse", "Move the mouse to x, y.", POST, "/v1/browser/move_mouse", browser::MoveMouseRequest, Browser),
        route!("browser_press_key", "Press a key or combination, e.g. Enter or Control+a.", POST, "/v1/browser/press_key", browser::PressKeyRequest, Browser),
        route!("browser_select", "Choose an option of a select element by its number.", POST, "/v1/browser/select", browser::SelectRequest, Browser),
        route!("browser_scroll", "Scroll the page.", POST, "/v1/browser/scroll", browser::ScrollRequest, Browser),
        route!("browser_console_exec", "Run JavaScript in the page and get its result.", POST, "/v1/browser/evaluate", browser::EvaluateRequest, Plain),
        route!("browser_console_view", "Show the page's console messages.", GET, "/v1/browser/console", NoArguments, Plain),
        route!("web_search", "Search the web.", POST, "/v1/search", search::WebSearchRequest, Search),
        route!("web_fetch", "Fetch a web page as readable text.", POST, "/v1/fetch", search::FetchRequest, Plain),
    ]
}

pub struct ToolApiTools {
    routes: Vec<Route>,
    http: reqwest::Client,
}

impl ToolApiTools {
    pub fn new() -> Self {
        Self {
            routes: routes(),
            http: reqwest::Client::new(),
        }
    }

    fn client(&self, sandbox: &SandboxAccess) -> ToolApiClient {
        tool_api(&self.http, sandbox)
    }
}

impl Default for ToolApiTools {
    fn default() -> Self {
        Self::new()
    }
}

/// A client of the sandbox's tool-api over a shared connection pool.
pub(super) fn tool_api(http: &reqwest::Client, sandbox: &SandboxAccess) -> ToolApiClient {
    ToolApiClient::with_http(http.clone(), &sandbox.tool_api_url, &sandbox.tool_api_token)
}

pub(super) fn unreachable_sandbox(err: impl std::fmt::Display) -> DomainError {
    DomainError::Unavailable {
        what: "the sandbox",
        detail: err.to_string(),
    }
}

/// What the person sees: the fields of the answer that matter for this kind of tool.
fn view_of(kind: ViewKind, args: &Value, answer: &Value) -> Value {
    match kind {
        ViewKind::Shell => json!({
            "kind": "shell",
            "command": answer.get("command").or_else(|| args.get("command")),
            "output": answer.get("output"),
            "state": answer.get("state"),
            "exit_code": answer.get("exit_code"),
        }),
        ViewKind::File => json!({
            "kind": "file",
            "path": answer.get("path").or_else(|| args.get("path")),
            "content": answer.get("content").or_else(|| args.get("content")),
            "old": args.get("old"),
            "new": args.get("new"),
        }),
        ViewKind::Browser => json!({
            "kind": "browser",
            "url": answer.get("url"),
            "title": answer.get("title"),
        }),
        ViewKind::Search => json!({ "kind": "search", "results": answer.get("results") }),
        ViewKind::Plain => json!({ "kind": "result", "result": answer }),
    }
}

/// A tool's own failure: `text` for the model, `message` for the person.
fn failed(text: String, message: String) -> ToolOutcome {
    ToolOutcome {
        text,
        view: json!({ "kind": "error", "message": message }),
        failed: true,
        screenshot: None,
    }
}

impl ToolApiTools {
    /// The browser's picture: taken out of a `view` answer, or asked for after an
    /// action (without renumbering the page's elements, which the model refers to). A
    /// failure here costs the person the picture, not the agent its step.
    async fn screenshot(&self, sandbox: &SandboxAccess, answer: &mut Value) -> Option<Vec<u8>> {
        let encoded = match answer.as_object_mut().and_then(|a| a.remove("screenshot")) {
            Some(Value::String(encoded)) => encoded,
            _ => {
                let request = browser::ScreenshotRequest {
                    format: browser::ImageFormat::Jpeg,
                    quality: Some(SCREENSHOT_QUALITY),
                };
                self.client(sandbox).screenshot(&request).await.ok()?.image
            }
        };
        match BASE64.decode(encoded) {
            Ok(jpeg) => Some(jpeg),
            Err(err) => {
                tracing::warn!(%err, "the browser's screenshot is not base64");
                None
            }
        }
    }
}

#[async_trait::async_trait]
impl SandboxTools for ToolApiTools {
    fn specs(&self) -> Vec<ToolSpec> {
        self.routes
            .iter()
            .map(|r| ToolSpec {
                name: r.name.into(),
                description: r.description.into(),
                parameters: (r.parameters)(),
            })
            .collect()
    }

    async fn call(&self, sandbox: &SandboxAccess, name: &str, args: &Value) -> DomainResult<ToolOutcome> {
        // Some models write `null` for a tool without arguments.
        let empty = json!({});
        let args = if args.is_null() { &empty } else { args };
        let Some(route) = self.routes.iter().find(|r| r.name == name) else {
            return Ok(failed(
                format!("there is no tool named {name}"),
                format!("unknown tool {name}"),
            ));
        };
        if let Err(problem) = (route.check)(args) {
            return Ok(failed(
                format!("the arguments do not fit {name}: {problem}"),
                problem,
            ));
        }
        let mut request = self.client(sandbox).request(route.method.clone(), route.path);
        if route.method == Method::POST {
            // `browser_view` asks for the picture the person sees; the model reads the
            // text and elements (the image is taken out of its answer).
            let body = if route.name == "browser_view" {
                json!({ "format": "jpeg", "quality": SCREENSHOT_QUALITY })
            } else {
                args.clone()
            };
            request = request.json(&body);
        }
        let response = request.send().await.map_err(unreachable_sandbox)?;
        match decode::<Value>(response).await {
            Ok(mut answer) => {
                let screenshot = match route.view {
                    ViewKind::Browser => self.screenshot(sandbox, &mut answer).await,
                    _ => None,
                };
                Ok(ToolOutcome {
                    text: serde_json::to_string_pretty(&answer).unwrap_or_default(),
                    view: view_of(route.view, args, &answer),
                    failed: false,
                    screenshot,
                })
            }
            Err(ClientError::Api { status, body }) => Ok(failed(
                format!(
                    "{name} failed ({status} {:?}): {}",
                    body.error.code, body.error.message
                ),
                body.error.message,
            )),
            Err(err) => Err(unreachable_sandbox(err)),
        }
    }

    async fn interrupt(&self, sandbox: &SandboxAccess) -> DomainResult<()> {
        match self.client(sandbox).kill(AGENT_SHELL).await {
            Ok(_) | Err(ClientError::Api { .. }) => Ok(()),
            Err(err) => Err(unreachable_sandbox(err)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_takes_an_object_and_checks_it() {
        let tools = ToolApiTools::new();
        for spec in tools.specs() {
            assert_eq!(
                spec.parameters["type"], "object",
                "{}: {}",
                spec.name, spec.parameters
            );
        }
        let route = |name| tools.routes.iter().find(|r| r.name == name).unwrap();
        assert!((route("shell_view").check)(&json!({})).is_ok());
        assert!(
            (route("shell_exec").check)(&json!({})).is_err(),
            "command is required"
        );
        assert!((route("shell_exec").check)(&json!({ "command": "ls" })).is_ok());
    }
}
