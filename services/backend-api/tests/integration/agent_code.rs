//! The code interpreter through the whole stack: a scripted model calls `code_run` on a
//! CSV the person attached, in a real sandbox (real sandbox-manager, Docker, the sandbox image's Jupyter kernel); the
//! person gets the chart as a stored PNG and the table as sanitised HTML, the model gets
//! text, failed cells in a row end the turn at the budget, and the cells download as a
//! notebook that nbformat (in the sandbox image) validates.

use crate::support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use support::fake_llm::{FakeLlm, Reply};
use support::manager::{sandbox, Manager};
use support::{borrowed, TestApp};

const WAIT: Duration = Duration::from_secs(120);

const ANALYSIS: &str = "import pandas as pd\nimport matplotlib.pyplot as plt\n\
frame = pd.read_csv('uploads/sales.csv')\nprint('total', frame['sales'].sum())\n\
frame.plot(x='month', y='sales')\nframe.head()";

/// `nbformat.validate` on the document, with the image's nbformat; the cell count.
fn validated_cells(notebook: &str) -> String {
    let mut child = Command::new("docker")
        .args([
            "run",
            "--rm",
            "-i",
            "--network",
            "none",
            "--entrypoint",
            "python3",
        ])
        .arg(sandbox::image().0)
        .args([
            "-c",
            "import nbformat, sys\nnb = nbformat.reads(sys.stdin.read(), as_version=4)\n\
             nbformat.validate(nb)\nprint(len(nb.cells), [len(c.outputs) for c in nb.cells])",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(notebook.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "nbformat refused it: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[tokio::test]
async fn the_agent_charts_a_csv_and_stops_after_failed_cells_in_a_row() {
    let llm = FakeLlm::start(vec![
        Reply::tool("code_run", json!({ "code": ANALYSIS })),
        Reply::tool("code_run", json!({ "code": "frame['missing']" })),
        Reply::tool("code_restart", json!({})),
        Reply::tool("code_run", json!({ "code": "frame" })),
        Reply::Text("never asked for: the budget ends the turn first"),
    ])
    .await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    settings.push(("agent.failed_cells", "2".into()));
    let app = TestApp::spawn(&borrowed(&settings)).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let id = app.new_session(&token).await;
    let attached = app
        .http
        .post(format!(
            "{}/api/v1/sessions/{id}/attachments?name=sales.csv",
            app.base
        ))
        .bearer_auth(&token)
        .body("month,sales\n1,10\n2,30\n3,20\n")
        .send()
        .await
        .unwrap();
    assert_eq!(attached.status(), StatusCode::CREATED);
    let path = attached.json::<Value>().await.unwrap()["path"].clone();
    let mut stream = app.events(&token, &id, None).await;
    let message = json!({ "content": "Chart my sales", "attachments": [path] });
    let messages = format!("/api/v1/sessions/{id}/messages");
    app.expect(
        StatusCode::CREATED,
        Method::POST,
        &messages,
        Some(&token),
        Some(message),
    )
    .await;
    let events = stream
        .until(WAIT, |e| e["type"] == "status" && e["status"] != "running")
        .await;
    assert_eq!(events.last().unwrap()["status"], "failed", "{events:#?}");
    let error = events.iter().find(|e| e["type"] == "error").unwrap();
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("failed 2 times in a row"),
        "{error}"
    );

    let cells: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == "code_run")
        .collect();
    assert_eq!(cells.len(), 3, "{cells:#?}");
    let view = &cells[0]["view"];
    assert_eq!(view["kind"], "code");
    assert_eq!(view["stdout"], "total 60\n");
    let outputs = view["outputs"].as_array().unwrap();
    let chart = outputs.iter().find(|o| o["type"] == "image").expect("a chart");
    let table = outputs.iter().find(|o| o["type"] == "html").expect("a table");
    assert!(table["html"].as_str().unwrap().contains("<table"), "{table}");
    assert!(!table["html"].as_str().unwrap().contains("<style"), "{table}");
    assert_eq!(cells[1]["view"]["error"]["name"], "KeyError");
    // After a restart the kernel has forgotten the frame.
    assert_eq!(cells[2]["view"]["error"]["name"], "NameError");
    let restart = events
        .iter()
        .find(|e| e["type"] == "tool" && e["status"] == "called" && e["name"] == "code_restart")
        .expect("the restart's result");
    assert_eq!(restart["view"]["kind"], "kernel_restart", "{restart}");
    assert!(restart["view"]["ready_ms"].as_u64().is_some(), "{restart}");

    // The chart is stored once and served as the PNG it is.
    let url = chart["image"]["url"].as_str().expect("a stored chart");
    let image = app.call(Method::GET, url, Some(&token), None).await;
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(image.headers()["content-type"], "image/png");
    let bytes = image.bytes().await.unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert!(cells[0].to_string().len() < 8192, "the event refers to the image");

    // The model read text: the total, the picture described, the table as text.
    let text = llm.last_message_text(1);
    let text = text.as_str();
    assert!(text.contains("total 60"), "{text}");
    assert!(text.contains("a PNG image"), "{text}");
    assert!(text.contains("month  sales"), "{text}");
    assert!(!text.contains("iVBOR"), "the model got the image's bytes: {text}");
    let fix = llm.last_message_text(2);
    assert!(fix.contains("KeyError"), "{fix}");

    // The cells download as a notebook that validates, chart included.
    let notebook_path = format!("/api/v1/sessions/{id}/notebook");
    let response = app.call(Method::GET, &notebook_path, Some(&token), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .ends_with(".ipynb\""));
    let notebook = response.text().await.unwrap();
    let parsed: Value = serde_json::from_str(&notebook).unwrap();
    let first = &parsed["cells"][0];
    assert!(first["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["data"]["image/png"]
            .as_str()
            .is_some_and(|png| png.len() > 1000)));
    assert_eq!(validated_cells(&notebook), "3 [3, 1, 1]");

    // Another person's session is not theirs to download.
    let (bob, _, _) = app.register("bob@example.org").await;
    let stranger = app.call(Method::GET, &notebook_path, Some(&bob), None).await;
    assert_eq!(stranger.status(), StatusCode::NOT_FOUND);
}
