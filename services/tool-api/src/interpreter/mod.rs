//! E2B's code interpreter (what the `e2b-code-interpreter` SDK reaches on port 49999)
//! over the tool-api's own kernels: a default Python context, started on first use, and
//! up to [`MAX_CONTEXTS`] more, each its own kernel with its own working directory,
//! started when created. Python is the only language: the sandbox image has no other
//! kernel. Cells stream their outputs (see `crate::kernel`); the sandbox's variables and
//! the request's own are set for each cell, the request's undone after it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures::Stream;
use serde::Serialize;
use tool_api_contract::ErrorCode;

use crate::config::KernelSettings;
use crate::error::ToolError;
use crate::kernel::{CellEnv, Kernel};
use crate::network_gate::NetworkGate;

/// Most contexts besides the default one (each kernel holds ≈110 MiB).
pub const MAX_CONTEXTS: usize = 8;
/// The one language there is a kernel for.
const PYTHON: &str = "python";

/// What the E2B code-interpreter surface refuses, each with its HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum InterpreterError {
    /// 400: a cell naming both a context and a language.
    #[error("give context_id or language, not both")]
    ContextAndLanguage,
    /// 400: a language this sandbox has no kernel for.
    #[error("no {0:?} kernel in this sandbox: the only language available is python")]
    Language(String),
    /// 404: no context with that id.
    #[error("no code context {0:?}")]
    UnknownContext(String),
    /// 422: a working directory that is missing or not a directory; the reason says which.
    #[error("cannot use {0} as the working directory: {1}")]
    Cwd(String, String),
    /// 403: a working directory the sandbox user, who runs the kernels, may not enter.
    #[error(
        "cannot use {0} as the working directory: permission denied (the sandbox user may not enter it)"
    )]
    CwdDenied(String),
    /// 422: a variable the OS cannot set.
    #[error("{0}")]
    EnvVar(String),
    /// 422: removing the default context.
    #[error("the default context cannot be removed; restart it instead")]
    DefaultContext,
    /// 429: every context slot is taken.
    #[error("at most {MAX_CONTEXTS} code contexts besides the default one; remove one first")]
    TooManyContexts,
    /// As the kernel failed: 503 when it could not start.
    #[error(transparent)]
    Kernel(#[from] ToolError),
}

impl From<InterpreterError> for ToolError {
    fn from(err: InterpreterError) -> Self {
        if let InterpreterError::Kernel(inner) = err {
            return inner;
        }
        let code = match &err {
            InterpreterError::ContextAndLanguage | InterpreterError::Language(_) => {
                ErrorCode::MalformedRequest
            }
            InterpreterError::UnknownContext(_) => ErrorCode::NotFound,
            InterpreterError::CwdDenied(_) => ErrorCode::PermissionDenied,
            InterpreterError::Cwd(..) | InterpreterError::EnvVar(_) | InterpreterError::DefaultContext => {
                ErrorCode::InvalidInput
            }
            InterpreterError::TooManyContexts => ErrorCode::LimitReached,
            InterpreterError::Kernel(_) => ErrorCode::Internal,
        };
        ToolError::new(code, err.to_string())
    }
}

/// A context as E2B describes it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ContextInfo {
    pub id: String,
    pub language: String,
    pub cwd: String,
}

struct Context {
    info: ContextInfo,
    kernel: Arc<Kernel>,
}

/// A cell as E2B's `/execute` takes it.
#[derive(Debug, Default)]
pub struct Cell {
    pub code: String,
    pub context_id: Option<String>,
    pub language: Option<String>,
    pub env_vars: BTreeMap<String, String>,
}

pub struct Interpreter {
    settings: KernelSettings,
    home: PathBuf,
    /// What every context's kernel waits for before it starts.
    network_gate: Arc<NetworkGate>,
    /// The default context first, then the others in the order they were made.
    contexts: Mutex<Vec<Context>>,
}

impl Interpreter {
    /// Contexts start in `home` unless they ask for another directory.
    pub fn new(settings: KernelSettings, home: PathBuf, network_gate: Arc<NetworkGate>) -> Arc<Self> {
        let default = Context {
            info: ContextInfo {
                id: new_id(),
                language: PYTHON.into(),
                cwd: home.display().to_string(),
            },
            kernel: Kernel::new(settings.clone(), home.clone(), network_gate.clone()),
        };
        Arc::new(Self {
            settings,
            home,
            network_gate,
            contexts: Mutex::new(vec![default]),
        })
    }

    /// Runs a cell in its context (the default one unless it names another), streaming
    /// E2B's outputs; `base_env` is the sandbox's environment.
    pub fn execute(
        &self,
        cell: Cell,
        base_env: BTreeMap<String, String>,
    ) -> Result<impl Stream<Item = serde_json::Value> + Send + 'static, InterpreterError> {
        crate::child_env::check(&cell.env_vars).map_err(InterpreterError::EnvVar)?;
        let kernel = match (&cell.context_id, &cell.language) {
            (Some(_), Some(_)) => return Err(InterpreterError::ContextAndLanguage),
            (Some(id), None) => self.find(id, |context| context.kernel.clone())?,
            (None, language) => {
                language_of(language.as_deref())?;
                self.lock()[0].kernel.clone()
            }
        };
        let env = CellEnv {
            base: base_env,
            cell: cell.env_vars,
        };
        Ok(kernel.stream(cell.code, env))
    }

    /// Makes a context and starts its kernel.
    pub async fn create(
        &self,
        language: Option<&str>,
        cwd: Option<&str>,
    ) -> Result<ContextInfo, InterpreterError> {
        let language = language_of(language)?;
        let cwd = match cwd.filter(|cwd| !cwd.is_empty()) {
            Some(asked) => working_dir(self.home.join(asked)).await?,
            None => self.home.clone(),
        };
        self.room()?;
        let kernel = Kernel::new(self.settings.clone(), cwd.clone(), self.network_gate.clone());
        kernel.restart().await?;
        let info = ContextInfo {
            id: new_id(),
            language: language.into(),
            cwd: cwd.display().to_string(),
        };
        self.room()?;
        self.lock().push(Context {
            info: info.clone(),
            kernel,
        });
        Ok(info)
    }

    pub fn list(&self) -> Vec<ContextInfo> {
        self.lock().iter().map(|context| context.info.clone()).collect()
    }

    /// Ends the context's kernel and starts a new one: its state is gone.
    pub async fn restart(&self, id: &str) -> Result<(), InterpreterError> {
        let kernel = self.find(id, |context| context.kernel.clone())?;
        kernel.restart().await?;
        Ok(())
    }

    /// Removes a context and ends its kernel (a cell still running in it included).
    pub fn remove(&self, id: &str) -> Result<(), InterpreterError> {
        let mut contexts = self.lock();
        match contexts.iter().position(|context| context.info.id == id) {
            Some(0) => Err(InterpreterError::DefaultContext),
            Some(at) => {
                contexts.remove(at).kernel.shutdown();
                Ok(())
            }
            None => Err(InterpreterError::UnknownContext(id.into())),
        }
    }

    /// The default context's kernel (that context is never removed).
    pub fn default_kernel(&self) -> Arc<Kernel> {
        self.lock()[0].kernel.clone()
    }

    /// Ends every kernel, with the server.
    pub fn shutdown(&self) {
        for context in self.lock().iter() {
            context.kernel.shutdown();
        }
    }

    fn room(&self) -> Result<(), InterpreterError> {
        match self.lock().len() > MAX_CONTEXTS {
            true => Err(InterpreterError::TooManyContexts),
            false => Ok(()),
        }
    }

    fn find<T>(&self, id: &str, pick: impl FnOnce(&Context) -> T) -> Result<T, InterpreterError> {
        self.lock()
            .iter()
            .find(|context| context.info.id == id)
            .map(pick)
            .ok_or_else(|| InterpreterError::UnknownContext(id.into()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Context>> {
        self.contexts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `dir` once checked as a kernel's working directory: an existing directory the sandbox
/// user may enter (kernels run as that user, as this server does), so that a bad choice is
/// the client's error rather than a kernel that cannot start.
async fn working_dir(dir: PathBuf) -> Result<PathBuf, InterpreterError> {
    let shown = dir.display().to_string();
    let problem = |reason: &str| InterpreterError::Cwd(shown.clone(), reason.to_owned());
    match tokio::fs::metadata(&dir).await {
        Ok(meta) if !meta.is_dir() => Err(problem("it is not a directory")),
        Ok(_) => match nix::unistd::access(&dir, nix::unistd::AccessFlags::X_OK) {
            Ok(()) => Ok(dir),
            Err(nix::errno::Errno::EACCES) => Err(InterpreterError::CwdDenied(shown)),
            Err(err) => Err(problem(err.desc())),
        },
        Err(err) => Err(match err.kind() {
            std::io::ErrorKind::NotFound => problem("it does not exist"),
            std::io::ErrorKind::NotADirectory => problem("it is not a directory"),
            std::io::ErrorKind::PermissionDenied => InterpreterError::CwdDenied(shown),
            _ => problem(&err.to_string()),
        }),
    }
}

/// The language asked for, as E2B names them (none means Python).
fn language_of(asked: Option<&str>) -> Result<&'static str, InterpreterError> {
    match asked.map(|language| language.trim().to_lowercase()) {
        None => Ok(PYTHON),
        Some(language) if language.is_empty() || language == PYTHON => Ok(PYTHON),
        Some(language) => Err(InterpreterError::Language(language)),
    }
}

/// 32 hex digits, unique within the server's life (not a secret: the routes sit behind
/// the bearer).
fn new_id() -> String {
    use std::hash::BuildHasher;
    let random = || std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now());
    format!("{:016x}{:016x}", random(), random())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_is_the_only_language() {
        assert_eq!(language_of(None).unwrap(), "python");
        assert_eq!(language_of(Some(" Python ")).unwrap(), "python");
        let err = language_of(Some("js")).unwrap_err();
        assert!(
            err.to_string().contains("only language available is python"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_working_directory_is_checked_before_a_kernel_starts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        assert_eq!(working_dir(root.clone()).await.unwrap(), root);
        std::fs::write(root.join("file"), "").unwrap();
        for (asked, reason) in [
            ("file", "it is not a directory"),
            ("file/below", "it is not a directory"),
            ("missing", "it does not exist"),
        ] {
            let err = working_dir(root.join(asked)).await.unwrap_err();
            let expected = format!(
                "cannot use {} as the working directory: {reason}",
                root.join(asked).display()
            );
            assert_eq!(err.to_string(), expected);
            let code = ErrorCode::InvalidInput;
            assert!(matches!(ToolError::from(err), ToolError::Api { code: c, .. } if c == code));
        }
    }

    #[test]
    fn ids_differ() {
        assert_ne!(new_id(), new_id());
        assert_eq!(new_id().len(), 32);
    }
}
