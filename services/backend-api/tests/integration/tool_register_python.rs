//! An MCP server the agent writes in Python with the official SDK's FastMCP
//! (`tool_register`), with the scripted model over the real wire and a real sandbox: the
//! SDK is copied into the sandbox from the repository's `tests/mcp-servers` (installed by
//! `./test.sh` for the sandbox image's Python, which has no pip and may not reach a
//! package registry) and the server runs with `PYTHONPATH` naming it. A server that fails
//! as it starts is refused with its traceback's last line, which the model reads; the
//! fixed one registers under the same name, its tool is offered with the schema FastMCP
//! made from its signature in the same turn's next request, and its call's result
//! reaches the model.
//!
//! Needs the Docker engine, the sandbox image and the sandbox-manager binary, like
//! `tool_register`.

use crate::support;
use crate::tool_register::{called, tool_results, with_sandbox, write};

use serde_json::{json, Value};
use support::fake_llm::{tool_names, FakeLlm, Reply};
use support::mcp_servers::{packed_python_sdk, upload, PYTHON_SDK_IN_SANDBOX, UNPACK_PYTHON_SDK};

/// The server the agent writes: one tool, its schema from the type hints.
const CALC: &str = r#"from mcp.server.fastmcp import FastMCP

mcp = FastMCP("pycalc")


@mcp.tool()
def multiply(a: int, b: int) -> str:
    """Multiplies two whole numbers."""
    return f"product={a * b}"


mcp.run()
"#;

/// The same server with FastMCP's most common mistake (`@mcp.tool` without the call),
/// which ends it with a Python traceback before it serves.
const BROKEN: &str = r#"from mcp.server.fastmcp import FastMCP

mcp = FastMCP("pycalc")


@mcp.tool
def multiply(a: int, b: int) -> str:
    """Multiplies two whole numbers."""
    return f"product={a * b}"


mcp.run()
"#;

/// The last line of [`BROKEN`]'s traceback, whole: what the model needs to fix it.
const BROKEN_LAST_LINE: &str = "TypeError: The @tool decorator was used incorrectly. \
     Did you forget to call it? Use @tool() instead of @tool";

/// The tool as it is offered.
const MULTIPLY: &str = "mcp__pycalc__multiply";

/// `tool_register`'s arguments: `python3` with the SDK on its path, through `env` as the
/// agent would write it.
fn register() -> Value {
    json!({
        "name": "pycalc",
        "command": "env",
        "args": [format!("PYTHONPATH={PYTHON_SDK_IN_SANDBOX}"), "python3", "tools/calc.py"],
        "test": { "tool": "multiply", "arguments": { "a": 2, "b": 3 } },
    })
}

/// The function `name` as `request` offered it.
fn offered<'a>(request: &'a Value, name: &str) -> Option<&'a Value> {
    request["tools"]
        .as_array()?
        .iter()
        .map(|tool| &tool["function"])
        .find(|function| function["name"] == name)
}

#[tokio::test]
async fn a_fastmcp_server_the_agent_writes_is_refused_with_its_traceback_then_fixed_and_called() {
    let llm = FakeLlm::start(vec![
        Reply::tool("shell_exec", json!({ "command": UNPACK_PYTHON_SDK })),
        write("tools/calc.py", BROKEN),
        Reply::tool("tool_register", register()),
        write("tools/calc.py", CALC),
        Reply::tool("tool_register", register()),
        Reply::tool(MULTIPLY, json!({ "a": 6, "b": 7 })),
        Reply::Text("It multiplies."),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let (_manager, app, token, session) = with_sandbox(&llm, Vec::new()).await;
    let sdk = packed_python_sdk(dir.path());
    upload(&app, &token, &session, "python-sdk.tar.gz", sdk).await;

    let events = app.turn(&token, &session, "Make yourself a Python tool").await;
    assert_eq!(events.last().unwrap()["status"], "completed", "{events:#?}");
    let requests = llm.requests();
    let told = tool_results(&requests[1]);
    assert!(told[0].contains("unpacked"), "the SDK is in place: {}", told[0]);

    let registered = called(&events, "tool_register");
    assert_eq!(registered.len(), 2, "{events:#?}");
    let refused = &registered[0]["view"];
    assert_eq!(refused["tools"], json!([]), "{refused}");
    let error = refused["error"].as_str().unwrap_or_default();
    assert!(error.contains(BROKEN_LAST_LINE), "the person sees why: {refused}");
    let told = tool_results(&requests[3]);
    assert!(
        told[2].contains("was not registered") && told[2].contains(BROKEN_LAST_LINE),
        "the model reads the traceback's last line: {}",
        told[2]
    );

    let kept = &registered[1]["view"];
    assert_eq!(kept["error"], Value::Null, "{kept}");
    assert_eq!(kept["tools"][0]["name"], MULTIPLY, "{kept}");
    assert!(kept["test"].as_str().unwrap().contains("product=6"), "{kept}");
    for (n, request) in requests.iter().enumerate().take(5) {
        assert!(
            offered(request, MULTIPLY).is_none(),
            "request {n} offers it early"
        );
    }
    let multiply = offered(&requests[5], MULTIPLY).unwrap_or_else(|| {
        panic!(
            "the next request of the same turn offers it: {:?}",
            tool_names(&requests[5])
        )
    });
    assert_eq!(multiply["description"], "Multiplies two whole numbers.");
    let schema = &multiply["parameters"];
    assert_eq!(schema["properties"]["a"]["type"], "integer", "{schema}");
    assert_eq!(schema["properties"]["b"]["type"], "integer", "{schema}");
    assert_eq!(schema["required"], json!(["a", "b"]), "{schema}");
    let told = tool_results(&requests[5]);
    assert!(told[4].starts_with("Registered"), "{}", told[4]);

    let told = tool_results(&requests[6]);
    assert!(
        told[5].contains("product=42"),
        "the call's result reaches the model: {}",
        told[5]
    );
}
