//! Keeping the conversation within the model's budget: a long tool output is cut for the
//! model (with a note saying how much was left out; the person's view keeps it whole),
//! and when the conversation nears the context budget the oldest tool results are
//! replaced by a short marker — the most recent ones stay, they matter most.

use crate::domain::agent::{ChatMessage, ChatRole};

/// Tool results always kept whole, counted from the end.
const KEEP_RECENT_RESULTS: usize = 4;

/// `text` cut to its first `limit` characters, and the note saying how much was left
/// out (empty when nothing was).
pub fn cut_for_model(text: &str, limit: usize) -> (&str, String) {
    let Some((at, _)) = text.char_indices().nth(limit) else {
        return (text, String::new());
    };
    let left_out = text[at..].chars().count();
    (
        &text[..at],
        format!("\n[… {left_out} more characters left out; ask for a smaller part if you need it]"),
    )
}

fn size(messages: &[ChatMessage]) -> usize {
    messages
        .iter()
        .map(|m| {
            m.content.as_deref().map_or(0, str::len)
                + m.tool_calls.iter().map(|c| c.arguments.len()).sum::<usize>()
        })
        .sum()
}

/// Compacts the oldest tool results until the conversation fits `budget` characters.
pub fn compact(messages: &mut [ChatMessage], budget: usize) {
    let mut over = size(messages).saturating_sub(budget);
    if over == 0 {
        return;
    }
    let results: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == ChatRole::Tool)
        .map(|(i, _)| i)
        .collect();
    let old = results.len().saturating_sub(KEEP_RECENT_RESULTS);
    for &i in &results[..old] {
        if over == 0 {
            break;
        }
        let Some(content) = messages[i].content.as_mut() else {
            continue;
        };
        let marker = format!("[older result compacted: {} characters]", content.len());
        if marker.len() < content.len() {
            over = over.saturating_sub(content.len() - marker.len());
            *content = marker;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_outputs_are_cut_with_a_note() {
        assert_eq!(cut_for_model("short", 10), ("short", String::new()));
        assert_eq!(cut_for_model("exactly10!", 10), ("exactly10!", String::new()));
        let long = "é".repeat(50);
        let (head, note) = cut_for_model(&long, 10);
        assert_eq!(head, "é".repeat(10));
        assert!(note.contains("40 more characters"), "{note}");
    }

    #[test]
    fn the_oldest_results_go_first_and_recent_ones_stay() {
        let mut messages = vec![ChatMessage::text(ChatRole::User, "task")];
        for i in 0..8 {
            messages.push(ChatMessage::tool_result(&format!("c{i}"), "y".repeat(1000)));
        }
        compact(&mut messages, 6000);
        let compacted: Vec<bool> = messages[1..]
            .iter()
            .map(|m| m.content.as_deref().unwrap().starts_with("[older"))
            .collect();
        assert_eq!(compacted, [true, true, true, false, false, false, false, false]);
        assert!(size(&messages) <= 6000);
        assert_eq!(messages[0].content.as_deref(), Some("task"));
    }
}
