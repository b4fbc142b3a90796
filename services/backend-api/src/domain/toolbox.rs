//! A person's tool box: MCP servers the agent registered in one of their chats
//! ([`super::agent_server`]) that the person chose to keep — the command, its arguments,
//! the tools it listed and its files, copied from that chat's sandbox — so that their
//! later chats get it again: its files are written back where they were and it is
//! registered there as `tool_register` would. A kept tool is its person's alone; an
//! admin, having read its code, may publish it, and then every person's chats get it.
//!
//! Which files are kept: the folder holding the script the command names (the first
//! argument, or the command itself, that is a file in the sandbox), with what it holds
//! (hidden entries, `node_modules` and `__pycache__` left out); when that folder is the
//! home or the workspace itself, the script alone. Everything kept lies inside the
//! sandbox's home, below no hidden folder (a script under `~/.ssh` is refused, not kept
//! with its folder), is text, and fits [`MAX_FILES`] and [`MAX_FILE_BYTES`].

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::agent_server::AgentTool;
use super::error::{DomainError, DomainResult};
use super::ids::KeptToolId;
use super::mcp::McpServerName;
use super::session::SessionId;
use super::user::UserId;

/// The most tools one person keeps.
pub const MAX_KEPT_TOOLS: usize = 20;
/// The most of a chat's [`super::agent_server::MAX_SERVERS`] servers kept tools are
/// registered into (counted with the ones it has): the rest is the agent's own.
pub const MAX_KEPT_IN_CHAT: usize = super::agent_server::MAX_SERVERS - 2;
/// The most files one kept tool holds.
pub const MAX_FILES: usize = 50;
/// The most bytes a kept tool's files hold together.
pub const MAX_FILE_BYTES: u64 = 512 * 1024;
/// How deep under the script's folder files are kept.
pub const MAX_DEPTH: usize = 4;
/// The most folders the walk of a kept folder lists.
pub const MAX_FOLDERS: usize = 100;
/// The most entries (skipped ones too) the walk of a kept folder reads in its listings.
pub const MAX_ENTRIES: usize = 2_000;
/// Folders never kept: what a package manager or an interpreter makes again.
const SKIPPED: [&str; 2] = ["node_modules", "__pycache__"];
/// What a file the command names ends with when it names no folder.
const SCRIPT_ENDINGS: [&str; 7] = [".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb"];

/// One file of a kept tool: where it was in the sandbox, and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptFile {
    /// Absolute, inside the sandbox's home.
    pub path: String,
    pub content: String,
}

/// A tool in a person's tool box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptTool {
    pub id: KeptToolId,
    pub owner: UserId,
    pub name: McpServerName,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<AgentTool>,
    pub files: Vec<KeptFile>,
    /// Whether the owner's chats get it.
    pub enabled: bool,
    /// Whether every person's chats get it (an admin published it).
    pub published: bool,
    /// The chat it was registered in when kept.
    pub from_session: SessionId,
    pub kept_at: DateTime<Utc>,
}

/// What became of a new kept tool ([`crate::domain::ports::ToolboxRepository::insert_kept_tool`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptInsert {
    Kept,
    /// Its owner keeps the most tools already.
    Full,
    /// Its owner keeps one of its name already (kept meanwhile).
    NameTaken,
}

/// What of the sandbox a kept tool takes.
#[derive(Debug, Clone, PartialEq)]
pub enum KeptFiles {
    /// The script alone (its folder is the home or the workspace, shared with all else).
    Script(String),
    /// The script's folder and what it holds.
    Folder(String),
}

/// The words of the command that may name its script, in the order they are tried:
/// each argument that is not an option and looks like a path, then the command itself.
pub fn script_candidates(command: &str, args: &[String]) -> Vec<String> {
    let looks_like_file =
        |word: &str| word.contains('/') || SCRIPT_ENDINGS.iter().any(|ending| word.ends_with(ending));
    args.iter()
        .map(String::as_str)
        .chain(std::iter::once(command))
        .filter(|word| !word.starts_with('-') && looks_like_file(word))
        .map(str::to_owned)
        .collect()
}

/// What to keep for the script at the absolute `script`, in a sandbox whose home and
/// workspace are those; `Invalid` when it lies outside the home, or when its path below
/// the home has a hidden part (`~/.ssh/run.sh` would keep `~/.ssh`) or an empty one (so
/// the folder kept is never the home itself).
pub fn kept_files(script: &str, home: &str, workspace: &str) -> DomainResult<KeptFiles> {
    let Some(below) = script.strip_prefix(&format!("{home}/")) else {
        return Err(outside(script, home));
    };
    if below.split('/').any(|part| part == "..") {
        return Err(outside(script, home));
    }
    if let Some(part) = below
        .split('/')
        .find(|part| part.is_empty() || part.starts_with('.'))
    {
        return Err(DomainError::Invalid(format!(
            "the server's script {script} lies in a hidden or unnamed folder ({part:?}); \
             hidden files are never kept: move the server into a folder of its own"
        )));
    }
    let folder = script.rsplit_once('/').map_or("", |(folder, _)| folder);
    if folder == home || folder == workspace {
        Ok(KeptFiles::Script(script.to_owned()))
    } else {
        Ok(KeptFiles::Folder(folder.to_owned()))
    }
}

fn outside(script: &str, home: &str) -> DomainError {
    DomainError::Invalid(format!(
        "the server's script {script} lies outside the sandbox's home ({home}); only files there can be kept"
    ))
}

/// Whether an entry named `name` inside a kept folder is left out.
pub fn skipped(name: &str) -> bool {
    name.starts_with('.') || SKIPPED.contains(&name)
}

/// The refusal of a tool box over [`MAX_FILES`] or [`MAX_FILE_BYTES`] (413).
pub fn too_large(what: &str) -> DomainError {
    DomainError::TooLarge(format!(
        "{what}: a kept tool holds at most {MAX_FILES} files of {} KiB together; \
         put the server in a folder of its own",
        MAX_FILE_BYTES / 1024
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: &str = "/home/sandbox";
    const WORKSPACE: &str = "/home/sandbox/workspace";

    #[test]
    fn the_script_is_the_first_path_like_word() {
        let args = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            script_candidates("node", &args(&["mcp/calc.mjs"])),
            ["mcp/calc.mjs"]
        );
        assert_eq!(
            script_candidates("python3", &args(&["-u", "server.py", "--port=1/2"])),
            ["server.py"]
        );
        assert_eq!(script_candidates("./run.sh", &[]), ["./run.sh"]);
        assert!(script_candidates("npx", &args(&["some-package"])).is_empty());
    }

    #[test]
    fn a_script_in_a_folder_of_its_own_keeps_the_folder() {
        let folder = kept_files("/home/sandbox/workspace/mcp/calc.mjs", HOME, WORKSPACE);
        assert_eq!(
            folder.unwrap(),
            KeptFiles::Folder("/home/sandbox/workspace/mcp".into())
        );
        let alone = kept_files("/home/sandbox/workspace/calc.py", HOME, WORKSPACE);
        assert_eq!(
            alone.unwrap(),
            KeptFiles::Script("/home/sandbox/workspace/calc.py".into())
        );
        let home = kept_files("/home/sandbox/calc.py", HOME, WORKSPACE);
        assert!(matches!(home.unwrap(), KeptFiles::Script(_)));
    }

    #[test]
    fn nothing_outside_the_home_is_kept() {
        for script in [
            "/etc/passwd",
            "/home/sandboxed/x.py",
            "/home/sandbox/../root/x.py",
        ] {
            let refused = kept_files(script, HOME, WORKSPACE).unwrap_err();
            assert!(
                refused.to_string().contains("outside the sandbox's home"),
                "{script}"
            );
        }
    }

    #[test]
    fn nothing_hidden_and_never_the_home_is_kept() {
        for script in [
            "/home/sandbox/.ssh/run.sh",
            "/home/sandbox/.config/tool/server.py",
            "/home/sandbox/workspace/.secret/server.js",
            "/home/sandbox/./server.js",
            "/home/sandbox/.bashrc",
            "/home/sandbox//server.js",
            "/home/sandbox/workspace//server.js",
        ] {
            let refused = kept_files(script, HOME, WORKSPACE).unwrap_err();
            assert!(
                refused.to_string().contains("hidden or unnamed"),
                "{script}: {refused}"
            );
        }
    }

    #[test]
    fn hidden_and_remade_entries_are_left_out() {
        assert!(skipped(".git") && skipped("node_modules") && skipped("__pycache__"));
        assert!(!skipped("server.py"));
    }
}
