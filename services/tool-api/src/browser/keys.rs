//! Key presses with modifiers (`Control+a`, `Shift+Tab`), as DevTools input events.

use chromiumoxide::cdp::browser_protocol::input::{DispatchKeyEventParams, DispatchKeyEventType};
use chromiumoxide::keys::get_key_definition;
use chromiumoxide::Page;

use crate::error::{ToolError, ToolResult};

/// DevTools modifier bits.
fn modifier_bit(name: &str) -> Option<i64> {
    match name {
        "Alt" => Some(1),
        "Control" | "Ctrl" => Some(2),
        "Meta" | "Command" => Some(4),
        "Shift" => Some(8),
        _ => None,
    }
}

/// The events for `combo`, checked before anything is sent.
pub fn key_events(combo: &str) -> ToolResult<Vec<DispatchKeyEventParams>> {
    if combo.is_empty() {
        return Err(ToolError::invalid("key is empty"));
    }
    let parts: Vec<&str> = combo.split('+').collect();
    let (key, modifiers) = match parts.split_last() {
        // "+" alone, or a combo ending in "+" (e.g. "Shift++"), means the plus key.
        Some((&"", rest)) => ("+", rest.strip_suffix(&[""]).unwrap_or(rest)),
        Some((key, rest)) => (*key, rest),
        None => unreachable!("split yields at least one part"),
    };
    let mut mask = 0;
    for modifier in modifiers {
        mask |= modifier_bit(modifier).ok_or_else(|| {
            ToolError::invalid(format!(
                "unknown modifier {modifier:?} (use Control, Shift, Alt or Meta)"
            ))
        })?;
    }
    let key = if key == "Space" { " " } else { key };
    let definition = get_key_definition(key).ok_or_else(|| {
        ToolError::invalid(format!(
            "unknown key {key:?}; use a character or a name such as Enter, Tab, Escape, Backspace, ArrowDown, PageDown"
        ))
    })?;
    // Text is produced only without Control/Alt/Meta, as on a real keyboard.
    let text = if mask & !8 == 0 {
        definition
            .text
            .or((definition.key.chars().count() == 1).then_some(definition.key))
    } else {
        None
    };
    let build = |kind: DispatchKeyEventType| {
        let with_text = kind == DispatchKeyEventType::KeyDown;
        let mut event = DispatchKeyEventParams::builder()
            .r#type(kind)
            .key(definition.key)
            .code(definition.code)
            .windows_virtual_key_code(definition.key_code)
            .native_virtual_key_code(definition.key_code)
            .modifiers(mask);
        if with_text {
            if let Some(text) = text {
                event = event.text(text);
            }
        }
        event
            .build()
            .map_err(|err| ToolError::Internal(anyhow::anyhow!(err)))
    };
    let down = if text.is_some() {
        DispatchKeyEventType::KeyDown
    } else {
        DispatchKeyEventType::RawKeyDown
    };
    Ok(vec![build(down)?, build(DispatchKeyEventType::KeyUp)?])
}

pub async fn press(page: &Page, events: Vec<DispatchKeyEventParams>) -> chromiumoxide::Result<()> {
    for event in events {
        page.execute(event).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_and_modifiers() {
        let enter = key_events("Enter").unwrap();
        assert_eq!(enter[0].key.as_deref(), Some("Enter"));
        let select_all = key_events("Control+a").unwrap();
        assert_eq!(select_all[0].modifiers, Some(2));
        assert_eq!(select_all[0].text, None, "Control+a types nothing");
        assert_eq!(key_events("Shift+Tab").unwrap()[0].modifiers, Some(8));
        assert_eq!(key_events("a").unwrap()[0].text.as_deref(), Some("a"));
        assert!(key_events("Hyper+a").is_err());
        assert!(key_events("NoSuchKey").is_err());
        assert!(key_events("").is_err());
    }
}
