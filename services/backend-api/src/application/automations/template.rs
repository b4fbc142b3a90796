//! An automation's prompt template and webhook filter, in minijinja's syntax: the
//! prompt may name the fire's payload (`{{ body.repository.name }}`, `{{ fired_at }}`,
//! `{{ trigger }}`), a filter is an expression over the same that must be true for a
//! delivery to run (`body.action == "opened"`), and a key expression gives a delivery's
//! idempotency key (`body.delivery_id`). All are checked when saved.

use chrono::{DateTime, SecondsFormat, Utc};
use minijinja::{context, Environment, Value};

use crate::domain::DomainError;

/// What a prompt or filter sees of a fire.
pub struct Payload<'a> {
    pub fired_at: DateTime<Utc>,
    /// `schedule`, `at`, `webhook` or `manual`.
    pub trigger: &'a str,
    /// A webhook's body (JSON, else its text); `null` otherwise.
    pub body: &'a serde_json::Value,
}

impl Payload<'_> {
    fn context(&self) -> Value {
        context! {
            fired_at => self.fired_at.to_rfc3339_opts(SecondsFormat::Secs, true),
            trigger => self.trigger,
            body => Value::from_serialize(self.body),
        }
    }
}

fn environment() -> Environment<'static> {
    Environment::new()
}

/// `InvalidField` naming `prompt` when the template does not parse.
pub fn check_prompt(prompt: &str) -> Result<(), DomainError> {
    if prompt.trim().is_empty() {
        return Err(DomainError::InvalidField {
            field: "prompt",
            message: "say what the agent should do".into(),
        });
    }
    environment()
        .template_from_str(prompt)
        .map(drop)
        .map_err(|err| DomainError::InvalidField {
            field: "prompt",
            message: format!("not a valid template: {err}"),
        })
}

/// `InvalidField` naming `field` when the expression does not parse.
pub fn check_expression(expression: &str, field: &'static str) -> Result<(), DomainError> {
    environment()
        .compile_expression(expression)
        .map(drop)
        .map_err(|err| DomainError::InvalidField {
            field,
            message: format!("not a valid expression: {err}"),
        })
}

/// The prompt with the payload filled in; the error says what went wrong.
pub fn render(prompt: &str, payload: &Payload<'_>) -> Result<String, String> {
    environment()
        .render_str(prompt, payload.context())
        .map_err(|err| err.to_string())
}

/// Whether the filter holds for the payload (an error is "no").
pub fn matches(filter: &str, payload: &Payload<'_>) -> bool {
    evaluate(filter, payload).is_some_and(|value| value.is_true())
}

/// The expression's value for the payload as text; `None` when it has none (an error,
/// an undefined or `none` value, an empty text).
pub fn text_of(expression: &str, payload: &Payload<'_>) -> Option<String> {
    let value = evaluate(expression, payload)?;
    let text = (!value.is_undefined() && !value.is_none()).then(|| value.to_string())?;
    (!text.is_empty()).then_some(text)
}

fn evaluate(expression: &str, payload: &Payload<'_>) -> Option<Value> {
    let env = environment();
    env.compile_expression(expression)
        .and_then(|expression| expression.eval(payload.context()))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_names_the_payload() {
        let body = serde_json::json!({ "repository": { "name": "sandpiper" }, "action": "opened" });
        let payload = Payload {
            fired_at: DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            trigger: "webhook",
            body: &body,
        };
        let prompt = render("Review {{ body.repository.name }} at {{ fired_at }}", &payload).unwrap();
        assert_eq!(prompt, "Review sandpiper at 2027-01-15T08:00:00Z");
        assert!(matches("body.action == \"opened\"", &payload));
        assert!(!matches("body.action == \"closed\"", &payload));
        assert_eq!(
            text_of("body.repository.name", &payload).as_deref(),
            Some("sandpiper")
        );
        assert_eq!(text_of("body.missing", &payload), None);
    }

    #[test]
    fn bad_templates_name_their_field() {
        assert!(matches!(
            check_prompt("{{ body.x "),
            Err(DomainError::InvalidField { field: "prompt", .. })
        ));
        assert!(matches!(
            check_expression("body.x ==", "filter"),
            Err(DomainError::InvalidField { field: "filter", .. })
        ));
    }
}
