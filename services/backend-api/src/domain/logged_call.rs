//! A tool call as the event log keeps it and the person's app reads it: a call of one of
//! the built-in tools typed by its arguments' type — the sandbox's (the tool-api
//! contract's requests), the run's own ([`super::run_call`]) and the backend's
//! ([`super::backend_call`]); the front end's union is generated from these — and any
//! other call (MCP tools, or arguments that did not fit) with its arguments as the model
//! wrote them.
//!
//! Stored and sent as `{name, args}` (a written call also says `written: true`); a stored
//! call is typed again as it is read, so events stored before calls were typed read too.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::backend_call::BackendCall;
use super::run_call::{DelegateCall, RunCall};
use super::sandbox_call::SandboxCall;

#[derive(Debug, Clone)]
pub enum LoggedCall {
    /// A sandbox tool's call whose arguments fit its request type.
    Sandbox(SandboxCall),
    /// A call of one of the run's own tools whose arguments fit their type.
    Run(Box<RunCall>),
    /// A task handed to a sub-agent.
    Delegate(DelegateCall),
    /// A call of one of the backend's own tools (web search).
    Backend(BackendCall),
    /// Any other call, with its arguments as written.
    Written { name: String, args: Value },
}

impl LoggedCall {
    /// The call named `name` with these arguments, typed when it is a built-in tool's and
    /// they fit.
    pub fn read(name: String, args: Value) -> Self {
        let typed = SandboxCall::parse(&name, args.clone())
            .map(|call| call.map(Self::Sandbox))
            .or_else(|| {
                RunCall::parse(&name, args.clone()).map(|call| call.map(|call| Self::Run(Box::new(call))))
            })
            .or_else(|| DelegateCall::parse(&name, args.clone()).map(|call| call.map(Self::Delegate)))
            .or_else(|| BackendCall::parse(&name, args.clone()).map(|call| call.map(Self::Backend)));
        match typed {
            Some(Ok(call)) => call,
            _ => Self::Written { name, args },
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Self::Sandbox(call) => call.name(),
            Self::Run(call) => call.name(),
            Self::Delegate(call) => call.name(),
            Self::Backend(call) => call.name(),
            Self::Written { name, .. } => name,
        }
    }

    /// The arguments: a typed call's as read (defaults filled in), else as written.
    pub fn args(&self) -> Value {
        match self {
            Self::Sandbox(call) => call.args(),
            Self::Run(call) => call.args(),
            Self::Delegate(call) => call.args(),
            Self::Backend(call) => call.args(),
            Self::Written { args, .. } => args.clone(),
        }
    }
}

impl PartialEq for LoggedCall {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name() && self.args() == other.args()
    }
}

impl Serialize for LoggedCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let written = matches!(self, Self::Written { .. });
        let mut call = serializer.serialize_struct("LoggedCall", 2 + usize::from(written))?;
        call.serialize_field("name", self.name())?;
        call.serialize_field("args", &self.args())?;
        if written {
            call.serialize_field("written", &true)?;
        }
        call.end()
    }
}

impl<'de> Deserialize<'de> for LoggedCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Stored {
            name: String,
            #[serde(default)]
            args: Value,
        }
        let Stored { name, args } = Stored::deserialize(deserializer)?;
        // Some models write `null` for a tool without arguments.
        let args = if args.is_null() {
            Value::Object(Default::default())
        } else {
            args
        };
        Ok(Self::read(name, args))
    }
}

impl PartialSchema for LoggedCall {
    fn schema() -> RefOr<Schema> {
        let written = ObjectBuilder::new()
            .description(Some(
                "A call whose arguments have no type here (MCP tools) or did not fit theirs, as the model wrote them.",
            ))
            .property("name", ObjectBuilder::new().schema_type(Type::String))
            .required("name")
            .property("args", ObjectBuilder::new())
            .required("args")
            .property(
                "written",
                ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])),
            )
            .required("written")
            .build();
        let one_of = SandboxCall::call_schemas()
            .into_iter()
            .chain(RunCall::call_schemas())
            .chain(DelegateCall::call_schemas())
            .chain(BackendCall::call_schemas())
            .fold(OneOfBuilder::new(), |one_of, call| one_of.item(call))
            .item(written)
            .build();
        RefOr::T(Schema::OneOf(one_of))
    }
}

impl ToSchema for LoggedCall {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("LoggedCall")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_sandbox_call_is_typed_and_any_other_kept_as_written() {
        let search: LoggedCall = serde_json::from_value(
            json!({ "name": "file_search", "args": { "path": ".", "regex": "heron" } }),
        )
        .unwrap();
        let LoggedCall::Sandbox(SandboxCall::FileSearch(request)) = &search else {
            panic!("{search:?}");
        };
        assert_eq!((request.path.as_str(), request.regex.as_str()), (".", "heron"));
        let sent = serde_json::to_value(&search).unwrap();
        assert_eq!(sent["args"]["case_insensitive"], false, "{sent}");
        assert!(sent.get("written").is_none(), "{sent}");

        let view: LoggedCall = serde_json::from_value(json!({ "name": "shell_view", "args": null })).unwrap();
        assert!(matches!(view, LoggedCall::Sandbox(SandboxCall::ShellView)));
        assert_eq!(
            serde_json::to_value(&view).unwrap(),
            json!({ "name": "shell_view", "args": {} })
        );

        for (name, args) in [
            ("memory", json!({ "action": "forget" })),
            ("mcp__calc__add", json!({ "a": 1 })),
            // A sandbox tool's arguments that did not fit stay as they were written.
            ("file_search", json!({ "regex": 5 })),
        ] {
            let call: LoggedCall = serde_json::from_value(json!({ "name": name, "args": args })).unwrap();
            assert_eq!(
                call,
                LoggedCall::Written {
                    name: name.into(),
                    args: args.clone()
                }
            );
            assert_eq!(
                serde_json::to_value(&call).unwrap(),
                json!({ "name": name, "args": args, "written": true })
            );
        }
    }

    #[test]
    fn the_runs_own_calls_and_web_search_are_typed_too() {
        let read = |call: Value| serde_json::from_value::<LoggedCall>(call).unwrap();
        let memory = read(json!({ "name": "memory", "args": { "action": "add", "text": "uses pnpm" } }));
        let run = |call: &LoggedCall| match call {
            LoggedCall::Run(run) => Some((**run).clone()),
            _ => None,
        };
        let Some(RunCall::Memory(args)) = run(&memory) else {
            panic!("{memory:?}");
        };
        assert_eq!(args.text, "uses pnpm");
        assert_eq!(
            serde_json::to_value(&memory).unwrap(),
            json!({ "name": "memory", "args": { "action": "add", "text": "uses pnpm", "old": null } })
        );
        let automation = read(
            json!({ "name": "automation_create", "args": { "name": "Standup", "prompt": "Remind me", "cron": "0 9 * * MON" } }),
        );
        assert!(
            matches!(run(&automation), Some(RunCall::Automate(a)) if a.cron.as_deref() == Some("0 9 * * MON"))
        );
        let register =
            read(json!({ "name": "tool_register", "args": { "name": "calc", "command": "python3" } }));
        assert!(matches!(run(&register), Some(RunCall::Register(r)) if r.args.is_empty()));
        let delegate = read(json!({ "name": "delegate", "args": { "task": "count the terns" } }));
        assert!(matches!(&delegate, LoggedCall::Delegate(DelegateCall::Delegate(d)) if !d.own_sandbox));
        let search = read(json!({ "name": "web_search", "args": { "query": "terns" } }));
        assert!(matches!(&search, LoggedCall::Backend(BackendCall::WebSearch(s)) if s.query == "terns"));
        for call in [memory, automation, register, delegate, search] {
            assert!(
                serde_json::to_value(&call).unwrap().get("written").is_none(),
                "{call:?}"
            );
        }
    }
}
