//! A code cell's answer as the model and the person get it. The model reads text: what
//! the cell printed, each output's plain text or a short description of its picture, and
//! the error with its traceback, to fix and run again. The person gets the real thing:
//! pictures (stored with the session and shown by URL), tables as sanitised HTML, and
//! the code with its streams and error.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use tool_api_client::contract::code::{CodeRunRequest, CodeRunResult, RichOutput};

use crate::domain::agent::ToolOutcome;
use crate::domain::image::{ImageFormat, Picture};
use crate::domain::tool::{CodeCell, CodeOutput, ToolView};

pub fn present(request: &CodeRunRequest, result: CodeRunResult) -> ToolOutcome {
    let mut text = Vec::new();
    if let Some(count) = result.execution_count {
        text.push(format!("In [{count}]"));
    }
    if result.timed_out {
        text.push("The cell ran past its timeout and was interrupted.".to_owned());
    }
    if let Some(reason) = &result.kernel_restarted {
        text.push(reason.clone());
    }
    for (name, stream) in [("stdout", &result.stdout), ("stderr", &result.stderr)] {
        if !stream.is_empty() {
            text.push(format!("{name}:\n{}", stream.trim_end()));
        }
    }
    let mut outputs = Vec::new();
    let mut images = Vec::new();
    for output in result.outputs {
        let (shown, described, picture) = show(output);
        text.push(described);
        outputs.extend(shown);
        images.extend(picture);
    }
    if result.outputs_dropped > 0 {
        text.push(format!("({} more outputs were not kept)", result.outputs_dropped));
    }
    if let Some(error) = &result.error {
        text.push(format!("{}: {}\n{}", error.name, error.value, error.traceback));
    }
    if text.is_empty() || (text.len() == 1 && result.execution_count.is_some()) {
        text.push("(the cell ran and printed nothing)".to_owned());
    }
    ToolOutcome {
        text: text.join("\n"),
        view: ToolView::Code(Box::new(CodeCell {
            code: request.code.clone(),
            language: request.language,
            execution_count: result.execution_count,
            stdout: result.stdout,
            stderr: result.stderr,
            outputs,
            error: result.error,
            timed_out: result.timed_out,
            kernel_restarted: result.kernel_restarted,
        })),
        images,
    }
}

/// One output for the person (none when there is nothing to show), its text for the
/// model, and its picture: the richest form that came, a picture before a table before
/// text.
fn show(output: RichOutput) -> (Option<CodeOutput>, String, Option<Picture>) {
    let plain = output.plain.unwrap_or_default();
    let with_plain = |description: String| match plain.trim() {
        "" => format!("[{description}]"),
        text => format!("[{description}: {text}]"),
    };
    if let Some(png) = output.png {
        if let Ok(bytes) = BASE64.decode(&png.data) {
            let shown = CodeOutput::Image {
                image: None,
                width: Some(png.width),
                height: Some(png.height),
            };
            let description = with_plain(format!("a PNG image {}×{}", png.width, png.height));
            let picture = Picture {
                bytes,
                format: ImageFormat::Png,
            };
            return (Some(shown), description, Some(picture));
        }
        tracing::warn!("a cell's PNG output is not base64");
    }
    if let Some(svg) = output.svg {
        let shown = CodeOutput::Image {
            image: None,
            width: None,
            height: None,
        };
        let picture = Picture {
            bytes: svg.into_bytes(),
            format: ImageFormat::Svg,
        };
        return (Some(shown), with_plain("an SVG image".into()), Some(picture));
    }
    if let Some(html) = output.html {
        let description = if plain.trim().is_empty() {
            format!("[HTML output, {} characters]", html.len())
        } else {
            plain
        };
        let shown = CodeOutput::Html {
            html: ammonia::clean(&html),
        };
        return (Some(shown), description, None);
    }
    let shown = (!plain.is_empty()).then(|| CodeOutput::Text { text: plain.clone() });
    (shown, plain, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tool_api_client::contract::code::{CodeError, PngImage};

    fn result(outputs: Vec<RichOutput>) -> CodeRunResult {
        CodeRunResult {
            execution_count: Some(3),
            stdout: "hello\n".into(),
            stderr: String::new(),
            outputs,
            outputs_dropped: 0,
            error: None,
            timed_out: false,
            kernel_restarted: None,
        }
    }

    #[test]
    fn the_model_reads_text_and_the_person_gets_pictures_and_clean_tables() {
        let request = CodeRunRequest {
            code: "df; plt.plot([1])".into(),
            ..Default::default()
        };
        let chart = RichOutput {
            plain: Some("<Figure size 640x480 with 1 Axes>".into()),
            png: Some(PngImage {
                data: BASE64.encode(b"png bytes"),
                width: 640,
                height: 480,
            }),
            ..Default::default()
        };
        let table = RichOutput {
            plain: Some("   a\n0  1".into()),
            html: Some(
                r#"<table onclick="steal()"><tr><td>1</td></tr></table><script>steal()</script>"#.into(),
            ),
            ..Default::default()
        };
        let outcome = present(&request, result(vec![chart, table]));
        assert_eq!(
            outcome.text,
            "In [3]\nstdout:\nhello\n[a PNG image 640×480: <Figure size 640x480 with 1 Axes>]\n   a\n0  1"
        );
        assert_eq!(
            outcome.images,
            vec![Picture {
                bytes: b"png bytes".to_vec(),
                format: ImageFormat::Png
            }]
        );
        let ToolView::Code(cell) = &outcome.view else {
            panic!("{:?}", outcome.view)
        };
        let CodeOutput::Html { html } = &cell.outputs[1] else {
            panic!("{cell:?}")
        };
        assert!(html.contains("<td>1</td>"), "{html}");
        assert!(!html.contains("script") && !html.contains("onclick"), "{html}");
    }

    #[test]
    fn errors_and_timeouts_reach_the_model_and_count_as_failures() {
        let mut failed = result(Vec::new());
        failed.stdout.clear();
        failed.timed_out = true;
        failed.error = Some(CodeError {
            name: "KeyboardInterrupt".into(),
            value: String::new(),
            traceback: "Cell In [3], line 1".into(),
        });
        let outcome = present(&CodeRunRequest::default(), failed);
        assert!(outcome.text.contains("interrupted"), "{}", outcome.text);
        assert!(
            outcome.text.contains("KeyboardInterrupt: \nCell In [3], line 1"),
            "{}",
            outcome.text
        );
        assert_eq!(outcome.view.code_failed(), Some(true));

        let quiet = CodeRunResult {
            stdout: String::new(),
            ..result(Vec::new())
        };
        let outcome = present(&CodeRunRequest::default(), quiet);
        assert_eq!(outcome.text, "In [3]\n(the cell ran and printed nothing)");
        assert_eq!(outcome.view.code_failed(), Some(false));
    }
}
