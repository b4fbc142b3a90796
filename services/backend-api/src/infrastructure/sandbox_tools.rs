//! The agent's hands: each sandbox tool the model may call is one typed request of the
//! tool-api contract ([`SandboxCall`]), sent by the typed client's method for its route
//! (no path is spelled here), and its typed answer becomes the text the model reads and
//! the [`ToolView`] the person sees.
//!
//! A tool's own failure (a file that does not exist, a command that fails) is an outcome
//! the model sees; only an unreachable sandbox is an error.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde::Serialize;
use tool_api_client::contract::browser::{self, PageSummary, PageView};
use tool_api_client::contract::files as wire;
use tool_api_client::contract::shell::ShellSnapshot;
use tool_api_client::{ClientError, ClientResult, ToolApiClient};

use super::code_cells;
use crate::domain::agent::{SandboxAccess, ToolOutcome};
use crate::domain::files::{FileEntry, FileKind, Listing};
use crate::domain::image::{ImageFormat, Picture};
use crate::domain::ports::SandboxTools;
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::tool::ToolView;
use crate::domain::{DomainError, DomainResult};

/// The browser's picture after each browser tool, for the person: JPEG at this quality
/// keeps a 1280×800 page around 100 KB.
const SCREENSHOT_QUALITY: u8 = 70;

pub struct ToolApiTools {
    http: reqwest::Client,
}

impl ToolApiTools {
    pub fn new() -> Self {
        Self {
            http: reqwest::Client::new(),
        }
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

/// A directory entry as the person sees it.
pub(super) fn entry(wire: wire::FileEntry) -> FileEntry {
    FileEntry {
        name: wire.name,
        path: wire.path,
        kind: match wire.kind {
            wire::FileKind::File => FileKind::File,
            wire::FileKind::Dir => FileKind::Dir,
            wire::FileKind::Symlink => FileKind::Symlink,
            wire::FileKind::Other => FileKind::Other,
        },
        size: wire.size,
        mtime_ms: wire.mtime_ms,
    }
}

/// A folder's entries as the person browses them (also `file_list`'s view).
pub(super) fn listing(wire: wire::ListResponse) -> Listing {
    Listing {
        path: wire.path,
        entries: wire.entries.into_iter().map(entry).collect(),
    }
}

/// The outcome of a typed answer: the model reads the answer as JSON, the person the
/// view `show` makes of it. An error answer is the tool's own failure.
fn outcome<T: Serialize>(
    name: &str,
    answer: ClientResult<T>,
    show: impl FnOnce(T) -> ToolView,
) -> DomainResult<ToolOutcome> {
    outcome_with(name, answer, |answer| ToolOutcome {
        text: serde_json::to_string_pretty(&answer).unwrap_or_default(),
        view: show(answer),
        images: Vec::new(),
    })
}

/// The outcome `present` makes of an answer; an error answer is the tool's own failure,
/// an unreachable sandbox an error.
fn outcome_with<T>(
    name: &str,
    answer: ClientResult<T>,
    present: impl FnOnce(T) -> ToolOutcome,
) -> DomainResult<ToolOutcome> {
    match answer {
        Ok(answer) => Ok(present(answer)),
        Err(ClientError::Api { status, body }) => Ok(ToolOutcome {
            text: format!(
                "{name} failed ({status} {:?}): {}",
                body.error.code, body.error.message
            ),
            view: ToolView::error(body.error.message),
            images: Vec::new(),
        }),
        Err(err) => Err(unreachable_sandbox(err)),
    }
}

fn shell_view(snapshot: ShellSnapshot) -> ToolView {
    ToolView::Shell {
        command: snapshot.command,
        output: snapshot.output,
        state: snapshot.state,
        exit_code: snapshot.exit_code,
    }
}

fn page_view(page: PageSummary) -> ToolView {
    ToolView::Browser {
        url: page.url,
        title: page.title,
        screenshot: None,
    }
}

fn file_view(path: String, content: String) -> ToolView {
    ToolView::File {
        path,
        content: Some(content),
        old: None,
        new: None,
    }
}

impl ToolApiTools {
    /// The page after an action, with the browser's picture (asked for without
    /// renumbering the page's elements, which the model refers to). A failure to take it
    /// costs the person the picture, not the agent its step.
    async fn after_action(
        &self,
        client: &ToolApiClient,
        name: &str,
        answer: ClientResult<PageSummary>,
    ) -> DomainResult<ToolOutcome> {
        let mut outcome = outcome(name, answer, page_view)?;
        if matches!(outcome.view, ToolView::Browser { .. }) {
            let request = browser::ScreenshotRequest {
                format: browser::ImageFormat::Jpeg,
                quality: Some(SCREENSHOT_QUALITY),
            };
            match client.screenshot(&request).await {
                Ok(shot) => outcome.images.extend(screenshot(&shot.image)),
                Err(err) => tracing::debug!(%err, "no screenshot after a browser action"),
            }
        }
        Ok(outcome)
    }

    /// The page as the model reads it (text and numbered elements), with the picture
    /// taken out of the answer for the person.
    async fn view_page(&self, client: &ToolApiClient, name: &str) -> DomainResult<ToolOutcome> {
        let request = browser::ViewRequest {
            format: browser::ImageFormat::Jpeg,
            quality: Some(SCREENSHOT_QUALITY),
            ..Default::default()
        };
        let mut answer = client.view_page(&request).await;
        let picture = match &mut answer {
            Ok(page) => page.screenshot.take(),
            Err(_) => None,
        };
        let mut outcome = outcome(name, answer, |page: PageView| ToolView::Browser {
            url: page.url,
            title: page.title,
            screenshot: None,
        })?;
        outcome.images.extend(picture.as_deref().and_then(screenshot));
        Ok(outcome)
    }
}

fn screenshot(encoded: &str) -> Option<Picture> {
    match BASE64.decode(encoded) {
        Ok(bytes) => Some(Picture {
            bytes,
            format: ImageFormat::Jpeg,
        }),
        Err(err) => {
            tracing::warn!(%err, "the browser's screenshot is not base64");
            None
        }
    }
}

#[async_trait::async_trait]
impl SandboxTools for ToolApiTools {
    async fn call(&self, sandbox: &SandboxAccess, call: &SandboxCall) -> DomainResult<ToolOutcome> {
        use SandboxCall as C;
        let client = tool_api(&self.http, sandbox);
        let name = call.name();
        match call {
            C::ShellExec(request) => outcome(name, client.exec(&sandbox.shell, request).await, shell_view),
            C::ShellView => outcome(name, client.view(&sandbox.shell, false).await, shell_view),
            C::ShellWait(request) => outcome(
                name,
                client.wait(&sandbox.shell, request.timeout_secs).await,
                shell_view,
            ),
            C::ShellWriteInput(request) => outcome(
                name,
                client
                    .write_input(&sandbox.shell, &request.input, request.enter)
                    .await,
                shell_view,
            ),
            C::ShellKill => outcome(name, client.kill(&sandbox.shell).await, shell_view),
            C::FileRead(request) => outcome(name, client.read_file(request).await, |read| {
                file_view(read.path, read.content)
            }),
            C::FileWrite(request) => outcome(name, client.write_file(request).await, |written| {
                file_view(written.path, request.content.clone())
            }),
            C::FileReplace(request) => {
                outcome(name, client.replace(request).await, |replaced| ToolView::File {
                    path: replaced.path,
                    content: None,
                    old: Some(request.old.clone()),
                    new: Some(request.new.clone()),
                })
            }
            C::FileFind(request) => outcome(name, client.find(request).await, ToolView::Found),
            C::FileSearch(request) => outcome(name, client.search(request).await, ToolView::Matches),
            C::FileList(request) => outcome(name, client.list(&request.path).await, |list| {
                ToolView::Listing(listing(list))
            }),
            C::BrowserNavigate(request) => {
                let answer = client.navigate(request).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserView => self.view_page(&client, name).await,
            C::BrowserClick(request) => {
                let answer = client.click(request).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserInput(request) => {
                let answer = client.type_text(request).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserMoveMouse(request) => {
                let answer = client.move_mouse(request.x, request.y).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserPressKey(request) => {
                let answer = client.press_key(&request.key).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserSelect(request) => {
                let answer = client.select_option(request).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserScroll(request) => {
                let answer = client.scroll(request).await;
                self.after_action(&client, name, answer).await
            }
            C::BrowserConsoleExec(request) => outcome(
                name,
                client.evaluate(&request.javascript).await,
                ToolView::Evaluated,
            ),
            C::BrowserConsoleView => outcome(name, client.console_log().await, ToolView::Console),
            C::CodeRun(request) => outcome_with(name, client.code_run(request).await, |result| {
                code_cells::present(request, result)
            }),
            C::CodeRestart => outcome(name, client.code_restart().await, ToolView::KernelRestart),
            C::WebFetch(request) => outcome(name, client.fetch(request).await, ToolView::Fetched),
        }
    }

    async fn interrupt(&self, sandbox: &SandboxAccess) -> DomainResult<()> {
        match tool_api(&self.http, sandbox).kill(&sandbox.shell).await {
            Ok(_) | Err(ClientError::Api { .. }) => Ok(()),
            Err(err) => Err(unreachable_sandbox(err)),
        }
    }
}
