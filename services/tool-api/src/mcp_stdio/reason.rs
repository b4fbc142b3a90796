//! Why a stdio server ended, said in one line that fits a WebSocket close reason (at most
//! 123 bytes): the exit status and the part of stderr most likely to say why.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use nix::sys::signal::Signal;

/// The most a WebSocket close frame's reason may hold.
pub const MAX_BYTES: usize = 123;
const ELLIPSIS: &str = "…";

/// `exited with status 3`, `was killed by signal 9 (SIGKILL)`.
pub fn status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => match Signal::try_from(signal) {
            Ok(name) => format!("was killed by signal {signal} ({name})"),
            Err(_) => format!("was killed by signal {signal}"),
        },
        (None, None) => "ended".to_owned(),
    }
}

/// `what`, then the telling part of `stderr`: after a Python traceback its exception (the
/// last line naming one, which Python prints after the stack, also inside an exception
/// group's frame; alone, when both do not fit, as it says more than the status), else
/// from its first line that mentions
/// an error (a program's own message comes before its stack trace, and the tail of a
/// Node.js crash is only its version), else its last lines. Whitespace runs become one
/// space.
pub fn with_stderr(what: &str, stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.is_empty() {
        return fit(what);
    }
    let budget = MAX_BYTES.saturating_sub(what.len() + 2);
    let first_error = lines
        .iter()
        .position(|line| line.to_ascii_lowercase().contains("error"));
    let telling = match (python_exception(&lines), first_error) {
        (Some(exception), _) if exception.len() > budget => return fit(exception),
        (Some(exception), _) => exception.to_owned(),
        (None, Some(first)) => head(&lines[first..].join(" "), budget),
        (None, None) => tail(&lines.join(" "), budget),
    };
    fit(&format!("{what}: {telling}"))
}

/// The exception a Python traceback ends with, when `lines` hold one: the stderr tail
/// may have lost the `Traceback` header, but not its frames (`File "…", line …`). An
/// exception group's frames are drawn with `|` and `+`, and end with a rule.
fn python_exception<'a>(lines: &[&'a str]) -> Option<&'a str> {
    let bare: Vec<&str> = lines
        .iter()
        .map(|line| line.trim_start_matches(['|', '+', ' ']))
        .collect();
    let traceback = bare.iter().any(|line| {
        line.starts_with("Traceback (most recent call last)")
            || (line.starts_with("File \"") && line.contains("\", line "))
    });
    if !traceback {
        return None;
    }
    bare.into_iter().rev().find(|line| names_an_exception(line))
}

/// `ValueError: boom`, `module.Error: …`, a bare `KeyboardInterrupt`.
fn names_an_exception(line: &str) -> bool {
    let (name, message) = match line.split_once(':') {
        Some((name, message)) => (name, Some(message)),
        None => (line, None),
    };
    let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    let named = ["Error", "Exception", "Exit", "Interrupt", "Group"]
        .iter()
        .any(|end| name.ends_with(end));
    identifier && (named || message.is_some_and(|m| m.starts_with(' ')))
}

/// `text` cut to [`MAX_BYTES`] at a character boundary, ending in `…` when cut.
pub fn fit(text: &str) -> String {
    head(text, MAX_BYTES)
}

fn head(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max.saturating_sub(ELLIPSIS.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ELLIPSIS}", &text[..end])
}

fn tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut start = text.len() - max.saturating_sub(ELLIPSIS.len());
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("{ELLIPSIS}{}", &text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(code: i32) -> ExitStatus {
        ExitStatus::from_raw(code << 8)
    }

    #[test]
    fn statuses_name_the_code_or_the_signal() {
        assert_eq!(status(exited(3)), "exited with status 3");
        assert_eq!(
            status(ExitStatus::from_raw(9)),
            "was killed by signal 9 (SIGKILL)"
        );
    }

    #[test]
    fn a_node_crash_is_told_by_its_error_line_not_its_version() {
        let stderr = b"node:internal/modules/cjs/loader:1143\n  throw err;\n  ^\n\n\
            Error: Cannot find module '/w/x.js'\n    at Module._resolveFilename (node:internal)\n\
            \nNode.js v18.20.4\n";
        let reason = with_stderr("exited with status 1", stderr);
        assert!(
            reason.starts_with("exited with status 1: Error: Cannot find module '/w/x.js' at Module"),
            "{reason}"
        );
        assert!(reason.len() <= MAX_BYTES, "{} bytes", reason.len());
    }

    #[test]
    fn a_python_crash_is_told_by_its_exception_not_its_stack() {
        let stderr = b"Traceback (most recent call last):\n  File \"/w/calc.py\", line 4, in <module>\n\
            @mcp.tool\n     ^^^^^^^^\n  File \"/x/fastmcp/server.py\", line 402, in decorator\n\
            raise TypeError(\nTypeError: The @tool decorator was used incorrectly. \
            Did you forget to call it? Use @tool() instead of @tool\n";
        let reason = with_stderr("exited with status 1", stderr);
        assert_eq!(
            reason,
            "TypeError: The @tool decorator was used incorrectly. \
             Did you forget to call it? Use @tool() instead of @tool"
        );
        let short = b"Traceback (most recent call last):\n  File \"/w/calc.py\"\nValueError: no\n";
        assert_eq!(
            with_stderr("exited with status 1", short),
            "exited with status 1: ValueError: no"
        );
        // The stderr tail lost the header; an exception group ends with its rule.
        let grouped = b"    |   File \"/x/anyio/_backends/_asyncio.py\", line 767, in __aexit__\n\
            | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n\
            +-+---------------- 1 ----------------\n\
            | Traceback (most recent call last):\n\
            |   File \"/w/calc.py\", line 9, in multiply\n\
            |     raise ValueError(\"boom\")\n\
            | ValueError: boom\n\
            +------------------------------------\n";
        assert_eq!(
            with_stderr("exited with status 1", grouped),
            "exited with status 1: ValueError: boom"
        );
    }

    #[test]
    fn without_an_error_line_the_last_words_count() {
        assert_eq!(
            with_stderr("exited with status 3", b"boom\n"),
            "exited with status 3: boom"
        );
        let long = format!("{}\nthe end\n", "x".repeat(500));
        let reason = with_stderr("exited with status 3", long.as_bytes());
        assert!(reason.starts_with("exited with status 3: …x"), "{reason}");
        assert!(
            reason.ends_with("x the end") && reason.len() <= MAX_BYTES,
            "{reason}"
        );
        assert_eq!(
            with_stderr("exited with status 0", b"\n \n"),
            "exited with status 0"
        );
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let wide = "é".repeat(100);
        let cut = fit(&wide);
        assert!(cut.len() <= MAX_BYTES && cut.ends_with(ELLIPSIS), "{cut}");
        let reason = with_stderr("exited with status 1", format!("{wide}\n").as_bytes());
        assert!(reason.len() <= MAX_BYTES && reason.contains(": …é"), "{reason}");
    }
}
