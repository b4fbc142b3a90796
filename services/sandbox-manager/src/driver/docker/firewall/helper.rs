//! The short-lived containers from the sandbox image that do the firewall's work: one
//! runs `nft` in a sandbox's network namespace, one reads the host's addresses.

use bollard::errors::Error as BollardError;
use bollard::models::{ContainerCreateBody, HostConfig};
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, LogsOptionsBuilder, RemoveContainerOptionsBuilder,
};
use bollard::Docker;
use futures::{StreamExt, TryStreamExt};

use crate::driver::docker::engine_error::classify;
use crate::driver::{DriverError, DriverResult};

/// What every helper shares: read-only, no privilege gained, bounded.
pub(super) fn helper_host_config() -> HostConfig {
    HostConfig {
        readonly_rootfs: Some(true),
        security_opt: Some(vec!["no-new-privileges".into()]),
        memory: Some(64 * 1024 * 1024),
        pids_limit: Some(16),
        ..Default::default()
    }
}

/// A firewall helper made and not run yet.
pub(in crate::driver::docker) struct Helper {
    pub(super) name: String,
}

impl Helper {
    /// Runs it to its end, once its sandbox runs. It is removed in the background: only
    /// its end is on the way of the sandbox's start (a leftover is removed with its
    /// sandbox, or when the next helper of that name is made).
    pub(in crate::driver::docker) async fn run(self, docker: &Docker) -> DriverResult<()> {
        let outcome = finish(docker, &self.name, false).await;
        let docker = docker.clone();
        tokio::spawn(async move {
            if let Err(err) = remove(&docker, &self.name).await {
                tracing::warn!(helper = self.name, %err, "removing a firewall helper");
            }
        });
        outcome.map(drop).map_err(not_installed)
    }
}

pub(super) fn not_installed(err: DriverError) -> DriverError {
    DriverError::StartFailed(format!("the sandbox's firewall was not installed: {err}"))
}

/// Runs a helper container to its end and returns its output.
pub(super) async fn run(docker: &Docker, name: &str, config: ContainerCreateBody) -> DriverResult<String> {
    create(docker, name, config).await?;
    let outcome = finish(docker, name, true).await;
    remove(docker, name).await?;
    outcome
}

/// Makes a helper. A leftover of the same name (a run the manager did not see to its
/// end, or the last start's helper, still being removed) is removed, and waited for.
pub(super) async fn create(docker: &Docker, name: &str, config: ContainerCreateBody) -> DriverResult<()> {
    let options = CreateContainerOptionsBuilder::default().name(name).build();
    let mut tries = 0;
    loop {
        match docker
            .create_container(Some(options.clone()), config.clone())
            .await
        {
            Err(BollardError::DockerResponseServerError { status_code: 409, .. }) if tries < NAME_TRIES => {
                tries += 1;
                remove(docker, name).await?;
                tokio::time::sleep(NAME_WAIT).await;
            }
            made => return made.map(drop).map_err(classify),
        }
    }
}

/// How often, and how far apart, a helper's name is tried again while a leftover goes.
const NAME_TRIES: u32 = 50;
const NAME_WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// Starts a helper and waits for its end; its output when `output` is asked for or it
/// failed, which the error then holds.
async fn finish(docker: &Docker, name: &str, output: bool) -> DriverResult<String> {
    docker
        .start_container(name, None::<bollard::query_parameters::StartContainerOptions>)
        .await
        .map_err(classify)?;
    let exit = docker.wait_container(name, None).next().await;
    let failed = !matches!(exit, Some(Ok(_)));
    let output = if output || failed {
        let options = LogsOptionsBuilder::default().stdout(true).stderr(true).build();
        let output: Vec<_> = docker
            .logs(name, Some(options))
            .try_collect()
            .await
            .map_err(classify)?;
        output.iter().map(ToString::to_string).collect()
    } else {
        String::new()
    };
    match exit {
        Some(Ok(_)) => Ok(output),
        Some(Err(BollardError::DockerContainerWaitError { code, .. })) => Err(DriverError::Engine(format!(
            "exit code {code}: {}",
            output.trim()
        ))),
        Some(Err(err)) => Err(classify(err)),
        None => Err(DriverError::Engine("the engine did not say how it ended".into())),
    }
}

/// Removes a helper (or its leftover); succeeds when there is none, or when the engine
/// is removing it already (a helper's own removal runs in the background).
pub(in crate::driver::docker) async fn remove(docker: &Docker, name: &str) -> DriverResult<()> {
    let options = RemoveContainerOptionsBuilder::default().force(true).build();
    match docker.remove_container(name, Some(options)).await {
        Ok(()) | Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => Ok(()),
        Err(BollardError::DockerResponseServerError {
            status_code: 409,
            message,
        }) if message.contains("already in progress") => Ok(()),
        Err(err) => Err(classify(err)),
    }
}
