//! The code interpreter in a real sandbox from the image: a Jupyter kernel that keeps its
//! state, shows charts and tables, and survives endless loops, floods, bad text and its
//! own death. Needs a Docker engine (see `container`).

use crate::support::sandbox;

use std::time::{Duration, Instant};

use base64::Engine;
use tool_api_client::{ClientError, ToolApiClient};
use tool_api_contract::code::{CodeLanguage, CodeRunRequest, CodeRunResult};
use tool_api_contract::files::WriteFileRequest;
use tool_api_contract::shell::ExecRequest;
use tool_api_contract::ErrorCode;

const TOKEN: &str = "code-test-token-0123456789";

async fn run(client: &ToolApiClient, code: &str) -> CodeRunResult {
    run_for(client, code, None).await
}

async fn run_for(client: &ToolApiClient, code: &str, timeout_secs: Option<f64>) -> CodeRunResult {
    let request = CodeRunRequest {
        code: code.into(),
        timeout_secs,
        ..Default::default()
    };
    client.code_run(&request).await.unwrap()
}

/// The decoded picture's size.
fn png_size(data: &str) -> (u32, u32) {
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    (frame.width, frame.height)
}

#[tokio::test]
async fn cells_share_state_and_show_charts_and_tables() {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    sandbox.ready().await;
    let client = &sandbox.client;
    let csv = WriteFileRequest {
        path: "sales.csv".into(),
        content: "month,sales\n1,10\n2,30\n3,20\n".into(),
        append: false,
    };
    client.write_file(&csv).await.unwrap();

    let read = run(
        client,
        "import pandas as pd\nframe = pd.read_csv('sales.csv')\nprint(frame['sales'].sum())",
    )
    .await;
    assert_eq!(read.stdout, "60\n", "{read:?}");
    assert_eq!(read.error, None);
    let first = read.execution_count.unwrap();

    // The frame from the cell before, as the cell's value: a table and its text.
    let table = run(client, "frame.describe()").await;
    assert_eq!(table.execution_count, Some(first + 1));
    let [output] = &table.outputs[..] else {
        panic!("{table:?}")
    };
    assert!(output.html.as_deref().unwrap().contains("<table"), "{output:?}");
    assert!(output.plain.as_deref().unwrap().contains("mean"), "{output:?}");

    // A figure shows without being saved.
    let chart = run(client, "import matplotlib.pyplot as plt\nplt.figure(figsize=(8, 6), dpi=100)\nplt.plot(frame['month'], frame['sales'])\nplt.title('月別 sales');").await;
    let pictures: Vec<_> = chart.outputs.iter().filter_map(|o| o.png.as_ref()).collect();
    let [picture] = &pictures[..] else {
        panic!("{chart:?}")
    };
    assert_eq!(png_size(&picture.data), (picture.width, picture.height));
    assert!(
        picture.width > 500 && picture.height > 400,
        "{}×{}",
        picture.width,
        picture.height
    );
    assert_eq!(chart.stderr, "", "no missing glyphs");

    // A huge picture is scaled down to the limit.
    let huge = run(client, "import io\nfrom PIL import Image as Picture\nfrom IPython.display import Image, display\n\
buffer = io.BytesIO()\nPicture.new('RGB', (4000, 3000), 'white').save(buffer, 'PNG')\ndisplay(Image(data=buffer.getvalue()))").await;
    let picture = huge.outputs[0].png.as_ref().unwrap();
    assert_eq!((picture.width, picture.height), (2048, 1536));
    assert_eq!(png_size(&picture.data), (2048, 1536));

    // The kernel has none of the tool-api's secrets, and its driver's command line is
    // short enough for a `ps` listing the agent reads.
    let secrets = run(
        client,
        "import os\nprint(os.environ.get('SANDBOX_TOKEN'), os.environ.get('SANDBOX_TOKEN_SHA256'))",
    )
    .await;
    assert_eq!(secrets.stdout, "None None\n");
    let listing = client
        .exec(
            "ps",
            &ExecRequest {
                command: "ps -eo args".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(listing.output.contains("ipykernel"), "{}", listing.output);
    assert!(
        !listing.output.contains("bridge to one Jupyter kernel"),
        "{}",
        listing.output
    );

    // A shell cell runs in the same working directory.
    let shell = client
        .code_run(&CodeRunRequest {
            code: "wc -l < sales.csv".into(),
            language: CodeLanguage::Bash,
            timeout_secs: None,
        })
        .await
        .unwrap();
    assert_eq!(shell.stdout.trim(), "4", "{shell:?}");
}

#[tokio::test]
async fn bad_cells_are_answered_and_the_kernel_lives_on() {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    sandbox.ready().await;
    let client = &sandbox.client;
    run(client, "kept = 41").await;

    let syntax = run(client, "x = 1\ndef broken(:\n    pass").await;
    let error = syntax.error.unwrap();
    assert_eq!(error.name, "SyntaxError");
    assert!(error.traceback.contains("line 2"), "{}", error.traceback);
    assert!(
        !error.traceback.contains('\u{1b}'),
        "no colour codes: {:?}",
        error.traceback
    );

    // An endless loop is interrupted at its timeout; the state stays.
    let endless = run_for(client, "while True: pass", Some(1.0)).await;
    assert!(endless.timed_out, "{endless:?}");
    assert_eq!(endless.error.unwrap().name, "KeyboardInterrupt");
    assert_eq!(endless.kernel_restarted, None);
    let after = run(client, "print(kept + 1)").await;
    assert_eq!(after.stdout, "42\n", "{after:?}");

    // A call given up mid-cell (the agent was stopped) interrupts it; the state stays.
    let given_up = tokio::time::timeout(
        Duration::from_millis(500),
        run(client, "import time\ntime.sleep(60)"),
    )
    .await;
    assert!(given_up.is_err(), "the cell should still run");
    let started = Instant::now();
    assert_eq!(run(client, "print(kept + 2)").await.stdout, "43\n");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    // A flood is cut with a marker, keeping its start and its end.
    let flood = run(client, "for i in range(300_000): print(i)").await;
    assert!(flood.stdout.len() < 40_000, "{} bytes", flood.stdout.len());
    assert!(flood.stdout.starts_with("0\n1\n"), "{}", &flood.stdout[..20]);
    assert!(flood.stdout.contains("characters cut"), "no marker");
    assert!(flood.stdout.trim_end().ends_with("299999"));

    // Text that is not valid Unicode does not break the answer.
    let odd = run(
        client,
        "import sys\nsys.stdout.write('a\\udcffb\\n')\nprint(b'\\xff'.decode('utf-8', 'surrogateescape'))",
    )
    .await;
    assert!(odd.stdout.starts_with('a') && odd.stdout.contains('b'), "{odd:?}");

    // A kernel the container's memory limit kills (2 GiB here, 4 with swap; the cell fills
    // 5 GiB, 64 MiB at a time) is reported and replaced; its state is gone, the sandbox
    // lives on.
    let death = run(client, "hog = [b'x' * (64 << 20) for _ in range(80)]").await;
    let reason = death.kernel_restarted.unwrap();
    assert!(
        reason.contains("signal 9") && reason.contains("memory"),
        "{reason}"
    );
    let after = run(client, "print(kept)").await;
    assert_eq!(after.error.unwrap().name, "NameError");
    assert_eq!(run(client, "print(6 * 7)").await.stdout, "42\n");

    // A restart on request starts afresh too.
    run(client, "kept = 1").await;
    // Within the start time-out; how fast is the bench's business (after the memory
    // kill above a loaded machine may still be swapping).
    let restarted = client.code_restart().await.unwrap();
    assert!(restarted.ready_ms <= 30_000, "{restarted:?}");
    assert_eq!(run(client, "print(kept)").await.error.unwrap().name, "NameError");

    // Bad requests are refused before they reach the kernel.
    for (code, timeout) in [("  ", None), ("1", Some(0.0)), ("1", Some(100_000.0))] {
        let err = client
            .code_run(&CodeRunRequest {
                code: code.into(),
                timeout_secs: timeout,
                ..Default::default()
            })
            .await
            .unwrap_err();
        let ClientError::Api { status, body } = err else {
            panic!("{err}")
        };
        assert_eq!((status, body.error.code), (422, ErrorCode::InvalidInput));
    }
}

/// A `python3` of the user's making in `~/.local/bin`, first on the `PATH` the image gives
/// tool-api, is never the kernel's Python: tool-api starts the system's. (Before, it was
/// found first: on this image's `noexec` home the kernel then failed to start at all; on a
/// home that allows it, it would have run as the kernel.)
#[tokio::test]
async fn the_kernel_is_the_systems_python_never_one_in_the_home() {
    let image = sandbox::image().0;
    let environment = sandbox::docker(&["image", "inspect", "-f", "{{json .Config.Env}}", &image]);
    assert!(
        environment.contains("\"PATH=/home/sandbox/.local/bin:"),
        "{environment}"
    );
    let sandbox = sandbox::start(&image, TOKEN);
    sandbox.ready().await;
    let client = &sandbox.client;
    let request = ExecRequest {
        command: "mkdir -p ~/.local/bin && printf '#!/bin/sh\\nexit 1\\n' > ~/.local/bin/python3 && \
                  chmod +x ~/.local/bin/python3"
            .into(),
        ..Default::default()
    };
    let made = client.exec("shim", &request).await.unwrap();
    assert_eq!(made.exit_code, Some(0), "{}", made.output);

    // The kernel starts with the first cell, after the shim was made.
    let cell = client
        .code_run(&CodeRunRequest {
            code: "import sys; print(sys.executable)".into(),
            ..Default::default()
        })
        .await;
    let cell = cell.unwrap_or_else(|err| panic!("the kernel did not start: {err:?}"));
    assert_eq!(cell.error, None, "{cell:?}");
    assert!(cell.stdout.starts_with("/usr/bin/python3"), "{cell:?}");
}
