//! Benchmark of the sandbox image as the sandbox-manager runs it (hardened container, ports
//! on 127.0.0.1). Prints: the warm image build time (`build.sh` with nothing to rebuild;
//! the cold figure is what `build.sh` prints on an engine without the images), the image
//! size, container start → tool-api answering → VNC banner (the first VNC connection,
//! sent as soon as tool-api answers, starts the desktop) → browser ready → first code
//! cell answered (its kernel starts on that cell) (p50 / max of 10), and navigate + view
//! round trip on a small page served inside the sandbox. Memory and density are
//! `benches/density.rs`'s.
//!
//! Run with `cargo bench -p tool-api --bench sandbox` (needs a Docker engine). Targets:
//! ready-for-tools p50 ≤ 1.5 s, desktop fully ready ≤ 2.5 s, first cell ≤ 2.5 s,
//! navigate + view ≤ 500 ms.

#[path = "../tests/integration/support/sandbox.rs"]
mod sandbox;

use std::time::{Duration, Instant};

use tokio::io::AsyncReadExt;
use tool_api_contract::browser::{NavigateRequest, ViewRequest};
use tool_api_contract::code::CodeRunRequest;
use tool_api_contract::info::Readiness;
use tool_api_contract::shell::ExecRequest;

const TOKEN: &str = "bench-token-0123456789abcdef";
const STARTS: usize = 10;
const PAGE_ROUNDS: usize = 10;

/// The VNC server's banner, through the tool-api's relay as the backend reaches it.
async fn vnc_banner(client: &tool_api_client::ToolApiClient) -> bool {
    let Ok(mut stream) = client.vnc().await else {
        return false;
    };
    let mut banner = [0u8; 12];
    matches!(
        tokio::time::timeout(Duration::from_millis(500), stream.read_exact(&mut banner)).await,
        Ok(Ok(_)) if banner.starts_with(b"RFB ")
    )
}

/// Times from `docker run` to: tool-api answering, VNC banner, browser ready, and the
/// first cell answered (the kernel starts for it).
async fn start_once(image: &str) -> (Duration, Duration, Duration, Duration) {
    let started = Instant::now();
    let sandbox = sandbox::start(image, TOKEN);
    let client = &sandbox.client;
    let (mut api, mut vnc_at, mut browser, mut cell) = (None, None, None, None);
    while browser.is_none() || vnc_at.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "sandbox did not come up"
        );
        if let Ok(health) = client.health().await {
            api.get_or_insert(started.elapsed());
            // Sent as soon as tool-api answers, beside the desktop's start.
            cell.get_or_insert_with(|| {
                let client = client.clone();
                tokio::spawn(async move {
                    let request = CodeRunRequest {
                        code: "print(1)".into(),
                        ..Default::default()
                    };
                    let answered = client.code_run(&request).await.expect("a first cell");
                    assert_eq!(answered.stdout, "1\n");
                    started.elapsed()
                })
            });
            if health.desktop.is_some_and(|d| d.browser) {
                browser.get_or_insert(started.elapsed());
            }
        }
        if vnc_at.is_none() && vnc_banner(client).await {
            vnc_at = Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cell = match cell {
        Some(task) => task.await.expect("the cell's task"),
        None => Duration::ZERO,
    };
    (
        api.unwrap_or_default(),
        vnc_at.unwrap_or_default(),
        browser.unwrap_or_default(),
        cell,
    )
}

fn p50_max(mut values: Vec<Duration>) -> String {
    values.sort();
    format!(
        "p50 {:.2} s, max {:.2} s",
        values[values.len() / 2].as_secs_f64(),
        values[values.len() - 1].as_secs_f64()
    )
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    // The first call builds whatever is missing; the second is the "nothing changed" check
    // every deploy pays.
    sandbox::image();
    let (image, build_time) = sandbox::image();
    let size: f64 = sandbox::docker(&["image", "inspect", "--format", "{{.Size}}", &image])
        .parse()
        .unwrap_or(0.0);
    println!(
        "image {image}: {:.2} GB; build.sh with nothing to do: {:.1} s",
        size / 1e9,
        build_time.as_secs_f64()
    );

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let (mut api, mut vnc, mut browser, mut cell) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..STARTS {
            let (a, v, b, c) = start_once(&image).await;
            api.push(a);
            vnc.push(v);
            browser.push(b);
            cell.push(c);
        }
        println!("docker run → tool-api answering: {}", p50_max(api));
        println!("docker run → VNC banner:         {}", p50_max(vnc));
        println!("docker run → browser ready:      {}", p50_max(browser.clone()));
        println!("docker run → first cell answered: {}", p50_max(cell));

        let sandbox = sandbox::start(&image, TOKEN);
        let client = &sandbox.client;
        while !matches!(client.health().await, Ok(h) if h.status == Readiness::Ready) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        let serve = "mkdir -p site && printf '<title>Bench</title><h1>Hello</h1><a href=#x>link</a><button>Go</button>' \
                     > site/index.html && cd site && exec python3 -m http.server 8000 --bind 127.0.0.1";
        let request = ExecRequest { command: serve.into(), timeout_secs: Some(1.0), ..Default::default() };
        client.exec("web", &request).await.expect("start the page server");
        let navigate = NavigateRequest { url: "http://127.0.0.1:8000/".into(), timeout_secs: None };
        client.navigate(&navigate).await.expect("warm-up navigate");
        let mut rounds = Vec::new();
        for _ in 0..PAGE_ROUNDS {
            let started = Instant::now();
            client.navigate(&navigate).await.expect("navigate");
            let view = client.view_page(&ViewRequest::default()).await.expect("view");
            assert_eq!(view.title, "Bench");
            rounds.push(started.elapsed());
        }
        rounds.sort();
        println!(
            "navigate + view (screenshot, text, elements) on a small local page: p50 {:.0} ms, max {:.0} ms",
            rounds[rounds.len() / 2].as_secs_f64() * 1000.0,
            rounds[rounds.len() - 1].as_secs_f64() * 1000.0
        );
    });
}
