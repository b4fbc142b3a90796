//! One tool call from the model's arguments to its reply: parsed into what it asks for,
//! sent where the tool lives (the backend's own tools run here), and, for a call that
//! runs outside the run, opened with its `calling` event and closed with its `called`
//! one. The reply is the one message the model reads for it.

use serde_json::Value;

use super::{Next, OpenCall, Run};
use crate::application::agent::catalogue::ToolCall;
use crate::application::agent::untrusted::ToolReply;
use crate::domain::agent::{ChatMessage, ToolCallRequest};
use crate::domain::backend_call::BackendCall;
use crate::domain::event::{AgentEvent, ToolStatus};
use crate::domain::logged_call::LoggedCall;
use crate::domain::tool::ToolView;

impl Run {
    /// Runs one tool call; `Err` ends the turn with that message.
    pub(super) async fn handle(&mut self, call: &ToolCallRequest) -> Result<Next, String> {
        let Some((logged, parsed)) = self.parse(call).await else {
            return Ok(Next::Continue);
        };
        // Delegations of one answer start together; any other call waits for their
        // answers, which it may need.
        if !matches!(parsed, ToolCall::Delegate(_)) {
            self.sub_agents_answer().await?;
        }
        match parsed {
            ToolCall::Delegate(task) => self.delegate(call, logged, task).await,
            ToolCall::Run(run_call) => return Ok(self.run_tool(call, run_call, logged).await),
            ToolCall::Backend(request) => self.backend_tool(call, logged, &request).await,
            ToolCall::Sandbox(request) => self.sandbox_tool(call, logged, &request).await?,
            ToolCall::Mcp {
                server,
                tool,
                arguments,
            } => self.mcp_tool(call, logged, &server, &tool, arguments).await,
        }
        Ok(Next::Continue)
    }

    /// The call as it is logged and what it asks for, from one parse; `None` when its
    /// arguments do not parse, and the call is then logged as failed with the problem for
    /// the model to fix.
    async fn parse(&mut self, call: &ToolCallRequest) -> Option<(LoggedCall, ToolCall)> {
        let raw = if call.arguments.trim().is_empty() {
            "{}"
        } else {
            &call.arguments
        };
        let args: Value = match serde_json::from_str(raw) {
            Ok(args) => args,
            Err(err) => {
                let problem = format!(
                    "the arguments of {} are not valid JSON ({err}); call it again with a JSON object",
                    call.name
                );
                let logged = LoggedCall::read(call.name.clone(), Value::Object(Default::default()));
                self.fail_call(call, logged, problem).await;
                return None;
            }
        };
        match self.catalogue.parse(&call.name, args.clone()) {
            Ok(parsed) => Some((parsed.logged(&call.name, args), parsed)),
            Err(problem) => {
                self.fail_call(call, LoggedCall::read(call.name.clone(), args), problem)
                    .await;
                None
            }
        }
    }

    /// Runs one of the backend's own tools, here and without a sandbox. Its failure is the
    /// model's to read; the turn goes on.
    async fn backend_tool(&mut self, call: &ToolCallRequest, logged: LoggedCall, request: &BackendCall) {
        let BackendCall::WebSearch(search) = request;
        // The catalogue offers web_search only with a provider; a model that names it
        // anyway is told why it cannot run.
        let Some(web) = self.deps.web_search.clone() else {
            let problem = "web search is not configured on this server".to_owned();
            return self.fail_call(call, logged, problem).await;
        };
        self.open(call, logged).await;
        let outcome = web.search(search).await;
        self.close(&call.id, outcome.view, ToolReply::outside(outcome.text))
            .await;
    }

    /// A call that failed before it could run: opened and closed with the problem, which
    /// both the person and the model see.
    async fn fail_call(&mut self, call: &ToolCallRequest, logged: LoggedCall, problem: String) {
        self.open(call, logged).await;
        let reply = ToolReply::own(problem.clone());
        self.close(&call.id, ToolView::error(problem), reply).await;
    }

    /// Logs the call's `calling` event; it stays open until [`Run::close`].
    pub(super) async fn open(&mut self, call: &ToolCallRequest, logged: LoggedCall) {
        self.emit(AgentEvent::Tool {
            call_id: call.id.clone(),
            call: logged.clone(),
            status: ToolStatus::Calling,
            view: None,
        })
        .await;
        self.open_calls.push(OpenCall {
            call: call.clone(),
            logged,
        });
    }

    /// Logs the open call's `called` event with what the person sees, and gives the
    /// model its reply.
    pub(super) async fn close(&mut self, call_id: &str, view: ToolView, reply: ToolReply) {
        let Some(at) = self.open_calls.iter().position(|open| open.call.id == call_id) else {
            tracing::error!(
                session = self.session.id.as_str(),
                "closing a tool call that is not open"
            );
            return;
        };
        let OpenCall { call, logged } = self.open_calls.remove(at);
        self.emit(AgentEvent::Tool {
            call_id: call.id.clone(),
            call: logged,
            status: ToolStatus::Called,
            view: Some(view),
        })
        .await;
        self.answer(&call, reply);
    }

    /// Ends the open call, if any (it was stopped or ran out of time), saying why.
    pub(super) async fn close_open_calls(&mut self, why: &str) {
        while let Some(open) = self.open_calls.last() {
            let call_id = open.call.id.clone();
            self.close(&call_id, ToolView::error(why), ToolReply::own(format!("[{why}]")))
                .await;
        }
    }

    /// The tool message answering `call`, which every call needs before the next request:
    /// the one place a tool's reply becomes what the model reads, outside content marked
    /// untrusted and cut to the budget.
    pub(super) fn answer(&mut self, call: &ToolCallRequest, reply: ToolReply) {
        let text = reply.for_model(self.deps.budgets.tool_output_chars);
        self.conversation.push(ChatMessage::tool_result(&call.id, text));
    }
}
