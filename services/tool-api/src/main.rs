//! Entry point: configuration, tracing, serve until SIGTERM or Ctrl-C.

use tool_api::config::Settings;
use tool_api::Application;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    service_kit::init_tracing();
    let settings = Settings::load()?;
    let app = Application::build(settings).await?;
    tracing::info!(address = %app.address(), "tool-api listening");
    app.run_until_stopped().await
}
