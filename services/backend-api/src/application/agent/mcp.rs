//! What an MCP tool's result becomes: the view the person sees (texts, images inline,
//! resources) and the text the model reads (images and resources described).

use crate::domain::mcp::{McpContent, McpResult};
use crate::domain::tool::{McpItem, ToolView};

/// Largest image (base64 characters) kept in a tool event; bigger ones are described.
const MAX_INLINE_IMAGE: usize = 512 * 1024;
/// Longest text kept in a view, per content item.
const MAX_VIEW_TEXT: usize = 100_000;

/// The view and the model's text of `result` from `tool` on `server`.
pub fn present(server: &str, tool: &str, result: &McpResult) -> (ToolView, String) {
    let mut shown = Vec::new();
    let mut told = Vec::new();
    for item in &result.content {
        match item {
            McpContent::Text(text) => {
                shown.push(McpItem::Text { text: cut(text) });
                told.push(text.clone());
            }
            McpContent::Image { mime_type, data } => {
                let bytes = data.len() / 4 * 3;
                told.push(format!(
                    "[an {mime_type} image of about {bytes} bytes, shown to the person]"
                ));
                shown.push(
                    if data.len() <= MAX_INLINE_IMAGE && mime_type.starts_with("image/") {
                        McpItem::Image {
                            mime_type: mime_type.clone(),
                            src: format!("data:{mime_type};base64,{data}"),
                        }
                    } else {
                        McpItem::Text {
                            text: format!("[an {mime_type} image of about {bytes} bytes, too large to show]"),
                        }
                    },
                );
            }
            McpContent::Resource { uri, text } => {
                told.push(match text {
                    Some(text) => format!("[resource {uri}]\n{text}"),
                    None => format!("[resource {uri}]"),
                });
                shown.push(McpItem::Resource {
                    uri: uri.clone(),
                    text: text.as_deref().map(cut),
                });
            }
        }
    }
    let mut text = told.join("\n");
    if result.is_error {
        text = format!("The tool reported an error:\n{text}");
    }
    let view = ToolView::Mcp {
        server: server.to_owned(),
        tool: tool.to_owned(),
        is_error: result.is_error,
        content: shown,
    };
    (view, text)
}

fn cut(text: &str) -> String {
    if text.len() <= MAX_VIEW_TEXT {
        return text.to_owned();
    }
    let mut end = MAX_VIEW_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[… cut]", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_shown_inline_and_described_to_the_model() {
        let result = McpResult {
            content: vec![
                McpContent::Text("Here it is:".into()),
                McpContent::Image {
                    mime_type: "image/png".into(),
                    data: "iVBORw0KGgo=".into(),
                },
                McpContent::Resource {
                    uri: "test://static/1".into(),
                    text: None,
                },
            ],
            is_error: false,
        };
        let (view, text) = present("everything", "get-tiny-image", &result);
        let ToolView::Mcp { content, .. } = view else {
            panic!("not an MCP view: {view:?}");
        };
        assert!(
            matches!(&content[1], McpItem::Image { src, .. } if src == "data:image/png;base64,iVBORw0KGgo=")
        );
        assert!(matches!(&content[2], McpItem::Resource { uri, .. } if uri == "test://static/1"));
        assert_eq!(
            text,
            "Here it is:\n[an image/png image of about 9 bytes, shown to the person]\n[resource test://static/1]"
        );
    }

    #[test]
    fn tool_errors_say_so_and_huge_items_are_cut() {
        let result = McpResult {
            content: vec![
                McpContent::Text("é".repeat(MAX_VIEW_TEXT)),
                McpContent::Image {
                    mime_type: "image/png".into(),
                    data: "A".repeat(MAX_INLINE_IMAGE + 4),
                },
            ],
            is_error: true,
        };
        let (view, text) = present("s", "t", &result);
        assert!(text.starts_with("The tool reported an error:\n"));
        let ToolView::Mcp {
            content, is_error, ..
        } = view
        else {
            panic!("not an MCP view: {view:?}");
        };
        assert!(matches!(&content[0], McpItem::Text { text } if text.ends_with("[… cut]")));
        assert!(matches!(&content[1], McpItem::Text { .. }));
        assert!(is_error);
    }
}
