//! Entry point: configuration, tracing, the secrets out of the environment, then serve
//! until SIGTERM or Ctrl-C.

use tool_api::config::Settings;
use tool_api::Application;

fn main() -> anyhow::Result<()> {
    service_kit::init_tracing();
    let settings = Settings::load()?;
    // Before the runtime's threads start: changing the environment is only safe alone.
    tool_api::child_env::forget_secrets();
    tokio::runtime::Runtime::new()?.block_on(async {
        let app = Application::build(settings).await?;
        tracing::info!(address = %app.address(), "tool-api listening");
        app.run_until_stopped().await
    })
}
