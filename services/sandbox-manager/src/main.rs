//! Entry point: configuration, tracing, serve until SIGTERM or Ctrl-C.

use sandbox_manager::config::Settings;
use sandbox_manager::Application;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    service_kit::init_tracing();
    let app = Application::build(Settings::load()?).await?;
    tracing::info!(address = %app.address(), "sandbox-manager listening");
    app.run_until_stopped().await
}
