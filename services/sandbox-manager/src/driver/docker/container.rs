//! What a sandbox's container is made of: its image and user, the tool-api's environment,
//! home and /tmp (tmpfs, or the session's volume), the hardening (no capabilities,
//! no-new-privileges, seccomp, read-only root), the limits, bounded logs and our labels.

use std::collections::HashMap;

use bollard::models::{ContainerCreateBody, HostConfig, HostConfigLogConfig, Mount, MountType, PortBinding};

use super::{DockerDriver, TOOL_API_EXPOSED};
use crate::config::AddressMode;
use crate::driver::{
    network_label, tool_api_env, SandboxSpec, HOME, LABEL_MANAGED, LABEL_NAMESPACE, LABEL_NETWORK,
    LABEL_OWNER, LABEL_SANDBOX, LABEL_SESSION, MANAGED_BY, SANDBOX_UID,
};

impl DockerDriver {
    fn labels(&self, spec: &SandboxSpec) -> HashMap<String, String> {
        let mut labels = HashMap::from([
            (LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned()),
            (LABEL_NAMESPACE.to_owned(), self.namespace.clone()),
            (LABEL_SANDBOX.to_owned(), spec.sandbox_id.clone()),
            (LABEL_NETWORK.to_owned(), network_label(spec.network).to_owned()),
        ]);
        if let Some(session) = &spec.session_id {
            labels.insert(LABEL_SESSION.to_owned(), session.clone());
        }
        if let Some(owner) = &spec.owner {
            labels.insert(LABEL_OWNER.to_owned(), owner.clone());
        }
        labels
    }

    /// `network`: the id of the network it joins.
    pub(super) fn container_config(&self, spec: &SandboxSpec, network: String) -> ContainerCreateBody {
        let s = &self.settings;
        let mut env = vec![format!("SANDBOX_TOKEN_SHA256={}", spec.secrets.token_sha256())];
        env.extend(
            tool_api_env(s, spec)
                .into_iter()
                .map(|(name, value)| format!("{name}={value}")),
        );
        let port_bindings = (s.address_mode == AddressMode::Published).then(|| {
            HashMap::from([(
                TOOL_API_EXPOSED.to_owned(),
                Some(vec![PortBinding {
                    host_ip: Some(s.publish_host.clone()),
                    host_port: Some(String::new()),
                }]),
            )])
        });
        let mut tmpfs = HashMap::from([(
            "/tmp".to_owned(),
            format!("rw,nosuid,nodev,size={}m", s.tmp_size_mb),
        )]);
        let mut mounts = Vec::new();
        match &spec.home_volume {
            Some(key) => mounts.push(Mount {
                target: Some(HOME.into()),
                source: Some(self.volume_name(key)),
                typ: Some(MountType::VOLUME),
                ..Default::default()
            }),
            None => {
                tmpfs.insert(
                    HOME.into(),
                    format!(
                        "rw,nosuid,nodev,exec,size={}m,uid={SANDBOX_UID},gid={SANDBOX_UID},mode=0700",
                        s.home_size_mb
                    ),
                );
            }
        }
        let memory = mebibytes(spec.limits.memory_mb);
        let host_config = HostConfig {
            init: Some(true),
            cap_drop: Some(vec!["ALL".into()]),
            security_opt: Some(
                std::iter::once("no-new-privileges".to_owned())
                    .chain(self.seccomp.clone())
                    .collect(),
            ),
            readonly_rootfs: Some(true),
            tmpfs: Some(tmpfs),
            mounts: Some(mounts),
            memory: Some(memory),
            memory_swap: Some(memory),
            memory_reservation: Some(mebibytes(s.memory_reservation_mb.min(spec.limits.memory_mb))),
            nano_cpus: Some((spec.limits.cpus * 1e9) as i64),
            pids_limit: Some(i64::from(spec.limits.pids)),
            port_bindings,
            network_mode: Some(network),
            log_config: Some(HostConfigLogConfig {
                typ: Some("json-file".into()),
                config: Some(HashMap::from([
                    ("max-size".into(), "10m".into()),
                    ("max-file".into(), "2".into()),
                ])),
            }),
            ..Default::default()
        };
        ContainerCreateBody {
            image: Some(s.image.clone()),
            user: Some(format!("{SANDBOX_UID}:{SANDBOX_UID}")),
            env: Some(env),
            labels: Some(self.labels(spec)),
            exposed_ports: Some(vec![TOOL_API_EXPOSED.into()]),
            host_config: Some(host_config),
            ..Default::default()
        }
    }
}

fn mebibytes(mb: u64) -> i64 {
    i64::try_from(mb.saturating_mul(1 << 20)).unwrap_or(i64::MAX)
}
