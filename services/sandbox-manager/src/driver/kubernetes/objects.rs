//! The Kubernetes objects one sandbox is made of: a Pod hardened like the Docker driver's
//! container, a Secret with its credentials (kept out of the Pod spec, which more people
//! may read) that also keeps the Pod as it was first made, and
//! for sessions with a volume a PersistentVolumeClaim for its home.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    Capabilities, Container, ContainerPort, EmptyDirVolumeSource, EnvFromSource, EnvVar,
    PersistentVolumeClaim, PersistentVolumeClaimSpec, PersistentVolumeClaimVolumeSource, Pod,
    PodSecurityContext, PodSpec, ResourceRequirements, SeccompProfile, Secret, SecretEnvSource,
    SecurityContext, Volume, VolumeMount, VolumeResourceRequirements,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::super::{
    network_label, sandbox_name, tool_api_env, SandboxSpec, HOME, LABEL_HOME, LABEL_MANAGED, LABEL_NAMESPACE,
    LABEL_NETWORK, LABEL_OWNER, LABEL_SANDBOX, LABEL_SESSION, MANAGED_BY, SANDBOX_UID, TOOL_API_PORT,
};
use crate::config::{KubernetesSettings, SandboxSettings};

/// The Secret's annotation that keeps the Pod as first made: a restart makes it again
/// from this, whatever became of the old Pod (evicted, deleted, changed).
const ANNOTATION_POD: &str = "org.sandpiper.pod";
/// The sandbox's one container.
pub const CONTAINER: &str = "sandbox";
/// The CPU a sandbox is guaranteed, in millicores, when its limit is higher: sandboxes
/// idle most of the time, so reserving their whole limit would waste the nodes.
const CPU_REQUEST_MILLIS: i64 = 250;

/// Builds the objects of this manager's sandboxes.
pub struct Objects {
    pub sandbox: SandboxSettings,
    pub kubernetes: KubernetesSettings,
    pub namespace: String,
}

impl Objects {
    /// The name of a sandbox's Pod and of its Secret.
    pub fn name(&self, sandbox_id: &str) -> String {
        sandbox_name(&self.namespace, sandbox_id)
    }

    /// The claim of a home volume's key. Keys (session ids) may hold upper case and `_`,
    /// which object names may not, so the name carries a digest; the key itself is an
    /// annotation.
    pub fn claim_name(&self, key: &str) -> String {
        let short = &service_kit::sha256_hex(key)[..20];
        format!("sandpiper-{}-home-{short}", self.namespace)
    }

    /// `org.sandpiper.manager=<namespace>`: everything of this manager.
    pub fn selector(&self) -> String {
        format!("{LABEL_NAMESPACE}={}", self.namespace)
    }

    fn metadata(&self, name: String, spec: &SandboxSpec) -> ObjectMeta {
        let labels = BTreeMap::from([
            (LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned()),
            (LABEL_NAMESPACE.to_owned(), self.namespace.clone()),
            (LABEL_SANDBOX.to_owned(), spec.sandbox_id.clone()),
            (LABEL_NETWORK.to_owned(), network_label(spec.network).to_owned()),
        ]);
        let annotations: BTreeMap<String, String> = [
            (LABEL_SESSION, spec.session_id.as_ref()),
            (LABEL_OWNER, spec.owner.as_ref()),
        ]
        .into_iter()
        .filter_map(|(key, value)| Some((key.to_owned(), value?.clone())))
        .collect();
        ObjectMeta {
            name: Some(name),
            labels: Some(labels),
            annotations: (!annotations.is_empty()).then_some(annotations),
            ..Default::default()
        }
    }

    /// The Secret the Pod's environment comes from, keeping `pod` for restarts.
    pub fn secret(&self, spec: &SandboxSpec, pod: &Pod) -> serde_json::Result<Secret> {
        let mut metadata = self.metadata(self.name(&spec.sandbox_id), spec);
        metadata
            .annotations
            .get_or_insert_with(BTreeMap::new)
            .insert(ANNOTATION_POD.to_owned(), serde_json::to_string(pod)?);
        let data = BTreeMap::from([("SANDBOX_TOKEN_SHA256".to_owned(), spec.secrets.token_sha256())]);
        Ok(Secret {
            metadata,
            type_: Some("Opaque".into()),
            string_data: Some(data),
            ..Default::default()
        })
    }

    /// The Pod a Secret keeps, if it keeps one.
    pub fn kept_pod(secret: &Secret) -> Option<Pod> {
        let kept = secret.metadata.annotations.as_ref()?.get(ANNOTATION_POD)?;
        serde_json::from_str(kept).ok()
    }

    pub fn claim(&self, key: &str) -> PersistentVolumeClaim {
        PersistentVolumeClaim {
            metadata: ObjectMeta {
                name: Some(self.claim_name(key)),
                labels: Some(BTreeMap::from([
                    (LABEL_MANAGED.to_owned(), MANAGED_BY.to_owned()),
                    (LABEL_NAMESPACE.to_owned(), self.namespace.clone()),
                ])),
                annotations: Some(BTreeMap::from([(LABEL_HOME.to_owned(), key.to_owned())])),
                ..Default::default()
            },
            spec: Some(PersistentVolumeClaimSpec {
                access_modes: Some(vec!["ReadWriteOnce".into()]),
                storage_class_name: self.kubernetes.storage_class.clone(),
                resources: Some(VolumeResourceRequirements {
                    requests: Some(BTreeMap::from([(
                        "storage".to_owned(),
                        mebibytes(self.sandbox.home_size_mb),
                    )])),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    pub fn pod(&self, spec: &SandboxSpec) -> Pod {
        let name = self.name(&spec.sandbox_id);
        let s = &self.sandbox;
        let env = tool_api_env(s, spec)
            .into_iter()
            .map(|(name, value)| EnvVar {
                name: name.into(),
                value: Some(value),
                ..Default::default()
            })
            .collect::<Vec<_>>();
        let env = (!env.is_empty()).then_some(env);
        let memory = mebibytes(spec.limits.memory_mb);
        let cpu_millis = (spec.limits.cpus * 1000.0).round() as i64;
        let resources = ResourceRequirements {
            limits: Some(BTreeMap::from([
                ("memory".to_owned(), memory),
                ("cpu".to_owned(), Quantity(format!("{cpu_millis}m"))),
            ])),
            requests: Some(BTreeMap::from([
                (
                    "memory".to_owned(),
                    mebibytes(s.memory_reservation_mb.min(spec.limits.memory_mb)),
                ),
                (
                    "cpu".to_owned(),
                    Quantity(format!("{}m", cpu_millis.min(CPU_REQUEST_MILLIS))),
                ),
            ])),
            ..Default::default()
        };
        let memory_dir = |size_mb: u64| EmptyDirVolumeSource {
            medium: Some("Memory".into()),
            size_limit: Some(mebibytes(size_mb)),
        };
        let home = match &spec.home_volume {
            Some(key) => Volume {
                name: "home".into(),
                persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                    claim_name: self.claim_name(key),
                    read_only: None,
                }),
                ..Default::default()
            },
            None => Volume {
                name: "home".into(),
                empty_dir: Some(memory_dir(s.home_size_mb)),
                ..Default::default()
            },
        };
        let tmp = Volume {
            name: "tmp".into(),
            empty_dir: Some(memory_dir(s.tmp_size_mb)),
            ..Default::default()
        };
        let port = |name: &str, port: u16| ContainerPort {
            name: Some(name.into()),
            container_port: i32::from(port),
            protocol: Some("TCP".into()),
            ..Default::default()
        };
        let mount = |name: &str, path: &str| VolumeMount {
            name: name.into(),
            mount_path: path.into(),
            ..Default::default()
        };
        let seccomp = match &self.kubernetes.seccomp_profile {
            Some(profile) => SeccompProfile {
                type_: "Localhost".into(),
                localhost_profile: Some(profile.clone()),
            },
            None => SeccompProfile {
                type_: "RuntimeDefault".into(),
                localhost_profile: None,
            },
        };
        let container = Container {
            name: CONTAINER.into(),
            image: Some(s.image.clone()),
            image_pull_policy: self.kubernetes.image_pull_policy.clone(),
            env,
            env_from: Some(vec![EnvFromSource {
                secret_ref: Some(SecretEnvSource {
                    name: name.clone(),
                    optional: Some(false),
                }),
                ..Default::default()
            }]),
            ports: Some(vec![port("tool-api", TOOL_API_PORT)]),
            resources: Some(resources),
            security_context: Some(SecurityContext {
                allow_privilege_escalation: Some(false),
                capabilities: Some(Capabilities {
                    drop: Some(vec!["ALL".into()]),
                    add: None,
                }),
                read_only_root_filesystem: Some(true),
                run_as_non_root: Some(true),
                ..Default::default()
            }),
            volume_mounts: Some(vec![mount("tmp", "/tmp"), mount("home", HOME)]),
            ..Default::default()
        };
        Pod {
            metadata: self.metadata(name, spec),
            spec: Some(PodSpec {
                containers: vec![container],
                // The manager restarts (re-creates) sandboxes itself and counts the restarts.
                restart_policy: Some("Never".into()),
                // The pause container becomes PID 1 and reaps orphans, as `--init` does
                // for the Docker driver (the image has no init of its own).
                share_process_namespace: Some(true),
                automount_service_account_token: Some(false),
                // No `<SERVICE>_HOST` variables: a sandbox learns nothing about the cluster.
                enable_service_links: Some(false),
                runtime_class_name: self.kubernetes.runtime_class.clone(),
                termination_grace_period_seconds: Some(5),
                security_context: Some(PodSecurityContext {
                    run_as_user: Some(SANDBOX_UID),
                    run_as_group: Some(SANDBOX_UID),
                    fs_group: Some(SANDBOX_UID),
                    // A session's claim is chowned once, not on every start.
                    fs_group_change_policy: Some("OnRootMismatch".into()),
                    run_as_non_root: Some(true),
                    seccomp_profile: Some(seccomp),
                    ..Default::default()
                }),
                volumes: Some(vec![tmp, home]),
                ..Default::default()
            }),
            status: None,
        }
    }
}

fn mebibytes(mb: u64) -> Quantity {
    Quantity(format!("{mb}Mi"))
}
