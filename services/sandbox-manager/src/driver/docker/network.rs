//! The two networks Docker sandboxes join, one with the internet and one without: made
//! when missing (with published addresses; the deployment makes them otherwise), and
//! resolved to the id containers join by.
//!
//! The engine is shared with whatever else runs on it, so the id resolved here can go
//! stale: an operator's `docker network prune` or another manager may remove the network,
//! or make a twin of it. A container the engine refuses for its network ([`is_stale`])
//! makes the driver [`Networks::forget`] the id, and the next [`Networks::id`] resolves
//! (or makes) the network again.

use std::collections::HashMap;

use bollard::errors::Error as BollardError;
use bollard::models::NetworkCreateRequest;
use bollard::query_parameters::ListNetworksOptionsBuilder;
use bollard::Docker;
use sandbox_manager_contract::NetworkMode;
use tokio::sync::Mutex;

use super::engine_error::classify;
use crate::config::{AddressMode, SandboxSettings};
use crate::driver::{DriverError, DriverResult, LABEL_MANAGED, MANAGED_BY};

pub(super) struct Networks {
    internet: String,
    offline: String,
    address_mode: AddressMode,
    /// Held while a network is looked up and made: engines before API 1.44 accept two
    /// networks of one name, and the health monitor and the readiness check both prepare.
    lock: Mutex<()>,
    /// The id of each network by name, as last resolved: containers join by id, which
    /// stays unambiguous even while another manager's twin of the network exists.
    ids: std::sync::Mutex<HashMap<String, String>>,
}

impl Networks {
    pub(super) fn new(settings: &SandboxSettings) -> Self {
        Self {
            internet: settings.internet_network.clone(),
            offline: settings.offline_network.clone(),
            address_mode: settings.address_mode,
            lock: Mutex::new(()),
            ids: std::sync::Mutex::default(),
        }
    }

    fn name(&self, mode: NetworkMode) -> &str {
        match mode {
            NetworkMode::Internet => &self.internet,
            NetworkMode::Offline => &self.offline,
        }
    }

    fn known(&self, name: &str) -> Option<String> {
        let ids = self.ids.lock().unwrap_or_else(|p| p.into_inner());
        ids.get(name).cloned()
    }

    /// The network's id, preparing the network first when that has not happened yet.
    pub(super) async fn id(&self, docker: &Docker, mode: NetworkMode) -> DriverResult<String> {
        let name = self.name(mode);
        if let Some(id) = self.known(name) {
            return Ok(id);
        }
        self.ensure(docker, mode).await?;
        self.known(name)
            .ok_or_else(|| DriverError::Engine(format!("network {name} has no id")))
    }

    /// Makes sure the network exists and resolves its id. Two managers making it at once
    /// on an engine before API 1.44 make twins, and while both exist the engine starts no
    /// container on either ("ambiguous"). Every manager that sees twins keeps the same one
    /// — the one with containers on it (at most one has: none could start while both
    /// existed), else the smallest id — and removes the others. The engine refuses to
    /// remove a network something joined, so no twin in use goes; a manager that resolved
    /// a removed twin a moment ago resolves the network again when its container is
    /// refused.
    pub(super) async fn ensure(&self, docker: &Docker, mode: NetworkMode) -> DriverResult<()> {
        let name = self.name(mode);
        let _made_one_at_a_time = self.lock.lock().await;
        let mut ids = named(docker, name).await?;
        if ids.is_empty() {
            self.create(docker, mode).await?;
            ids = named(docker, name).await?;
        }
        let keep = match ids.as_slice() {
            [] => {
                return Err(DriverError::Engine(format!(
                    "network {name} vanished as it was made"
                )))
            }
            [only] => only.clone(),
            twins => merge(docker, name, twins).await?,
        };
        self.ids
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_owned(), keep);
        Ok(())
    }

    /// Forgets the id resolved for the network of `mode` when it is still `gone`, so that
    /// the next [`Networks::id`] asks the engine again (and makes the network anew).
    pub(super) fn forget(&self, mode: NetworkMode, gone: &str) {
        let mut ids = self.ids.lock().unwrap_or_else(|p| p.into_inner());
        let name = self.name(mode);
        if ids.get(name).map(String::as_str) == Some(gone) {
            ids.remove(name);
        }
    }

    async fn create(&self, docker: &Docker, mode: NetworkMode) -> DriverResult<()> {
        let name = self.name(mode);
        if self.address_mode == AddressMode::Network {
            // Made here, it would have neither backend-api nor this manager on it.
            return Err(DriverError::Engine(format!(
                "network {name} does not exist; with address_mode=network it is made by the \
                 deployment (docker-compose.yml) and backend-api and the manager join it"
            )));
        }
        let mut options = HashMap::from([(
            "com.docker.network.bridge.enable_icc".to_owned(),
            "false".to_owned(),
        )]);
        if mode == NetworkMode::Offline {
            options.insert(
                "com.docker.network.bridge.enable_ip_masquerade".into(),
                "false".into(),
            );
        }
        let request = NetworkCreateRequest {
            name: name.to_owned(),
            driver: Some("bridge".into()),
            options: Some(options),
            labels: Some(HashMap::from([(LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned())])),
            ..Default::default()
        };
        match docker.create_network(request).await {
            Ok(_) => Ok(()),
            // Another manager made it first.
            Err(BollardError::DockerResponseServerError { status_code: 409, .. }) => Ok(()),
            Err(err) => Err(classify(err)),
        }
    }
}

/// Keeps one of `twins` (the one in use, else the smallest id) and removes the others that
/// the engine lets go; returns the one kept.
async fn merge(docker: &Docker, name: &str, twins: &[String]) -> DriverResult<String> {
    let mut in_use = None;
    for id in twins {
        let inspected = docker
            .inspect_network(id, None::<bollard::query_parameters::InspectNetworkOptions>)
            .await;
        let network = match inspected {
            Ok(network) => network,
            // Another manager merging the same twins removed it meanwhile.
            Err(BollardError::DockerResponseServerError { status_code: 404, .. }) => continue,
            Err(err) => return Err(classify(err)),
        };
        if network.containers.is_some_and(|on| !on.is_empty()) {
            in_use = Some(id.clone());
            break;
        }
    }
    let keep = in_use.unwrap_or_else(|| twins[0].clone());
    for twin in twins.iter().filter(|id| **id != keep) {
        // One with something on it stays: the engine refuses.
        if docker.remove_network(twin).await.is_ok() {
            tracing::info!(network = name, twin, kept = keep, "removed a twin of the network");
        }
    }
    Ok(keep)
}

/// Whether the engine refused a container for its network: gone since it was resolved
/// (404), or ambiguous by name because a twin appeared (400).
pub(super) fn is_stale(err: &BollardError) -> bool {
    match err {
        BollardError::DockerResponseServerError { status_code, message } => {
            message.starts_with("network ")
                && ((*status_code == 404 && message.contains("not found"))
                    || (*status_code == 400 && message.contains("ambiguous")))
        }
        _ => false,
    }
}

/// The ids of the networks named exactly `name` (the engine's filter matches parts of
/// names), smallest first.
async fn named(docker: &Docker, name: &str) -> DriverResult<Vec<String>> {
    let options = ListNetworksOptionsBuilder::default()
        .filters(&HashMap::from([("name".to_owned(), vec![name.to_owned()])]))
        .build();
    let networks = docker.list_networks(Some(options)).await.map_err(classify)?;
    let mut ids: Vec<String> = networks
        .into_iter()
        .filter(|n| n.name.as_deref() == Some(name))
        .filter_map(|n| n.id)
        .collect();
    ids.sort();
    Ok(ids)
}
