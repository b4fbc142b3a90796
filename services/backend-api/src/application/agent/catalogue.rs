//! The tool catalogue: every tool the model may call in a turn — the run's own, the
//! backend's (web search, when a provider is configured), the sandbox's, and the MCP
//! servers' (listed when the turn starts) — with where each one runs. The model's call is
//! parsed here, once, into a typed [`ToolCall`]; the run only matches on that.

use serde_json::{Map, Value};

use crate::domain::agent_server::REGISTER_TOOL;
use crate::domain::backend_call::BackendCall;
use crate::domain::logged_call::LoggedCall;
use crate::domain::mcp::{qualified_name, McpTool};
use crate::domain::memory::MEMORY_TOOL;
use crate::domain::run_call::{DelegateArgs, DelegateCall, RunCall, AUTOMATE_TOOL};
use crate::domain::sandbox_call::SandboxCall;
use crate::domain::tool::{ToolHome, ToolSpec};

/// The run's tools a turn offers only when it says so (see [`Catalogue::offer_optional`]).
const OPTIONAL: [&str; 3] = [MEMORY_TOOL, REGISTER_TOOL, AUTOMATE_TOOL];

/// A call the model made, parsed.
#[derive(Debug, Clone)]
pub enum ToolCall {
    Run(RunCall),
    Delegate(DelegateArgs),
    Backend(BackendCall),
    Sandbox(SandboxCall),
    Mcp {
        server: String,
        tool: String,
        arguments: Map<String, Value>,
    },
}

impl ToolCall {
    /// The call as the event log keeps it, from this same parse; `args`, the model's
    /// arguments of the call named `name`, are kept only for an MCP tool, whose arguments
    /// have no type here.
    pub fn logged(&self, name: &str, args: Value) -> LoggedCall {
        match self {
            Self::Run(call) => LoggedCall::Run(Box::new(call.clone())),
            Self::Delegate(task) => LoggedCall::Delegate(DelegateCall::Delegate(task.clone())),
            Self::Backend(call) => LoggedCall::Backend(call.clone()),
            Self::Sandbox(call) => LoggedCall::Sandbox(call.clone()),
            Self::Mcp { .. } => LoggedCall::Written {
                name: name.to_owned(),
                args,
            },
        }
    }
}

pub struct Catalogue {
    specs: Vec<ToolSpec>,
    homes: Vec<ToolHome>,
    /// The run's, the backend's and the sandbox's tools come first; MCP tools after these.
    built_in: usize,
}

impl Catalogue {
    /// `web_search` is offered only when a search provider is configured: a model that
    /// has no search tool browses to a search engine instead, where a tool that can only
    /// fail would cost it a step to learn that. The run's own tools (planning, talking to
    /// the person, delegating) are the session's agent's; a sub-agent works without them.
    /// `memory`, `tool_register` and `automation_create` wait for
    /// [`Catalogue::offer_optional`].
    pub fn new(web_search: bool, run_tools: bool) -> Self {
        let (run, delegate) = if run_tools {
            let mut run = RunCall::specs();
            run.retain(|spec| !OPTIONAL.contains(&spec.name.as_str()));
            (run, DelegateCall::specs())
        } else {
            (Vec::new(), Vec::new())
        };
        // web_search is the backend's only tool.
        let backend = if web_search {
            BackendCall::specs()
        } else {
            Vec::new()
        };
        let sandbox = SandboxCall::specs();
        let homes = std::iter::repeat_n(ToolHome::Run, run.len())
            .chain(std::iter::repeat_n(ToolHome::SubAgent, delegate.len()))
            .chain(std::iter::repeat_n(ToolHome::Backend, backend.len()))
            .chain(std::iter::repeat_n(ToolHome::Sandbox, sandbox.len()))
            .collect();
        let specs: Vec<_> = run
            .into_iter()
            .chain(delegate)
            .chain(backend)
            .chain(sandbox)
            .collect();
        Self {
            built_in: specs.len(),
            specs,
            homes,
        }
    }

    /// What the model is offered.
    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    /// Offers one of the [`OPTIONAL`] run tools, first, or withdraws it: a turn offers
    /// `memory` while the person has memory on, `tool_register` and `automation_create`
    /// in a chat's own run.
    pub fn offer_optional(&mut self, name: &str, on: bool) {
        debug_assert!(OPTIONAL.contains(&name), "{name} is not optional");
        let offered = self.specs.iter().position(|spec| spec.name == name);
        match (on, offered) {
            (true, None) => {
                let spec = RunCall::specs().into_iter().find(|spec| spec.name == name);
                self.specs
                    .insert(0, spec.expect("an optional tool is one of the run's tools"));
                self.homes.insert(0, ToolHome::Run);
                self.built_in += 1;
            }
            (false, Some(at)) => {
                self.specs.remove(at);
                self.homes.remove(at);
                self.built_in -= 1;
            }
            _ => {}
        }
    }

    /// Forgets the MCP tools (a new turn lists them again).
    pub fn clear_mcp(&mut self) {
        self.specs.truncate(self.built_in);
        self.homes.truncate(self.built_in);
    }

    /// Forgets one server's tools (it is offered again as it is now).
    pub fn withdraw_mcp(&mut self, server: &str) {
        let mut at = self.built_in;
        while at < self.specs.len() {
            if matches!(&self.homes[at], ToolHome::Mcp { server: of, .. } if of == server) {
                self.specs.remove(at);
                self.homes.remove(at);
            } else {
                at += 1;
            }
        }
    }

    /// Offers a server's tools under their qualified names; a tool whose name models
    /// would refuse is left out (and logged).
    pub fn offer_mcp(&mut self, server: &str, tools: Vec<McpTool>) {
        for tool in tools {
            let Some(name) = qualified_name(server, &tool.name) else {
                tracing::warn!(
                    server,
                    tool = tool.name,
                    "an MCP tool name models refuse; left out"
                );
                continue;
            };
            self.specs.push(ToolSpec {
                name,
                description: tool.description,
                parameters: tool.input_schema,
            });
            self.homes.push(ToolHome::Mcp {
                server: server.to_owned(),
                tool: tool.name,
            });
        }
    }

    /// The call of the tool named `name` with the model's arguments; the error tells the
    /// model what to fix.
    pub fn parse(&self, name: &str, args: Value) -> Result<ToolCall, String> {
        let Some(home) = self
            .specs
            .iter()
            .position(|spec| spec.name == name)
            .map(|at| &self.homes[at])
        else {
            return Err(format!(
                "there is no tool named {name}; call one of the tools you were given"
            ));
        };
        let misfit = |err: String| format!("the arguments do not fit {name}: {err}");
        match home {
            ToolHome::Run => RunCall::parse(name, args)
                .map(|parsed| parsed.map(ToolCall::Run).map_err(misfit))
                .unwrap_or_else(|| Err(format!("{name} is not one of the run's tools"))),
            ToolHome::SubAgent => DelegateCall::parse(name, args)
                .map(|parsed| {
                    parsed
                        .map(|DelegateCall::Delegate(task)| ToolCall::Delegate(task))
                        .map_err(misfit)
                })
                .unwrap_or_else(|| Err(format!("{name} is not a sub-agent tool"))),
            ToolHome::Backend => BackendCall::parse(name, args)
                .map(|parsed| parsed.map(ToolCall::Backend).map_err(misfit))
                .unwrap_or_else(|| Err(format!("{name} is not one of the backend's tools"))),
            ToolHome::Sandbox => SandboxCall::parse(name, args)
                .map(|parsed| parsed.map(ToolCall::Sandbox).map_err(misfit))
                .unwrap_or_else(|| Err(format!("{name} is not one of the sandbox's tools"))),
            ToolHome::Mcp { server, tool } => {
                let arguments = match args {
                    Value::Object(fields) => fields,
                    Value::Null => Map::new(),
                    _ => return Err(format!("the arguments of {name} must be a JSON object")),
                };
                Ok(ToolCall::Mcp {
                    server: server.clone(),
                    tool: tool.clone(),
                    arguments,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn echo() -> McpTool {
        McpTool {
            name: "echo".into(),
            description: "Echoes".into(),
            input_schema: json!({ "type": "object" }),
        }
    }

    #[test]
    fn calls_parse_into_the_tool_they_name_wherever_it_runs() {
        let mut catalogue = Catalogue::new(true, true);
        catalogue.offer_mcp("everything", vec![echo()]);
        assert!(matches!(
            catalogue.parse("set_title", json!({ "title": "Hi" })),
            Ok(ToolCall::Run(RunCall::Title(_)))
        ));
        assert!(matches!(
            catalogue.parse("file_read", json!({ "path": "a" })),
            Ok(ToolCall::Sandbox(SandboxCall::FileRead(_)))
        ));
        assert!(matches!(
            catalogue.parse("web_search", json!({ "query": "terns" })),
            Ok(ToolCall::Backend(BackendCall::WebSearch(_)))
        ));
        let Ok(ToolCall::Mcp { server, tool, .. }) =
            catalogue.parse("mcp__everything__echo", json!({ "message": "x" }))
        else {
            panic!("the MCP tool did not parse");
        };
        assert_eq!((server.as_str(), tool.as_str()), ("everything", "echo"));
        let wrong = catalogue.parse("mcp__everything__echo", json!([1])).unwrap_err();
        assert!(wrong.contains("JSON object"), "{wrong}");
        let misfit = catalogue.parse("file_read", json!({})).unwrap_err();
        assert!(
            misfit.starts_with("the arguments do not fit file_read"),
            "{misfit}"
        );
    }

    #[test]
    fn web_search_is_offered_only_with_a_provider() {
        let offered = |catalogue: &Catalogue| catalogue.specs().iter().any(|spec| spec.name == "web_search");
        assert!(offered(&Catalogue::new(true, true)));
        let without = Catalogue::new(false, true);
        assert!(!offered(&without));
        let refused = without
            .parse("web_search", json!({ "query": "terns" }))
            .unwrap_err();
        assert!(refused.contains("no tool named web_search"), "{refused}");
    }

    #[test]
    fn a_sub_agent_neither_plans_nor_asks_nor_delegates() {
        let sub = Catalogue::new(true, false);
        let names: Vec<&str> = sub.specs().iter().map(|spec| spec.name.as_str()).collect();
        assert!(
            names.contains(&"shell_exec") && names.contains(&"web_search"),
            "{names:?}"
        );
        for run_tool in ["delegate", "message_ask_user", "plan_update"] {
            assert!(!names.contains(&run_tool), "{run_tool} offered: {names:?}");
            let refused = sub.parse(run_tool, json!({})).unwrap_err();
            assert!(refused.contains("no tool named"), "{refused}");
        }
    }

    #[test]
    fn memory_is_offered_only_when_asked_and_survives_mcp_turns() {
        let mut catalogue = Catalogue::new(false, true);
        let offered = |catalogue: &Catalogue| catalogue.specs().iter().any(|spec| spec.name == "memory");
        assert!(!offered(&catalogue));
        assert!(catalogue
            .parse("memory", json!({ "action": "add", "text": "x" }))
            .is_err());
        catalogue.offer_optional(MEMORY_TOOL, true);
        catalogue.offer_optional(MEMORY_TOOL, true);
        catalogue.offer_mcp("everything", vec![echo()]);
        catalogue.clear_mcp();
        assert_eq!(
            catalogue
                .specs()
                .iter()
                .filter(|spec| spec.name == "memory")
                .count(),
            1
        );
        assert!(matches!(
            catalogue.parse("memory", json!({ "action": "add", "text": "x" })),
            Ok(ToolCall::Run(RunCall::Memory(_)))
        ));
        catalogue.offer_optional(MEMORY_TOOL, false);
        assert!(!offered(&catalogue));
        assert!(!offered(&Catalogue::new(true, false)));
    }

    #[test]
    fn tool_register_waits_to_be_offered_and_one_server_is_withdrawn_alone() {
        let mut catalogue = Catalogue::new(false, true);
        assert!(catalogue
            .parse(REGISTER_TOOL, json!({ "name": "a", "command": "b" }))
            .is_err());
        catalogue.offer_optional(REGISTER_TOOL, true);
        assert!(matches!(
            catalogue.parse(REGISTER_TOOL, json!({ "name": "a", "command": "b" })),
            Ok(ToolCall::Run(RunCall::Register(_)))
        ));
        let missing = catalogue
            .parse(REGISTER_TOOL, json!({ "command": "b" }))
            .unwrap_err();
        assert!(missing.contains("missing field `name`"), "{missing}");
        catalogue.offer_mcp("everything", vec![echo()]);
        catalogue.offer_mcp("calc", vec![echo()]);
        catalogue.withdraw_mcp("calc");
        assert!(catalogue.parse("mcp__calc__echo", json!({})).is_err());
        assert!(catalogue.parse("mcp__everything__echo", json!({})).is_ok());
    }

    #[test]
    fn mcp_tools_last_one_turn() {
        let mut catalogue = Catalogue::new(false, true);
        let built_in = catalogue.specs().len();
        catalogue.offer_mcp("everything", vec![echo()]);
        assert_eq!(catalogue.specs().len(), built_in + 1);
        catalogue.clear_mcp();
        assert_eq!(catalogue.specs().len(), built_in);
        let gone = catalogue.parse("mcp__everything__echo", json!({})).unwrap_err();
        assert!(gone.contains("no tool named"), "{gone}");
    }
}
