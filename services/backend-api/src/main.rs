//! Entry point: configuration, tracing, serve until SIGTERM or Ctrl-C.

use backend_api::config::Settings;
use backend_api::Application;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    service_kit::init_tracing();
    let app = Application::build(Settings::load()?).await?;
    tracing::info!(address = %app.address(), "backend-api listening");
    app.run_until_stopped().await
}
