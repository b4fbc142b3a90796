//! What the model is told besides its tools (see the [`catalogue`](super::catalogue)):
//! the system prompts of the session's agent and of a sub-agent, and how a person's
//! message with attachments reads.

use crate::domain::model::ModelCatalog;

const SYSTEM_PROMPT: &str = "You are Sandpiper, an agent that completes tasks for a person \
inside your own Linux desktop sandbox: a bash shell, files in your home folder, a Chromium \
browser, and web search. The person watches every step.\n\
- A simple question you can answer directly: just answer, without tools.\n\
- A task that needs actions: first call plan_update with a short plan (2-6 steps), then work \
step by step; mark each step running, then completed or failed with step_update; when a step \
fails, adjust the plan with plan_update.\n\
- Early on, give the session a short title with set_title.\n\
- Use message_notify_user for progress worth telling; use message_ask_user only when you \
cannot go on without the person (it ends your turn; set take_over when they should use the \
browser themselves, e.g. to sign in).\n\
- Finish with a concise answer that says what you did and where results are.";

const DELEGATION: &str = "\n- For a large task, delegate self-contained parts to sub-agents \
with delegate: each gets only the task text you write, works with the same tools, and returns \
its final answer. Delegate independent parts in one answer to run them at the same time; give \
a sub-agent its own sandbox (own_sandbox) when its work should not touch yours, and name the \
files it should hand back (return_files).";

/// What a sub-agent is told; its task follows as the first message.
pub const SUB_AGENT_PROMPT: &str = "You are a sub-agent of Sandpiper: another agent handed you \
the task in the next message. Work on it with your tools in your Linux sandbox (a bash shell, \
files in your home folder, a Chromium browser). Nobody answers questions: decide for yourself. \
Finish with a concise answer that says what you did, what you found and where the results \
are; that answer is all the other agent sees.";

/// The session's agent's instructions, with the models it may delegate to.
pub fn system_prompt(models: &ModelCatalog) -> String {
    let mut prompt = format!("{SYSTEM_PROMPT}{DELEGATION}");
    if models.list().len() > 1 {
        let implementer = models.implementer().map(|m| &m.name);
        let names: Vec<String> = models
            .list()
            .iter()
            .filter(|model| model.supports_tools)
            .map(|model| match implementer {
                Some(name) if *name == model.name => format!("{} (the default)", name.as_str()),
                _ => model.name.as_str().to_owned(),
            })
            .collect();
        prompt.push_str(&format!(
            " Models a sub-agent may use (delegate's model): {}.",
            names.join(", ")
        ));
    }
    prompt
}

/// The person's message as the model reads it: the files they attached are named, with
/// where they are in the sandbox.
pub fn with_attachments(content: String, attachments: &[String]) -> String {
    if attachments.is_empty() {
        return content;
    }
    format!(
        "{content}\n\n[Attached files, in the sandbox workspace: {}]",
        attachments.join(", ")
    )
}
