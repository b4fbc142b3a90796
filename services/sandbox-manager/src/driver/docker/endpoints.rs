//! Where a running sandbox's tool-api is reached, by the manager's [`AddressMode`]: its
//! published port on the advertised host, its container name on a shared network, or its
//! own address on the bridge it joined.

use bollard::models::ContainerInspectResponse;
use bollard::Docker;

use super::engine_error::classify;
use super::{DockerDriver, TOOL_API_EXPOSED};
use crate::access::Endpoints;
use crate::config::AddressMode;
use crate::driver::{DriverError, DriverResult, TOOL_API_PORT};

impl DockerDriver {
    /// Read again after every start: a started container may have a new port or address.
    pub(super) async fn endpoints(&self, docker: &Docker, name: &str) -> DriverResult<Endpoints> {
        let inspect = || async {
            docker
                .inspect_container(name, None::<bollard::query_parameters::InspectContainerOptions>)
                .await
                .map_err(classify)
        };
        Ok(match self.settings.address_mode {
            // Docker's DNS on a user-defined network answers to the container's name.
            AddressMode::Network => Endpoints {
                host: name.to_owned(),
                tool_api_port: TOOL_API_PORT,
            },
            AddressMode::Bridge => Endpoints {
                host: bridge_address(inspect().await?).ok_or_else(|| {
                    DriverError::StartFailed(format!("{name} has no address on its network"))
                })?,
                tool_api_port: TOOL_API_PORT,
            },
            AddressMode::Published => Endpoints {
                host: self.settings.advertise_host.clone(),
                tool_api_port: published_port(inspect().await?).ok_or_else(|| {
                    DriverError::StartFailed(format!("{TOOL_API_EXPOSED} was not published"))
                })?,
            },
        })
    }
}

/// The host port the tool-api's port is published on.
fn published_port(inspect: ContainerInspectResponse) -> Option<u16> {
    let ports = inspect.network_settings?.ports?;
    let binding = ports.get(TOOL_API_EXPOSED)?.as_ref()?.first()?;
    binding.host_port.as_deref()?.parse().ok()
}

/// The container's IPv4 address on the one network it joined.
fn bridge_address(inspect: ContainerInspectResponse) -> Option<String> {
    let networks = inspect.network_settings?.networks?;
    networks
        .into_values()
        .filter_map(|network| network.ip_address)
        .find(|address| !address.is_empty())
}
