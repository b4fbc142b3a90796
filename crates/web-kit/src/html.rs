//! HTML as text a model can read: a whole page as markdown with its `<title>`, and the
//! inline markup of a search snippet (`<strong>`, `&amp;`) as plain text.

use std::sync::{Arc, LazyLock, OnceLock};

use htmd::{Element, HtmlToMarkdown};
use regex::Regex;

/// Elements whose content is code, chrome or invisible, not the page's text. htmd still
/// walks their children, but what they produce is dropped.
const NOISE: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "nav",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub title: Option<String>,
    pub markdown: String,
}

/// Converts a page. CPU-bound on large pages: call it off the async workers.
pub fn to_markdown(html: &str) -> anyhow::Result<Page> {
    // htmd has no hook to hand back data, so the `<title>` handler keeps its text here and
    // renders nothing, which also keeps the title out of the body text.
    let title = Arc::new(OnceLock::new());
    let converter = HtmlToMarkdown::builder()
        .skip_tags(NOISE.to_vec())
        .add_handler(vec!["title"], {
            let title = Arc::clone(&title);
            move |element: Element| {
                let _first_title_wins = title.set(element.content.trim().to_owned());
                None
            }
        })
        // An image is its alt text: `src` is often a data: URI of many kilobytes.
        .add_handler(vec!["img"], |element: Element| {
            element
                .attrs
                .iter()
                .find(|attr| &*attr.name.local == "alt")
                .map(|attr| attr.value.trim().to_owned())
        })
        .build();
    let markdown = converter.convert(html)?;
    Ok(Page {
        title: title
            .get()
            .filter(|title| !title.is_empty())
            .map(|title| unescape_markdown(title)),
        markdown: tidy(&markdown),
    })
}

/// Trims trailing blanks off every line and squeezes runs of blank lines into one, which
/// skipped elements leave behind.
fn tidy(markdown: &str) -> String {
    static BLANK_RUNS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\n{3,}").expect("valid regex"));
    let lines: Vec<&str> = markdown.lines().map(str::trim_end).collect();
    BLANK_RUNS
        .replace_all(lines.join("\n").trim(), "\n\n")
        .into_owned()
}

/// Undoes htmd's escaping (`snake\_case`, `\[draft\]`) in text that is not markdown, such
/// as the title.
fn unescape_markdown(text: &str) -> String {
    static ESCAPED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\\([\\*_`\[\]=~>+#.-])").expect("valid regex"));
    ESCAPED.replace_all(text, "$1").into_owned()
}

/// Removes tags and decodes character references in a short fragment, such as a search
/// snippet with highlighted words. Not meant for whole pages (see [`to_markdown`]).
pub fn fragment_to_text(fragment: &str) -> String {
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").expect("valid regex"));
    static REFERENCE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);").expect("valid regex"));
    let text = TAG.replace_all(fragment, "");
    let text = REFERENCE.replace_all(&text, |reference: &regex::Captures| {
        decode_reference(&reference[1]).map_or_else(|| reference[0].to_owned(), String::from)
    });
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `amp` → `&`, `#39` → `'`, `#x27` → `'`; `None` for a reference it does not know, which
/// is then left as written.
fn decode_reference(name: &str) -> Option<char> {
    let code = if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
        u32::from_str_radix(hex, 16).ok()?
    } else if let Some(decimal) = name.strip_prefix('#') {
        decimal.parse().ok()?
    } else {
        return match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            "hellip" => Some('…'),
            "mdash" => Some('—'),
            "ndash" => Some('–'),
            _ => None,
        };
    };
    char::from_u32(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!doctype html>
<html><head><title>The  Title</title><style>body { color: red }</style>
<script>var secret = "script-content";</script></head>
<body>
<nav><a href="/home">Navigation link</a></nav>
<h1>Main heading</h1>
<p>First paragraph with a <a href="https://example.com/next">useful link</a>.</p>
<img src="data:image/png;base64,AAAA" alt="a diagram">
<ul><li>one</li><li>two</li></ul>
<script>document.write("more-script")</script>
</body></html>"#;

    #[test]
    fn a_page_becomes_markdown_with_its_title() {
        let page = to_markdown(PAGE).unwrap();
        assert_eq!(page.title.as_deref(), Some("The Title"));
        let text = &page.markdown;
        assert!(text.contains("# Main heading"), "{text}");
        assert!(
            text.contains("First paragraph with a [useful link](https://example.com/next)."),
            "{text}"
        );
        assert!(text.contains("a diagram"), "{text}");
        assert!(text.contains("one") && text.contains("two"), "{text}");
        for noise in [
            "script-content",
            "more-script",
            "color: red",
            "Navigation link",
            "base64",
            "The Title",
        ] {
            assert!(!text.contains(noise), "{noise:?} should be gone: {text}");
        }
        assert!(!text.contains("\n\n\n"), "{text:?}");
    }

    #[test]
    fn the_title_is_plain_text() {
        let page = to_markdown(r"<title>snake_case \ [draft] *x* # 1. a &amp; b</title>").unwrap();
        assert_eq!(
            page.title.as_deref(),
            Some(r"snake_case \ [draft] *x* # 1. a & b")
        );
    }

    #[test]
    fn a_page_without_title_has_none() {
        let page = to_markdown("<p>just text</p>").unwrap();
        assert_eq!(page.title, None);
        assert_eq!(page.markdown, "just text");
    }

    #[test]
    fn fragments_lose_tags_and_references() {
        assert_eq!(
            fragment_to_text("The <strong>Rust</strong> &amp; Go&#39;s &#x27;book&#x27;&nbsp;&hellip;"),
            "The Rust & Go's 'book' …"
        );
        assert_eq!(
            fragment_to_text("a &unknown; b &#xZZ; c"),
            "a &unknown; b &#xZZ; c"
        );
        assert_eq!(fragment_to_text("plain\n  text"), "plain text");
    }
}
