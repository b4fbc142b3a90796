//! The sandbox's tools as the model may call them: each is one variant carrying the
//! tool-api contract's request type. A call is parsed into it once, when the model's
//! arguments arrive (a wrong argument is then an error the model reads, not a request
//! the sandbox rejects), and the schema offered to the model is generated from the same
//! type — the model, the backend and the tool-api cannot drift apart.

use tool_api_contract::{browser, code, files, shell, web};

use super::tool::tool_calls;

tool_calls! {
    typed
    /// A call of one of the sandbox's tools.
    SandboxCall {
    ShellExec(shell::ExecRequest) = "shell_exec", "Run a bash command in the sandbox's shell (state such as cd and exported variables carries over). Answers when it ends or after timeout_secs with state running; then use shell_wait, shell_view, shell_write_input or shell_kill.";
    ShellView = "shell_view", "Show the running or last command's console output.";
    ShellWait(shell::WaitRequest) = "shell_wait", "Wait for the running command to end (or the timeout).";
    ShellWriteInput(shell::InputRequest) = "shell_write_input", "Type input into the running command's stdin (enter adds a newline).";
    ShellKill = "shell_kill", "Kill the running command.";
    FileRead(files::ReadFileRequest) = "file_read", "Read a text file (optionally a line range).";
    FileWrite(files::WriteFileRequest) = "file_write", "Write (or append to) a file, creating folders as needed.";
    FileReplace(files::ReplaceRequest) = "file_replace", "Replace one exact occurrence of `old` with `new` in a file.";
    FileFind(files::FindRequest) = "file_find", "Find files by name with a glob under a folder.";
    FileSearch(files::SearchRequest) = "file_search", "Search file contents with a regular expression.";
    FileList(files::PathRequest) = "file_list", "List a folder.";
    BrowserNavigate(browser::NavigateRequest) = "browser_navigate", "Open a URL in the sandbox's browser.";
    BrowserView = "browser_view", "See the current page: visible text and numbered interactive elements.";
    BrowserClick(browser::ClickRequest) = "browser_click", "Click an element by its number from browser_view (or at x, y).";
    BrowserInput(browser::TypeRequest) = "browser_input", "Type text into an element by its number (optionally pressing Enter).";
    BrowserMoveMouse(browser::MoveMouseRequest) = "browser_move_mouse", "Move the mouse to x, y.";
    BrowserPressKey(browser::PressKeyRequest) = "browser_press_key", "Press a key or combination, e.g. Enter or Control+a.";
    BrowserSelect(browser::SelectRequest) = "browser_select", "Choose an option of a select element by its number.";
    BrowserScroll(browser::ScrollRequest) = "browser_scroll", "Scroll the page.";
    BrowserConsoleExec(browser::EvaluateRequest) = "browser_console_exec", "Run JavaScript in the page and get its result.";
    BrowserConsoleView = "browser_console_view", "Show the page's console messages.";
    CodeRun(code::CodeRunRequest) = "code_run", "Run Python (or, with language bash, a shell cell) in the sandbox's Jupyter kernel, in the workspace. Variables and imports stay between calls. Charts (matplotlib: no need to save them) and tables (a DataFrame as the last expression) are shown to the person; you get the text, a short description of each picture, and any error with its traceback, to fix and run again. The data stack is installed: numpy, pandas, matplotlib, scipy, scikit-learn, seaborn, openpyxl, pillow, requests, beautifulsoup4.";
    CodeRestart = "code_restart", "Restart the Jupyter kernel: all variables and imports are gone (for a kernel in a bad state, or to run from a clean start).";
    WebFetch(web::FetchRequest) = "web_fetch", "Fetch a web page as readable text.";
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn every_tool_takes_an_object_and_its_arguments_are_checked() {
        for spec in SandboxCall::specs() {
            assert!(
                !spec.parameters.to_string().contains("$ref"),
                "{} refers to schemas the model does not get: {}",
                spec.name,
                spec.parameters
            );
            assert_eq!(
                spec.parameters["type"], "object",
                "{}: {}",
                spec.name, spec.parameters
            );
            assert!(
                SandboxCall::parse(&spec.name, json!({})).is_some(),
                "{}",
                spec.name
            );
        }
        assert!(matches!(
            SandboxCall::parse("shell_view", Value::Null),
            Some(Ok(SandboxCall::ShellView))
        ));
        let missing = SandboxCall::parse("shell_exec", json!({})).unwrap();
        assert!(missing.unwrap_err().contains("command"));
        let call = SandboxCall::parse("shell_exec", json!({ "command": "ls" }))
            .unwrap()
            .unwrap();
        assert!(matches!(&call, SandboxCall::ShellExec(r) if r.command == "ls"));
        assert_eq!(call.name(), "shell_exec");
        assert!(SandboxCall::parse("plan_update", json!({})).is_none());
    }
}
