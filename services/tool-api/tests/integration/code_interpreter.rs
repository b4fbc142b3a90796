//! E2B's code-interpreter protocol (`/e2b/code/*`) in a real sandbox from the image, read
//! as the `e2b-code-interpreter` SDK reads it: NDJSON outputs ending in
//! `end_of_execution`, results shaped from display bundles, contexts that are kernels of
//! their own, variables for one cell, a client that hangs up interrupting its cell, and a
//! kernel that dies mid-cell replaced.
//! Needs a Docker engine (see `container`).

mod figures;
mod formats;
mod hang_up;

use crate::support::sandbox::{self, Sandbox};

use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tool_api_client::ToolApiClient;

const TOKEN: &str = "e2b-code-test-token-0123456789";

async fn started() -> Sandbox {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    sandbox.ready().await;
    sandbox
}

/// The outputs of a cell (keep-alives left out), checked to end with `end_of_execution`.
async fn execute(client: &ToolApiClient, body: Value) -> Vec<Value> {
    let response = client
        .request(Method::POST, "/e2b/code/execute")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    let mut outputs: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("{err}: {line}")))
        .filter(|output: &Value| output["type"] != "keepalive")
        .collect();
    assert_eq!(
        outputs.pop(),
        Some(json!({ "type": "end_of_execution" })),
        "{text}"
    );
    outputs
}

async fn run(client: &ToolApiClient, code: &str) -> Vec<Value> {
    execute(client, json!({ "code": code })).await
}

/// The outputs of `kind`.
fn of<'a>(outputs: &'a [Value], kind: &str) -> Vec<&'a Value> {
    outputs.iter().filter(|output| output["type"] == kind).collect()
}

/// The text of the cell's main result.
fn main_text(outputs: &[Value]) -> Option<String> {
    of(outputs, "result")
        .into_iter()
        .find(|result| result["is_main_result"] == true)
        .and_then(|result| result["text"].as_str().map(str::to_owned))
}

/// A refused request's status and error message.
async fn refused(request: reqwest::RequestBuilder) -> (StatusCode, String) {
    let response = request.send().await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    (status, body["error"]["message"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn cells_stream_text_results_pictures_and_errors() {
    let sandbox = started().await;
    let client = &sandbox.client;

    // Text in the order it was written, each stream tagged, the count and a main result.
    let outputs = run(
        client,
        "import os, sys\nprint('out')\nprint('err', file=sys.stderr)\nos.getcwd()",
    )
    .await;
    let kinds: Vec<&str> = outputs.iter().map(|o| o["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["number_of_executions", "stdout", "stderr", "result"],
        "{outputs:?}"
    );
    assert_eq!(outputs[1]["text"], "out\n");
    assert_eq!(outputs[2]["text"], "err\n");
    assert!(outputs[1]["timestamp"].as_u64().unwrap() > 0);
    // A string shows without its quotes; the default context runs in the home.
    assert_eq!(main_text(&outputs).as_deref(), Some("/home/sandbox"));
    let count = outputs[0]["execution_count"].as_u64().unwrap();
    let next = run(client, "40 + 2").await;
    assert_eq!(of(&next, "number_of_executions")[0]["execution_count"], count + 1);
    assert_eq!(main_text(&next).as_deref(), Some("42"));

    // A table: HTML beside its text.
    let table = run(
        client,
        "import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': [3, 4]})",
    )
    .await;
    let [result] = &of(&table, "result")[..] else {
        panic!("{table:?}")
    };
    assert!(result["html"].as_str().unwrap().contains("<table"), "{result}");
    assert!(result["text"].as_str().unwrap().contains('a'), "{result}");

    // A figure: a displayed PNG (not the cell's value) that decodes.
    let figure = run(
        client,
        "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [3, 1, 2])\nplt.title('sales')\nplt.show()",
    )
    .await;
    let [picture] = &of(&figure, "result")[..] else {
        panic!("{figure:?}")
    };
    assert_eq!(picture["is_main_result"], false);
    let png = base64::engine::general_purpose::STANDARD
        .decode(picture["png"].as_str().unwrap())
        .unwrap();
    let info = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    assert!(info.info().width > 300, "{}", info.info().width);
    assert!(
        picture["text"].as_str().unwrap().starts_with("<Figure"),
        "{picture}"
    );

    // Other MIME types land in their fields, unknown ones in `extra`.
    let rich = run(
        client,
        "from IPython.display import display\n\
         display({'text/markdown': '**m**', 'application/json': {'k': 1}, 'text/x-custom': 'c'}, raw=True)",
    )
    .await;
    let [shown] = &of(&rich, "result")[..] else {
        panic!("{rich:?}")
    };
    assert_eq!(shown["markdown"], "**m**");
    assert_eq!(shown["json"], json!({ "k": 1 }));
    assert_eq!(shown["extra"], json!({ "text/x-custom": "c" }));

    // An exception: one error output with its traceback, and the kernel lives on.
    let failed = run(client, "kept = 1\n1 / 0").await;
    let [error] = &of(&failed, "error")[..] else {
        panic!("{failed:?}")
    };
    assert_eq!(error["name"], "ZeroDivisionError");
    assert_eq!(error["value"], "division by zero");
    assert!(error["traceback"].as_str().unwrap().contains("1 / 0"), "{error}");
    assert_eq!(main_text(&run(client, "kept").await).as_deref(), Some("1"));

    // The default context by its language; other languages and both ways at once are refused.
    let python = execute(client, json!({ "code": "kept + 1", "language": "python" })).await;
    assert_eq!(main_text(&python).as_deref(), Some("2"));
    let execute_route = || client.request(Method::POST, "/e2b/code/execute");
    let (status, message) = refused(execute_route().json(&json!({ "code": "1", "language": "r" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        message.contains("\"r\"") && message.contains("python"),
        "{message}"
    );
    let both = json!({ "code": "1", "language": "python", "context_id": "x" });
    assert_eq!(
        refused(execute_route().json(&both)).await.0,
        StatusCode::BAD_REQUEST
    );
    let unknown = json!({ "code": "1", "context_id": "nope" });
    assert_eq!(
        refused(execute_route().json(&unknown)).await.0,
        StatusCode::NOT_FOUND
    );

    let health = client
        .request(Method::GET, "/e2b/code/health")
        .send()
        .await
        .unwrap();
    assert_eq!(health.json::<Value>().await.unwrap(), "OK");
}

#[tokio::test]
async fn contexts_are_kernels_of_their_own() {
    let sandbox = started().await;
    let client = &sandbox.client;
    let contexts = || client.request(Method::POST, "/e2b/code/contexts");
    let list = || async {
        let response = client
            .request(Method::GET, "/e2b/code/contexts")
            .send()
            .await
            .unwrap();
        response.json::<Vec<Value>>().await.unwrap()
    };

    // The default context is listed first; a new one runs where it was asked to.
    let made: Value = contexts()
        .json(&json!({ "cwd": "workspace" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(made["language"], "python");
    assert_eq!(made["cwd"], "/home/sandbox/workspace");
    let listed = list().await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0]["cwd"], "/home/sandbox");
    assert_eq!(listed[1], made);
    let id = made["id"].as_str().unwrap();
    let in_context = |code: &str| execute(client, json!({ "code": code, "context_id": id }));

    // State stays within its context.
    in_context("x = 'mine'").await;
    run(client, "x = 'default'").await;
    assert_eq!(main_text(&in_context("x").await).as_deref(), Some("mine"));
    assert_eq!(main_text(&run(client, "x").await).as_deref(), Some("default"));
    assert_eq!(
        main_text(&in_context("import os; os.getcwd()").await).as_deref(),
        Some("/home/sandbox/workspace")
    );

    // A restart clears the context's state, not the default one's.
    let restart = client.request(Method::POST, &format!("/e2b/code/contexts/{id}/restart"));
    assert_eq!(restart.send().await.unwrap().status(), StatusCode::NO_CONTENT);
    let gone = in_context("x").await;
    assert_eq!(
        of(&gone, "error")[0]["value"],
        "name 'x' is not defined",
        "{gone:?}"
    );
    assert_eq!(main_text(&run(client, "x").await).as_deref(), Some("default"));

    // Bad requests are refused with a reason.
    let (status, message) = refused(contexts().json(&json!({ "language": "javascript" }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");
    let (status, message) = refused(contexts().json(&json!({ "cwd": "/no/such/dir" }))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
    assert!(
        message.contains("/no/such/dir") && message.contains("does not exist"),
        "{message}"
    );
    // A directory the sandbox user may not enter is the caller's choice, not a broken kernel.
    let (status, message) = refused(contexts().json(&json!({ "cwd": "/root" }))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{message}");
    assert!(
        message.starts_with("cannot use /root as the working directory: permission denied"),
        "{message}"
    );
    let default_id = listed[0]["id"].as_str().unwrap();
    let remove = |id: &str| client.request(Method::DELETE, &format!("/e2b/code/contexts/{id}"));
    assert_eq!(
        refused(remove(default_id)).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(refused(remove("nope")).await.0, StatusCode::NOT_FOUND);

    // Removed, it is gone from the list and runs nothing more.
    assert_eq!(remove(id).send().await.unwrap().status(), StatusCode::NO_CONTENT);
    assert_eq!(list().await.len(), 1);
    let after = json!({ "code": "1", "context_id": id });
    let execute_route = client.request(Method::POST, "/e2b/code/execute");
    assert_eq!(refused(execute_route.json(&after)).await.0, StatusCode::NOT_FOUND);

    // The number of contexts is bounded.
    for _ in 0..tool_api::interpreter::MAX_CONTEXTS {
        let response = contexts().json(&json!({})).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let (status, message) = refused(contexts().json(&json!({}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{message}");
}

#[tokio::test]
async fn variables_apply_to_one_cell_over_the_sandbox_ones() {
    let sandbox = started().await;
    let client = &sandbox.client;
    let init = client
        .request(Method::POST, "/e2b/envd/init")
        .json(&json!({ "envVars": { "SANDBOX_WIDE": "sandbox", "SHARED": "sandbox" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), StatusCode::NO_CONTENT);
    let read = "import os; (os.getenv('SANDBOX_WIDE'), os.getenv('SHARED'), os.getenv('OWN', '-'))";

    let own = json!({ "code": read, "env_vars": { "SHARED": "cell", "OWN": "cell" } });
    assert_eq!(
        main_text(&execute(client, own).await).as_deref(),
        Some("('sandbox', 'cell', 'cell')")
    );
    // Afterwards the sandbox's value is back and the cell's own variable gone.
    assert_eq!(
        main_text(&run(client, read).await).as_deref(),
        Some("('sandbox', 'sandbox', '-')")
    );
    // Programs the cell starts see them too.
    let child = json!({ "code": "import subprocess\nprint(subprocess.run('echo $OWN', shell=True, capture_output=True, text=True).stdout)", "env_vars": { "OWN": "child" } });
    let printed: String = of(&execute(client, child).await, "stdout")
        .iter()
        .map(|output| output["text"].as_str().unwrap())
        .collect();
    assert_eq!(printed, "child\n\n");
    // A variable the OS cannot set is refused.
    let bad = json!({ "code": "1", "env_vars": { "A=B": "x" } });
    let (status, message) = refused(client.request(Method::POST, "/e2b/code/execute").json(&bad)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
}
