//! The rules an MCP server must meet before it is stored, wherever it comes from (the
//! `MCP_CONFIG` file, an admin): an `http(s)` address with a host, header and variable
//! names a request or a process accepts, a command. Mistakes name the field to fix and
//! never repeat a header or environment value, which may be a key.

use std::collections::BTreeMap;

use super::error::{DomainError, DomainResult};
use super::mcp::McpTransport;

/// Longest address, header value, command or argument accepted.
const MAX_TEXT: usize = 8 * 1024;

impl McpTransport {
    /// A Streamable HTTP server, if the address and headers can make a request.
    pub fn http(url: &str, headers: BTreeMap<String, String>) -> DomainResult<Self> {
        let url = url.trim();
        let host = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .and_then(|rest| rest.split(['/', '?', '#']).next())
            .filter(|host| !host.is_empty() && !host.starts_with(':'));
        if host.is_none() || url.len() > MAX_TEXT || url.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(invalid(
                "url",
                "not an http:// or https:// address with a host".into(),
            ));
        }
        for (name, value) in &headers {
            if name.is_empty() || !name.bytes().all(is_token_byte) {
                return Err(invalid("headers", format!("{name:?} is not a valid header name")));
            }
            // The value is never repeated: it may be a key.
            let fits =
                value.len() <= MAX_TEXT && value.chars().all(|c| c == '\t' || (' '..='~').contains(&c));
            if !fits {
                return Err(invalid(
                    "headers",
                    format!("the value of {name:?} must be printable ASCII of at most {MAX_TEXT} bytes"),
                ));
            }
        }
        Ok(Self::Http {
            url: url.to_owned(),
            headers,
        })
    }

    /// A command speaking MCP on stdin/stdout, if it can be started as given.
    pub fn stdio(command: &str, args: Vec<String>, env: BTreeMap<String, String>) -> DomainResult<Self> {
        let command = command.trim();
        if command.is_empty() || command.len() > MAX_TEXT || command.contains('\0') {
            return Err(invalid("command", "give the program to start".into()));
        }
        if args.iter().any(|arg| arg.len() > MAX_TEXT || arg.contains('\0')) {
            return Err(invalid(
                "args",
                format!("an argument has a NUL character or more than {MAX_TEXT} bytes"),
            ));
        }
        for (name, value) in &env {
            let fits = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !fits {
                return Err(invalid(
                    "env",
                    format!("{name:?} is not a variable name (letters, digits and '_', not starting with a digit)"),
                ));
            }
            if value.len() > MAX_TEXT || value.contains('\0') {
                return Err(invalid(
                    "env",
                    format!("the value of {name:?} has a NUL character or more than {MAX_TEXT} bytes"),
                ));
            }
        }
        Ok(Self::Stdio {
            command: command.to_owned(),
            args,
            env,
        })
    }
}

fn invalid(field: &'static str, message: String) -> DomainError {
    DomainError::InvalidField { field, message }
}

/// A character HTTP allows in a header name (RFC 9110 `tchar`).
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_never_repeated_in_errors() {
        let err =
            McpTransport::http("http://h", [("K".to_owned(), "s3cret\u{7}".to_owned())].into()).unwrap_err();
        assert!(!err.to_string().contains("s3cret"), "{err}");
    }
}
