//! Tools as the model and the person meet them: the spec offered to the model, where a
//! tool runs, and the typed view of a finished call that the event log keeps and the UI
//! shows (`view.rs`, its parts in `view_parts.rs`; the front end's types are generated
//! from them through the OpenAPI document).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{PartialSchema, ToSchema};

mod view;
mod view_parts;

pub use view::ToolView;
pub use view_parts::{
    AutomationMade, CodeCell, CodeOutput, ImageRef, McpItem, MemoryChange, RegisteredTool, ToolRegistration,
};

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
/// `parse(name, args)`. A `typed` family (its argument types serialize) also gets
/// `args()`, the arguments as read, and `call_schemas()`, one schema of `{name, args}`
/// per tool, from which the event log's typed calls are described.
macro_rules! tool_calls {
    (typed $(#[$doc:meta])* $enum:ident { $($variant:ident $(($args:ty))? = $name:literal, $description:literal;)* }) => {
        tool_calls! { $(#[$doc])* $enum { $($variant $(($args))? = $name, $description;)* } }

        impl $enum {
            /// The arguments as read (defaults filled in), `{}` for a tool without any.
            pub fn args(&self) -> serde_json::Value {
                let value = match self {
                    $(Self::$variant $((tool_calls!(@bind args $args)))? => tool_calls!(@value $($args, args)?),)*
                };
                value.unwrap_or_else(|_| serde_json::json!({}))
            }

            /// One schema per tool: its name and its arguments' schema.
            pub fn call_schemas() -> Vec<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>> {
                use utoipa::openapi::schema::{ObjectBuilder, Type};
                vec![$(ObjectBuilder::new()
                    .property("name", ObjectBuilder::new().schema_type(Type::String).enum_values(Some([$name])))
                    .required("name")
                    .property("args", tool_calls!(@args_schema $($args)?))
                    .required("args")
                    .build()
                    .into(),)*]
            }
        }
    };
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
    (@bind $binding:ident $args:ty) => { $binding };
    (@value $args:ty, $binding:ident) => { serde_json::to_value($binding) };
    (@value) => { Ok::<_, serde_json::Error>(serde_json::json!({})) };
    (@args_schema $args:ty) => { <$args as utoipa::PartialSchema>::schema() };
    (@args_schema) => { <$crate::domain::tool::NoArguments as utoipa::PartialSchema>::schema() };
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
