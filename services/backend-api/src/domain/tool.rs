//! Tools as the model and the person meet them: the spec offered to the model, where a
//! tool runs, and the typed view of a finished call that the event log keeps and the UI
//! shows (the front end's types are generated from this through the OpenAPI document).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use tool_api_contract::code::{CodeError, CodeLanguage};
use tool_api_contract::shell::CommandState;
use utoipa::{PartialSchema, ToSchema};

use super::web_search::WebSearchResult;

/// A tool offered to the model: its name, what it does and a JSON schema of its
/// arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// The schema of a tool's arguments, as offered to the model.
pub fn schema_of<T: PartialSchema>() -> Value {
    serde_json::to_value(T::schema()).unwrap_or_else(|_| serde_json::json!({ "type": "object" }))
}

/// A tool's arguments as the model wrote them, parsed into their type; the error is
/// for the model, which may try again.
pub fn parse_args<T: DeserializeOwned>(args: Value) -> Result<T, String> {
    serde_json::from_value(args).map_err(|err| err.to_string())
}

/// The arguments of a tool that takes none.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArguments {}

/// Declares a family of tools as one enum, one variant per tool carrying its typed
/// arguments (or none), with the tool's name and description: the enum gets `name()`,
/// `is_named(name)`, `specs()` (schemas generated from the argument types) and
/// `parse(name, args)`.
macro_rules! tool_calls {
    ($(#[$doc:meta])* $enum:ident { $($variant:ident $(($args:ty))? = $name:literal, $description:literal;)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub enum $enum {
            $($variant $(($args))?,)*
        }

        impl $enum {
            // Not every family's users need it.
            #[allow(dead_code)]
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant { .. } => $name,)*
                }
            }

            /// Whether a tool of the family is called `name`.
            // Not every family's users need it.
            #[allow(dead_code)]
            pub fn is_named(name: &str) -> bool {
                matches!(name, $($name)|*)
            }

            /// Every tool of the family, as the model is offered it.
            pub fn specs() -> Vec<$crate::domain::tool::ToolSpec> {
                vec![$($crate::domain::tool::ToolSpec {
                    name: $name.into(),
                    description: $description.into(),
                    parameters: tool_calls!(@schema $($args)?),
                },)*]
            }

            /// The call named `name` with these arguments; `None` when no tool of the
            /// family has that name, `Err` (for the model) when the arguments do not fit.
            pub fn parse(name: &str, args: serde_json::Value) -> Option<Result<Self, String>> {
                // Some models write `null` for a tool without arguments.
                let args = if args.is_null() { serde_json::Value::Object(Default::default()) } else { args };
                match name {
                    $($name => Some(tool_calls!(@parse $variant args $($args)?)),)*
                    _ => None,
                }
            }
        }
    };
    (@schema $args:ty) => { $crate::domain::tool::schema_of::<$args>() };
    (@schema) => { $crate::domain::tool::schema_of::<$crate::domain::tool::NoArguments>() };
    (@parse $variant:ident $value:ident $args:ty) => {
        $crate::domain::tool::parse_args::<$args>($value).map(Self::$variant)
    };
    (@parse $variant:ident $value:ident) => {
        $crate::domain::tool::parse_args::<$crate::domain::tool::NoArguments>($value).map(|_| Self::$variant)
    };
}
pub(crate) use tool_calls;

/// Where a tool runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolHome {
    /// The run itself: plans, titles, talking to the person.
    Run,
    /// A sub-agent: a run of its own, started by the run.
    SubAgent,
    /// The backend, outside any sandbox (it holds what a sandbox must not: a provider's
    /// key).
    Backend,
    /// The session's sandbox, through its tool-api.
    Sandbox,
    /// A tool of this MCP server.
    Mcp { server: String, tool: String },
}

/// What the person sees of a finished tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolView {
    /// A shell command and its console output.
    Shell {
        command: String,
        output: String,
        state: CommandState,
        #[serde(default)]
        exit_code: Option<i32>,
    },
    /// A file read or written (`content`), or edited (`old` replaced by `new`).
    File {
        path: String,
        #[serde(default)]
        content: Option<String>,
        #[serde(default)]
        old: Option<String>,
        #[serde(default)]
        new: Option<String>,
    },
    /// The browser's page after an action, with its picture when one was stored.
    Browser {
        url: String,
        title: String,
        #[serde(default)]
        screenshot: Option<ImageRef>,
    },
    /// Web search results.
    Search { results: Vec<WebSearchResult> },
    /// An answer shown as it came (listings, matches, console messages, fetched pages).
    Result {
        #[schema(value_type = Object)]
        result: serde_json::Value,
    },
    /// An MCP tool's result, images inline.
    Mcp {
        server: String,
        tool: String,
        is_error: bool,
        content: Vec<McpItem>,
    },
    /// A code cell, what it printed and showed, and how it ended.
    Code(Box<CodeCell>),
    /// A task a sub-agent did: the model it used, where it worked, its answer and the
    /// files it handed back into the delegating agent's sandbox.
    Delegation {
        model: String,
        own_sandbox: bool,
        answer: String,
        #[serde(default)]
        files: Vec<String>,
    },
    /// An MCP server the agent registered with `tool_register`.
    ToolRegister(Box<ToolRegistration>),
    /// Why the call gave no result.
    Error { message: String },
}

/// An MCP server the agent registered: its name, how it is started, and the tools it
/// offered with the test call's result — or why it was not registered (`error`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ToolRegistration {
    pub server: String,
    pub command: String,
    pub args: Vec<String>,
    pub tools: Vec<RegisteredTool>,
    #[serde(default)]
    pub test: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

/// A tool a registered server offers, as the person sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RegisteredTool {
    /// As the model calls it: `mcp__<server>__<tool>`.
    pub name: String,
    pub description: String,
}

impl ToolView {
    pub fn error(message: impl Into<String>) -> Self {
        Self::Error {
            message: message.into(),
        }
    }

    /// Where the pictures of a call's outcome go once stored, in the order the outcome
    /// lists them: a browser view's screenshot, a code cell's images.
    pub fn image_slots(&mut self) -> Vec<&mut Option<ImageRef>> {
        match self {
            Self::Browser { screenshot, .. } => vec![screenshot],
            Self::Code(cell) => cell
                .outputs
                .iter_mut()
                .filter_map(|output| match output {
                    CodeOutput::Image { image, .. } => Some(image),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// For a code cell, whether it failed (an exception, a timeout, a lost kernel).
    pub fn code_failed(&self) -> Option<bool> {
        match self {
            Self::Code(cell) => {
                Some(cell.error.is_some() || cell.timed_out || cell.kernel_restarted.is_some())
            }
            _ => None,
        }
    }

    /// Reads a stored view; one in a shape this version does not know is kept as a
    /// plain result rather than making the whole event unreadable.
    pub fn lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Self>, D::Error> {
        let Some(value) = Option::<serde_json::Value>::deserialize(deserializer)? else {
            return Ok(None);
        };
        Ok(Some(
            serde_json::from_value(value.clone()).unwrap_or(Self::Result { result: value }),
        ))
    }
}

/// A code cell as the person sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CodeCell {
    pub code: String,
    pub language: CodeLanguage,
    #[serde(default)]
    pub execution_count: Option<u32>,
    pub stdout: String,
    pub stderr: String,
    pub outputs: Vec<CodeOutput>,
    #[serde(default)]
    pub error: Option<CodeError>,
    #[serde(default)]
    pub timed_out: bool,
    /// Why the kernel was started afresh during the cell.
    #[serde(default)]
    pub kernel_restarted: Option<String>,
}

/// One display output of a code cell, in the order the kernel produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CodeOutput {
    Text {
        text: String,
    },
    /// A table or other markup, sanitised (no scripts, styles or event handlers).
    Html {
        html: String,
    },
    /// A chart: `image` once stored (`None` when it could not be), its size when known.
    Image {
        #[serde(default)]
        image: Option<ImageRef>,
        #[serde(default)]
        width: Option<u32>,
        #[serde(default)]
        height: Option<u32>,
    },
}

/// A stored image (a browser screenshot, a chart), as the view refers to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ImageRef {
    pub id: String,
    /// Where the signed-in person (or a share link) loads it.
    pub url: String,
}

/// One piece of an MCP tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum McpItem {
    Text {
        text: String,
    },
    /// `src` is a `data:` URL.
    Image {
        mime_type: String,
        src: String,
    },
    Resource {
        uri: String,
        #[serde(default)]
        text: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize)]
    struct Holder {
        #[serde(default, deserialize_with = "ToolView::lenient")]
        view: Option<ToolView>,
    }

    #[test]
    fn views_stored_before_they_were_typed_still_read() {
        let shell = json!({ "view": { "kind": "shell", "command": "ls", "output": "a\n", "state": "exited", "exit_code": 0 } });
        let Holder { view } = serde_json::from_value(shell).unwrap();
        assert!(matches!(
            view,
            Some(ToolView::Shell {
                exit_code: Some(0),
                ..
            })
        ));
        let file =
            json!({ "view": { "kind": "file", "path": "a.txt", "content": "hi", "old": null, "new": null } });
        let Holder { view } = serde_json::from_value(file).unwrap();
        assert!(matches!(view, Some(ToolView::File { old: None, .. })));
        let odd = json!({ "view": { "kind": "hologram", "depth": 3 } });
        let Holder { view } = serde_json::from_value(odd).unwrap();
        assert_eq!(
            view,
            Some(ToolView::Result {
                result: json!({ "kind": "hologram", "depth": 3 })
            })
        );
    }
}
