//! The sandbox image as the sandbox-manager runs it: a real container with every hardening
//! flag, reached only through ports published on 127.0.0.1: the desktop and browser, a
//! Node.js MCP server over stdio, and the Python data stack. Needs a Docker engine (CI
//! starts one) and builds the image first when it is missing (`sandbox-image/build.sh`).

use crate::support;

use std::process::Command;
use std::time::{Duration, Instant};

use support::mcp;
use support::sandbox::{self, docker};
use support::vnc::handshake;
use tool_api_contract::browser::{ClickRequest, NavigateRequest, SelectRequest, TypeRequest, ViewRequest};
use tool_api_contract::info::{DesktopState, ProcessState};
use tool_api_contract::shell::ExecRequest;

const TOKEN: &str = "container-test-token-0123456789";

#[tokio::test]
async fn the_sandbox_image_serves_a_hardened_desktop_and_browser() {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    sandbox.ready().await;

    // Hardening as docker reports it.
    let inspect: serde_json::Value = serde_json::from_str(&docker(&["inspect", &sandbox.id])).unwrap();
    let host = &inspect[0]["HostConfig"];
    assert_eq!(host["CapDrop"], serde_json::json!(["ALL"]));
    assert_eq!(host["ReadonlyRootfs"], true);
    assert!(host["SecurityOpt"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o == "no-new-privileges"));
    assert_eq!(inspect[0]["Config"]["User"], "1000");
    for binding in host["PortBindings"].as_object().unwrap().values() {
        assert_eq!(
            binding[0]["HostIp"], "127.0.0.1",
            "published beyond loopback: {binding}"
        );
    }

    // The token guards everything but /health.
    let anonymous = reqwest::get(format!("{}/v1/info", sandbox.client.base_url()))
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let info = sandbox.client.info().await.unwrap();
    assert_eq!((info.user.as_str(), info.uid), ("sandbox", 1000));
    assert!(info.memory.limit_bytes <= 2 << 30, "{:?}", info.memory);

    // Ready for tools with the desktop stopped; the first VNC connection starts it.
    let health = sandbox.client.health().await.unwrap();
    assert_eq!(health.desktop.unwrap().state, DesktopState::Stopped, "{health:?}");
    // What the container uses, for the manager's memory budget: a light sandbox's few
    // MiB, well under its limit.
    let used = health.memory_used_bytes.expect("the container's memory use");
    assert!((1 << 20..info.memory.limit_bytes).contains(&used), "{used}");
    // VNC only through the tool-api's relay: x11vnc listens on the sandbox's loopback.
    let mut vnc = sandbox.client.vnc().await.unwrap();
    assert_eq!(handshake(&mut vnc).await, (1280, 800));
    let listening = sandbox
        .client
        .exec(
            "listening",
            &ExecRequest {
                command: "cat /proc/net/tcp".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .output;
    // Local address 127.0.0.1:5900 (0100007F:170C), listening (state 0A); nothing on
    // another address.
    assert!(
        listening.contains("0100007F:170C 00000000:0000 0A"),
        "{listening}"
    );
    assert!(!listening.contains("00000000:170C"), "{listening}");

    // A page served inside the sandbox, driven like a person would.
    let page = r#"<title>Signup</title><input id=email placeholder=Email>
<select id=plan><option value=free>Free</option><option value=pro>Pro</option></select>
<button onclick="document.getElementById('out').textContent = document.getElementById('email').value + '/' + document.getElementById('plan').value">Join</button>
<p id=out></p>"#;
    let serve = format!("mkdir -p site && cat > site/index.html <<'EOF'\n{page}\nEOF\ncd site && exec python3 -m http.server 8000 --bind 127.0.0.1");
    sandbox
        .client
        .exec(
            "web",
            &ExecRequest {
                command: serve,
                timeout_secs: Some(1.0),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    // Until it listens: a loaded machine can take seconds to start Python.
    let listening =
        "for _ in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/8000) 2>/dev/null && break; sleep 0.1; done";
    let waited = sandbox
        .client
        .exec(
            "wait",
            &ExecRequest {
                command: listening.into(),
                timeout_secs: Some(40.0),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(waited.exit_code, Some(0), "{waited:?}");
    let loaded = sandbox
        .client
        .navigate(&NavigateRequest {
            url: "http://127.0.0.1:8000/".into(),
            timeout_secs: None,
        })
        .await
        .unwrap();
    assert_eq!(loaded.title, "Signup");
    let view = sandbox.client.view_page(&ViewRequest::default()).await.unwrap();
    let index_of = |text: &str| {
        view.elements
            .iter()
            .find(|e| e.text.contains(text))
            .unwrap()
            .index
    };
    let typed = TypeRequest {
        index: index_of("Email"),
        text: "ada@example.org".into(),
        ..Default::default()
    };
    sandbox.client.type_text(&typed).await.unwrap();
    let plan = SelectRequest {
        index: index_of("Free"),
        option: "Pro".into(),
    };
    sandbox.client.select_option(&plan).await.unwrap();
    let join = ClickRequest {
        index: Some(index_of("Join")),
        ..Default::default()
    };
    sandbox.client.click(&join).await.unwrap();
    let out = sandbox
        .client
        .evaluate("document.getElementById('out').textContent")
        .await
        .unwrap();
    assert_eq!(out.result, "ada@example.org/pro");

    // The sandbox's shells see no secret of the tool-api: not in their environment, not in
    // the tool-api's (non-dumpable, so /proc keeps it from them), and of the token only its
    // digest is in the container's (PID 1's) environment.
    let probe = sandbox
        .client
        .exec(
            "secrets",
            &ExecRequest {
                command: "env; echo ---; cat /proc/$(pgrep -x tool-api)/environ || echo denied; \
                          tr '\\0' '\\n' < /proc/1/environ"
                    .into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let (shell_env, proc_env) = probe
        .output
        .split_once("---")
        .unwrap_or_else(|| panic!("{probe:?}"));
    assert!(shell_env.contains("PATH="), "{shell_env}");
    assert!(!shell_env.contains("SANDBOX_TOKEN"), "{shell_env}");
    assert!(proc_env.contains("denied"), "{proc_env}");
    assert!(!probe.output.contains(TOKEN), "{}", probe.output);
    assert!(probe.output.contains("SANDBOX_TOKEN_SHA256="), "{}", probe.output);

    // Chromium's managed policy (where Debian's Chromium reads it, owned by root) keeps it
    // from saving the passwords, addresses and cards of a person who signs in.
    let policy = sandbox
        .client
        .exec(
            "policy",
            &ExecRequest {
                command: "cd /etc/chromium/policies/managed && stat -c '%U %a' sandpiper.json && \
                          python3 -c 'import json; print(sorted(json.load(open(\"sandpiper.json\")).items()))'"
                    .into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        policy.output,
        "root 644\n[('AutofillAddressEnabled', False), ('AutofillCreditCardEnabled', False), \
         ('PasswordManagerEnabled', False)]\n"
    );

    // Chromium's own sandbox is on (the seccomp profile allows it): no --no-sandbox flag.
    // pgrep reads /proc once and lists the processes named chromium only, so neither
    // itself nor the shell around it can be counted, whenever they start.
    let browsers = sandbox
        .client
        .exec(
            "pgrep",
            &ExecRequest {
                command: "pgrep -a chromium".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let browsers: Vec<&str> = browsers.output.lines().collect();
    assert!(!browsers.is_empty(), "Chromium runs");
    assert!(
        browsers.iter().all(|args| !args.contains("--no-sandbox")),
        "{browsers:#?}"
    );

    // A killed Chromium comes back, and /v1/info says so.
    sandbox
        .client
        .exec(
            "kill",
            &ExecRequest {
                command: "pkill -KILL -o chromium".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let desktop = sandbox.client.info().await.unwrap().desktop.unwrap();
        let browser = desktop.processes.iter().find(|p| p.name == "browser").unwrap();
        if browser.restarts >= 1 && browser.state == ProcessState::Running && desktop.readiness.browser {
            break;
        }
        assert!(Instant::now() < deadline, "browser not restarted: {desktop:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let again = sandbox
        .client
        .navigate(&NavigateRequest {
            url: "http://127.0.0.1:8000/".into(),
            timeout_secs: None,
        })
        .await
        .unwrap();
    assert_eq!(again.title, "Signup");
}

#[tokio::test]
async fn the_sandbox_image_runs_node_mcp_servers_over_stdio() {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    // The published reference server with its dependencies, as a person would copy a
    // server into an offline sandbox.
    let packed = Command::new("tar")
        .args(["-czf", "-", "-C"])
        .arg(mcp::servers_dir())
        .arg("node_modules")
        .output()
        .unwrap();
    assert!(packed.status.success(), "tar failed");
    sandbox.ready().await;

    let run = |command: &str| ExecRequest {
        command: command.into(),
        ..Default::default()
    };
    let versions = sandbox
        .client
        .exec("node", &run("node --version && npx --version"))
        .await
        .unwrap();
    assert_eq!(versions.exit_code, Some(0), "{versions:?}");
    assert!(versions.output.starts_with('v'), "{versions:?}");
    sandbox
        .client
        .upload("mcp.tar.gz", false, packed.stdout)
        .await
        .unwrap();
    let unpacked = sandbox
        .client
        .exec("node", &run("mkdir mcp && tar -xzf mcp.tar.gz -C mcp"))
        .await
        .unwrap();
    assert_eq!(unpacked.exit_code, Some(0), "{unpacked:?}");

    let script = format!("mcp/node_modules/{}", mcp::EVERYTHING);
    let relay = sandbox.client.mcp_stdio(&mcp::everything(&script)).await.unwrap();
    mcp::exercise_everything(&mut mcp::Session::new(relay)).await;

    // The sandbox's secrets are not in a server's environment.
    let script = r#"echo "{\"token\":\"${SANDBOX_TOKEN:-}${SANDBOX_TOKEN_SHA256:-}\"}"; exec cat"#;
    let (_sink, mut stream) = sandbox
        .client
        .mcp_stdio(&mcp::shell(script))
        .await
        .unwrap()
        .split();
    let seen = mcp::next_message(&mut stream).await.unwrap();
    assert_eq!(seen, serde_json::json!({"token": ""}));
}

/// The data-science runtime the code interpreter needs, from the image alone (no package
/// index is asked): the libraries import, pandas reads a CSV and writes a spreadsheet,
/// and Matplotlib draws a chart with a CJK title without a display or missing glyphs, on
/// the font list the image seeded the home with.
#[tokio::test]
async fn the_sandbox_image_has_the_data_stack() {
    let sandbox = sandbox::start(&sandbox::image().0, TOKEN);
    sandbox.ready().await;
    // Matplotlib's font list came with the home (the image's home seed) and is the one
    // this Matplotlib wants: the chart below neither rebuilds nor rewrites it.
    let font_list = ExecRequest {
        command: "stat -c '%n %y %s' ~/.cache/matplotlib/fontlist-v*.json".into(),
        ..Default::default()
    };
    let seeded = sandbox.client.exec("fonts", &font_list).await.unwrap();
    assert_eq!(
        seeded.exit_code,
        Some(0),
        "no font list in a fresh home: {seeded:?}"
    );
    let script = r#"
import numpy, pandas, matplotlib, scipy, sklearn, seaborn, openpyxl, PIL, requests, bs4
import ipykernel, jupyter_client
import io, warnings
warnings.simplefilter("always")
frame = pandas.read_csv(io.StringIO("month,sales\n1,10\n2,30\n3,20\n"))
frame.to_excel("sales.xlsx", index=False)
assert pandas.read_excel("sales.xlsx")["sales"].sum() == 60
import matplotlib.pyplot as plt
figure, axes = plt.subplots(figsize=(8, 6), dpi=100)
axes.plot(frame["month"], frame["sales"])
axes.set_title("月別の売上 Sales by month")
figure.savefig("chart.png")
print("backend", matplotlib.get_backend(), "size", PIL.Image.open("chart.png").size)
"#;
    let request = ExecRequest {
        command: format!("python3 - <<'PY'\n{script}\nPY"),
        timeout_secs: Some(120.0),
        ..Default::default()
    };
    let ran = sandbox.client.exec("data", &request).await.unwrap();
    assert_eq!(ran.exit_code, Some(0), "{}", ran.output);
    assert!(ran.output.contains("size (800, 600)"), "{}", ran.output);
    assert!(
        ran.output.to_lowercase().contains("backend agg"),
        "{}",
        ran.output
    );
    assert!(
        !ran.output.contains("missing from"),
        "a glyph had no font: {}",
        ran.output
    );
    assert!(!ran.output.contains("font cache"), "{}", ran.output);
    let after = sandbox.client.exec("fonts", &font_list).await.unwrap();
    assert_eq!(after.output, seeded.output, "the font list was rebuilt");
}
