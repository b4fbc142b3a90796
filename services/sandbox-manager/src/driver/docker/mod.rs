//! The Docker implementation of [`SandboxDriver`], through bollard.
//!
//! Each sandbox is one container named `sandpiper-<namespace>-<sandbox id>`, hardened as
//! `sandbox-image/README.md` describes (non-root, `--init`, no capabilities,
//! no-new-privileges, the Chromium seccomp profile, read-only root with tmpfs or a session
//! volume for home and /tmp, memory / CPU / pids limits, bounded logs). Its port is
//! published on the loopback address only, or not at all when the sandbox is reached by
//! name on a network shared with backend-api or at its address on its bridge
//! (`AddressMode`, [`endpoints`]). Labels name it as ours: the manager namespace,
//! the sandbox id, its network mode and, when it was created for a session, the session and owner. Docker
//! cannot change labels later, so a warm-pool container carries only its sandbox id; the
//! manager's records say whose it became. Every sandbox gets a firewall in its own network
//! namespace once it runs ([`firewall`]), before the manager reports it ready.

mod container;
mod endpoints;
mod engine_error;
mod firewall;
mod network;

use std::collections::HashMap;

use bollard::errors::Error as BollardError;
use bollard::models::VolumeCreateRequest;
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, EventsOptionsBuilder, ListContainersOptionsBuilder,
    ListVolumesOptionsBuilder, LogsOptionsBuilder, RemoveContainerOptionsBuilder, RemoveVolumeOptionsBuilder,
};
use bollard::Docker;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use sandbox_manager_contract::NetworkMode;
use tokio::sync::OnceCell;

use self::engine_error::classify;
use self::firewall::{Firewall, Helper};
use self::network::Networks;
use super::{
    network_label, DriverError, DriverResult, EngineEvent, ObservedSandbox, SandboxDriver, SandboxSpec,
    LABEL_HOME, LABEL_MANAGED, LABEL_NAMESPACE, LABEL_NETWORK, LABEL_SANDBOX, LABEL_SESSION, MANAGED_BY,
};
use crate::access::Endpoints;
use crate::config::SandboxSettings;

const TOOL_API_EXPOSED: &str = "8080/tcp";

/// Docker's default seccomp profile plus what Chromium's own sandbox needs (see
/// `sandbox-image/README.md`).
const BUILT_IN_SECCOMP: &str = include_str!("../../../../../sandbox-image/seccomp-chromium.json");

pub struct DockerDriver {
    /// Connected (and the API version agreed) on first use, so the manager starts and keeps
    /// serving while the engine is down.
    docker: OnceCell<Docker>,
    settings: SandboxSettings,
    namespace: String,
    /// `seccomp=<profile JSON>`, or `None` when Chromium's sandbox is off.
    seccomp: Option<String>,
    networks: Networks,
    firewall: Firewall,
}

impl DockerDriver {
    pub fn new(settings: SandboxSettings, namespace: String) -> anyhow::Result<Self> {
        let seccomp = if settings.browser_sandbox {
            let profile = match &settings.seccomp_profile {
                Some(path) => std::fs::read_to_string(path)
                    .map_err(|err| anyhow::anyhow!("reading seccomp profile {}: {err}", path.display()))?,
                None => BUILT_IN_SECCOMP.to_owned(),
            };
            // Compact, and checked to be JSON before any container depends on it.
            let profile: serde_json::Value = serde_json::from_str(&profile)
                .map_err(|err| anyhow::anyhow!("the seccomp profile is not JSON: {err}"))?;
            Some(format!("seccomp={profile}"))
        } else {
            None
        };
        Ok(Self {
            docker: OnceCell::new(),
            firewall: Firewall::new(settings.image.clone(), namespace.clone()),
            networks: Networks::new(&settings),
            settings,
            namespace,
            seccomp,
        })
    }

    async fn docker(&self) -> DriverResult<&Docker> {
        self.docker
            .get_or_try_init(|| async {
                let docker = Docker::connect_with_local_defaults().map_err(classify)?;
                docker.negotiate_version().await.map_err(classify)
            })
            .await
    }

    fn container_name(&self, sandbox_id: &str) -> String {
        super::sandbox_name(&self.namespace, sandbox_id)
    }

    fn volume_name(&self, key: &str) -> String {
        format!("sandpiper-{}-home-{key}", self.namespace)
    }

    fn namespace_filter(&self) -> HashMap<String, Vec<String>> {
        HashMap::from([(
            "label".to_owned(),
            vec![format!("{LABEL_NAMESPACE}={}", self.namespace)],
        )])
    }

    async fn create_and_start(&self, docker: &Docker, spec: &SandboxSpec) -> DriverResult<Endpoints> {
        let name = self.container_name(&spec.sandbox_id);
        if let Some(key) = &spec.home_volume {
            let mut labels = HashMap::from([
                (LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned()),
                (LABEL_NAMESPACE.to_owned(), self.namespace.clone()),
                (LABEL_HOME.to_owned(), key.clone()),
            ]);
            // Keyed by its session, it is also labelled as managers before keys did.
            if spec.session_id.as_ref() == Some(key) {
                labels.insert(LABEL_SESSION.to_owned(), key.clone());
            }
            let volume = VolumeCreateRequest {
                name: Some(self.volume_name(key)),
                labels: Some(labels),
                ..Default::default()
            };
            docker.create_volume(volume).await.map_err(classify)?;
        }
        // The network resolved earlier may have been removed since (an operator's `docker
        // network prune`, another manager) or got a twin: then it is resolved once more.
        let network = self.networks.id(docker, spec.network).await?;
        let helper = match self.start_container(docker, spec, &name, network.clone()).await {
            Ok(helper) => helper,
            Err(err) if network::is_stale(&err) => {
                tracing::warn!(network, %err, "the sandboxes' network changed; resolving it again");
                self.networks.forget(spec.network, &network);
                self.discard_container(docker, &name).await?;
                let network = self.networks.id(docker, spec.network).await?;
                self.start_container(docker, spec, &name, network)
                    .await
                    .map_err(|err| self.start_error(err))?
            }
            Err(err) => return Err(self.start_error(err)),
        };
        helper?.run(docker).await?;
        self.endpoints(docker, &name).await
    }

    /// Creates the container on `network` and starts it, making its firewall's helper
    /// meanwhile.
    async fn start_container(
        &self,
        docker: &Docker,
        spec: &SandboxSpec,
        name: &str,
        network: String,
    ) -> Result<DriverResult<Helper>, BollardError> {
        let options = CreateContainerOptionsBuilder::default().name(name).build();
        docker
            .create_container(Some(options), self.container_config(spec, network))
            .await?;
        let (started, helper) = tokio::join!(
            docker.start_container(name, None::<bollard::query_parameters::StartContainerOptions>),
            self.firewall.prepare(docker, name, spec.network)
        );
        started.map(|()| helper)
    }

    /// A failed create or start as the manager reports it.
    fn start_error(&self, err: BollardError) -> DriverError {
        match classify(err) {
            DriverError::Engine(message) => DriverError::StartFailed(message),
            DriverError::ImageMissing(_) => DriverError::ImageMissing(self.settings.image.clone()),
            other => other,
        }
    }

    /// Removes a container that was made but could not start, if it was made at all.
    async fn discard_container(&self, docker: &Docker, name: &str) -> DriverResult<()> {
        let options = RemoveContainerOptionsBuilder::default().force(true).build();
        match docker.remove_container(name, Some(options)).await {
            Ok(()) | Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => Ok(()),
            Err(err) => Err(classify(err)),
        }
    }
}

#[async_trait::async_trait]
impl SandboxDriver for DockerDriver {
    async fn prepare(&self) -> DriverResult<()> {
        let docker = self.docker().await?;
        docker.ping().await.map_err(classify)?;
        self.networks.ensure(docker, NetworkMode::Internet).await?;
        self.networks.ensure(docker, NetworkMode::Offline).await
    }

    fn image(&self) -> &str {
        &self.settings.image
    }

    async fn create(&self, spec: &SandboxSpec) -> DriverResult<Endpoints> {
        self.create_and_start(self.docker().await?, spec).await
    }

    async fn restart(&self, sandbox_id: &str) -> DriverResult<Endpoints> {
        let docker = self.docker().await?;
        let name = self.container_name(sandbox_id);
        // A start makes a new network namespace, without the rules of the last one. The
        // mode is read back from the container's label; without one (a container from
        // before the label), the offline rules.
        let inspect = docker
            .inspect_container(&name, None::<bollard::query_parameters::InspectContainerOptions>)
            .await
            .map_err(classify)?;
        let label = inspect
            .config
            .and_then(|config| config.labels?.remove(LABEL_NETWORK));
        let mode = if label.as_deref() == Some(network_label(NetworkMode::Internet)) {
            NetworkMode::Internet
        } else {
            NetworkMode::Offline
        };
        let (started, helper) = tokio::join!(
            docker.start_container(&name, None::<bollard::query_parameters::StartContainerOptions>),
            self.firewall.prepare(docker, &name, mode)
        );
        started.map_err(classify)?;
        helper?.run(docker).await?;
        self.endpoints(docker, &name).await
    }

    async fn remove(&self, sandbox_id: &str, session_volume: Option<&str>) -> DriverResult<()> {
        let docker = self.docker().await?;
        let options = RemoveContainerOptionsBuilder::default()
            .force(true)
            .v(true)
            .build();
        let name = self.container_name(sandbox_id);
        // A firewall helper is left only when the manager stopped while it ran.
        firewall::remove(docker, &Firewall::helper_name(&name)).await?;
        match docker.remove_container(&name, Some(options)).await {
            Ok(()) | Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => {}
            // Already being removed by the engine.
            Err(BollardError::DockerResponseServerError {
                status_code: 409,
                message,
            }) if message.contains("already in progress") => {}
            Err(err) => return Err(classify(err)),
        }
        match session_volume {
            Some(session) => self.remove_volume(session).await,
            None => Ok(()),
        }
    }

    async fn list(&self) -> DriverResult<Vec<ObservedSandbox>> {
        let docker = self.docker().await?;
        let options = ListContainersOptionsBuilder::default()
            .all(true)
            .filters(&self.namespace_filter())
            .build();
        let containers = docker.list_containers(Some(options)).await.map_err(classify)?;
        Ok(containers
            .into_iter()
            .filter_map(|c| {
                let sandbox_id = c.labels?.remove(LABEL_SANDBOX)?;
                use bollard::models::ContainerSummaryStateEnum as State;
                let stopped = matches!(c.state, Some(State::EXITED | State::CREATED | State::DEAD));
                Some(ObservedSandbox { sandbox_id, stopped })
            })
            .collect())
    }

    async fn list_volumes(&self) -> DriverResult<Vec<String>> {
        let docker = self.docker().await?;
        let options = ListVolumesOptionsBuilder::default()
            .filters(&self.namespace_filter())
            .build();
        let volumes = docker.list_volumes(Some(options)).await.map_err(classify)?;
        Ok(volumes
            .volumes
            .unwrap_or_default()
            .into_iter()
            .filter_map(|mut v| {
                v.labels
                    .remove(LABEL_HOME)
                    .or_else(|| v.labels.remove(LABEL_SESSION))
            })
            .collect())
    }

    async fn remove_volume(&self, key: &str) -> DriverResult<()> {
        let docker = self.docker().await?;
        let options = RemoveVolumeOptionsBuilder::default().force(true).build();
        match docker.remove_volume(&self.volume_name(key), Some(options)).await {
            Ok(()) | Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => Ok(()),
            Err(err) => Err(classify(err)),
        }
    }

    async fn logs(&self, sandbox_id: &str, tail: u32) -> DriverResult<String> {
        let docker = self.docker().await?;
        let options = LogsOptionsBuilder::default()
            .stdout(true)
            .stderr(true)
            .tail(&tail.to_string())
            .build();
        let chunks: Vec<_> = docker
            .logs(&self.container_name(sandbox_id), Some(options))
            .try_collect()
            .await
            .map_err(classify)?;
        Ok(chunks.iter().map(ToString::to_string).collect())
    }

    fn events(&self) -> BoxStream<'static, DriverResult<EngineEvent>> {
        let mut filters = self.namespace_filter();
        filters.insert("type".into(), vec!["container".into()]);
        filters.insert("event".into(), vec!["die".into(), "oom".into()]);
        let docker = self.docker.get().cloned();
        let Some(docker) = docker else {
            return futures::stream::once(async {
                Err(DriverError::EngineUnavailable("not connected yet".into()))
            })
            .boxed();
        };
        let options = EventsOptionsBuilder::default().filters(&filters).build();
        docker
            .events(Some(options))
            .filter_map(|message| async move {
                let message = match message {
                    Ok(message) => message,
                    Err(err) => return Some(Err(classify(err))),
                };
                let attributes = message.actor?.attributes?;
                let sandbox_id = attributes.get(LABEL_SANDBOX)?.clone();
                match message.action.as_deref()? {
                    "die" => Some(Ok(EngineEvent::Died {
                        sandbox_id,
                        exit_code: attributes.get("exitCode").and_then(|c| c.parse().ok()),
                    })),
                    "oom" => Some(Ok(EngineEvent::OutOfMemory { sandbox_id })),
                    _ => None,
                }
            })
            .boxed()
    }
}
