//! Entry point: configuration, tracing, serve until SIGTERM or Ctrl-C. `backend-api
//! openapi` prints the OpenAPI document instead (the front end's types and the API
//! clients are generated from it).
//!
//! The blocking pool (where the embedded store's disk work runs) is capped: a burst of
//! thousands of requests then queues for a few threads instead of starting hundreds,
//! each with its own stack and allocator arena.

use backend_api::config::Settings;
use backend_api::Application;

const BLOCKING_THREADS: usize = 16;

fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        println!("{}", backend_api::interfaces::http::openapi().to_pretty_json()?);
        return Ok(());
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()?
        .block_on(async {
            service_kit::init_tracing();
            let app = Application::build(Settings::load()?).await?;
            tracing::info!(address = %app.address(), "backend-api listening");
            app.run_until_stopped().await
        })
}
