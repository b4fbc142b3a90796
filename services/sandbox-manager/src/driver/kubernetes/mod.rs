//! The Kubernetes implementation of [`SandboxDriver`], through kube.
//!
//! Each sandbox is one Pod named `sandpiper-<namespace>-<sandbox id>` with the same
//! hardening as the Docker driver's container ([`objects`]), its credentials in a Secret of
//! the same name, and for volume sessions a claim for its home (a stop does not wait for
//! the Pod to end: the session's next Pod waits until the claim is free, [`waits`]).
//! backend-api reaches it at the Pod's IP; NetworkPolicies keyed on its labels decide who
//! else may (`deploy/kubernetes/`). Pods never restart by themselves (`restartPolicy:
//! Never`): as with Docker, the manager notices a Pod ended (a watch: it exited, or the
//! cluster evicted it) and starts it again, here by making the Pod anew as the Secret
//! keeps it.
//! Labels name everything as ours, so a restarted manager finds what it left.

mod objects;
mod status;
mod waits;

use futures::stream::BoxStream;
use futures::StreamExt;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, Secret};
use kube::api::{DeleteParams, ListParams, LogParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::runtime::watcher;
use kube::{Api, Client, Config};
use std::collections::HashSet;

use self::objects::{Objects, CONTAINER};
use super::{
    DriverError, DriverResult, EngineEvent, ObservedSandbox, SandboxDriver, SandboxSpec, LABEL_HOME,
    LABEL_SANDBOX, LABEL_SESSION,
};
use crate::access::Endpoints;
use crate::config::{KubernetesSettings, SandboxSettings};

/// Runs sandboxes as Pods in one Kubernetes namespace, through one client.
pub struct KubernetesDriver {
    client: Client,
    pods: Api<Pod>,
    secrets: Api<Secret>,
    claims: Api<PersistentVolumeClaim>,
    objects: Objects,
}

impl KubernetesDriver {
    /// Reads the cluster configuration (nothing is asked of the API server yet, so the
    /// manager starts while it is down) and checks the settings fit together.
    pub async fn connect(
        sandbox: SandboxSettings,
        kubernetes: KubernetesSettings,
        namespace: String,
    ) -> anyhow::Result<Self> {
        if sandbox.browser_sandbox && kubernetes.seccomp_profile.is_none() {
            anyhow::bail!(
                "Chromium's sandbox needs the seccomp profile sandbox-image/seccomp-chromium.json \
                 installed on the nodes: name it in SANDBOX_MANAGER_KUBERNETES__SECCOMP_PROFILE \
                 (e.g. sandpiper/seccomp-chromium.json), or set \
                 SANDBOX_MANAGER_SANDBOX__BROWSER_SANDBOX=false"
            );
        }
        if let Some(policy) = &kubernetes.image_pull_policy {
            if !["Always", "IfNotPresent", "Never"].contains(&policy.as_str()) {
                anyhow::bail!(
                    "SANDBOX_MANAGER_KUBERNETES__IMAGE_PULL_POLICY must be Always, IfNotPresent \
                     or Never, not {policy:?}"
                );
            }
        }
        let config = match &kubernetes.kubeconfig {
            Some(path) => {
                let file = Kubeconfig::read_from(path)
                    .map_err(|err| anyhow::anyhow!("reading kubeconfig {}: {err}", path.display()))?;
                Config::from_custom_kubeconfig(file, &KubeConfigOptions::default()).await?
            }
            None => Config::infer().await.map_err(|err| {
                anyhow::anyhow!("no Kubernetes configuration found (in-cluster or kubeconfig): {err}")
            })?,
        };
        let k8s_namespace = kubernetes
            .namespace
            .clone()
            .unwrap_or_else(|| config.default_namespace.clone());
        let client = Client::try_from(config)?;
        Ok(Self {
            pods: Api::namespaced(client.clone(), &k8s_namespace),
            secrets: Api::namespaced(client.clone(), &k8s_namespace),
            claims: Api::namespaced(client.clone(), &k8s_namespace),
            client,
            objects: Objects {
                sandbox,
                kubernetes,
                namespace,
            },
        })
    }

    fn mine(&self) -> ListParams {
        ListParams::default().labels(&self.objects.selector())
    }
}

#[async_trait::async_trait]
impl SandboxDriver for KubernetesDriver {
    async fn prepare(&self) -> DriverResult<()> {
        self.client.apiserver_version().await.map_err(classify)?;
        // Listing is what the manager does most; a missing permission shows here.
        self.pods.list(&self.mine().limit(1)).await.map_err(classify)?;
        Ok(())
    }

    fn image(&self) -> &str {
        &self.objects.sandbox.image
    }

    async fn create(&self, spec: &SandboxSpec) -> DriverResult<Endpoints> {
        let post = PostParams::default();
        let pod = self.objects.pod(spec);
        let secret = self
            .objects
            .secret(spec, &pod)
            .map_err(|err| DriverError::StartFailed(format!("keeping the Pod spec: {err}")))?;
        self.secrets.create(&post, &secret).await.map_err(refused)?;
        let deadline = self.start_deadline();
        if let Some(key) = &spec.home_volume {
            // Perhaps the home of an earlier sandbox of the session, whose Pod may still
            // be ending (a stop or delete does not wait for it).
            self.claim_home(key, deadline).await?;
        }
        self.pods.create(&post, &pod).await.map_err(refused)?;
        self.wait_running(&self.objects.name(&spec.sandbox_id), deadline)
            .await
    }

    async fn restart(&self, sandbox_id: &str) -> DriverResult<Endpoints> {
        let name = self.objects.name(sandbox_id);
        let secret = self
            .secrets
            .get_opt(&name)
            .await
            .map_err(classify)?
            .ok_or_else(|| DriverError::StartFailed(format!("its Secret {name} is gone")))?;
        let pod = Objects::kept_pod(&secret).ok_or_else(|| {
            DriverError::StartFailed(format!("its Secret {name} keeps no Pod to make again"))
        })?;
        // A Pod cannot run again once ended: the same Pod is made anew, on any node.
        delete_if_there(&self.pods, &name).await?;
        let deadline = self.start_deadline();
        self.wait_gone(&name, deadline).await?;
        self.pods
            .create(&PostParams::default(), &pod)
            .await
            .map_err(refused)?;
        self.wait_running(&name, deadline).await
    }

    async fn remove(&self, sandbox_id: &str, home_volume: Option<&str>) -> DriverResult<()> {
        let name = self.objects.name(sandbox_id);
        delete_if_there(&self.pods, &name).await?;
        delete_if_there(&self.secrets, &name).await?;
        match home_volume {
            Some(key) => self.remove_volume(key).await,
            None => Ok(()),
        }
    }

    async fn list(&self) -> DriverResult<Vec<ObservedSandbox>> {
        let pods = self.pods.list(&self.mine()).await.map_err(classify)?;
        let mut observed: Vec<ObservedSandbox> = pods
            .items
            .iter()
            .filter(|pod| pod.metadata.deletion_timestamp.is_none())
            .filter_map(|pod| {
                Some(ObservedSandbox {
                    sandbox_id: pod.metadata.labels.as_ref()?.get(LABEL_SANDBOX)?.clone(),
                    stopped: status::is_stopped(pod),
                })
            })
            .collect();
        // A Secret whose Pod is gone (deleted by someone else, or the manager stopped
        // between the two deletions) is a sandbox that cannot run.
        let known: HashSet<String> = observed.iter().map(|o| o.sandbox_id.clone()).collect();
        let secrets = self.secrets.list(&self.mine()).await.map_err(classify)?;
        observed.extend(
            secrets
                .items
                .iter()
                .filter_map(|secret| secret.metadata.labels.as_ref()?.get(LABEL_SANDBOX).cloned())
                .filter(|id| !known.contains(id))
                .map(|sandbox_id| ObservedSandbox {
                    sandbox_id,
                    stopped: true,
                }),
        );
        Ok(observed)
    }

    async fn list_volumes(&self) -> DriverResult<Vec<String>> {
        let claims = self.claims.list(&self.mine()).await.map_err(classify)?;
        Ok(claims
            .items
            .into_iter()
            .filter(|claim| claim.metadata.deletion_timestamp.is_none())
            .filter_map(|mut claim| {
                let annotations = claim.metadata.annotations.as_mut()?;
                annotations
                    .remove(LABEL_HOME)
                    .or_else(|| annotations.remove(LABEL_SESSION))
            })
            .collect())
    }

    async fn remove_volume(&self, key: &str) -> DriverResult<()> {
        delete_if_there(&self.claims, &self.objects.claim_name(key)).await
    }

    async fn logs(&self, sandbox_id: &str, tail: u32) -> DriverResult<String> {
        let params = LogParams {
            container: Some(CONTAINER.into()),
            tail_lines: Some(i64::from(tail)),
            ..Default::default()
        };
        self.pods
            .logs(&self.objects.name(sandbox_id), &params)
            .await
            .map_err(classify)
    }

    fn events(&self) -> BoxStream<'static, DriverResult<EngineEvent>> {
        let config = watcher::Config::default().labels(&self.objects.selector());
        let pods = watcher(self.pods.clone(), config);
        async_stream::stream! {
            // Each ended Pod is reported once, however often it changes afterwards.
            let mut reported = HashSet::new();
            futures::pin_mut!(pods);
            while let Some(event) = pods.next().await {
                let pod = match event {
                    Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod)) => pod,
                    Ok(watcher::Event::Delete(pod)) => {
                        reported.remove(&pod.metadata.uid.unwrap_or_default());
                        continue;
                    }
                    Ok(watcher::Event::Init | watcher::Event::InitDone) => continue,
                    Err(err) => {
                        yield Err(DriverError::EngineUnavailable(err.to_string()));
                        break;
                    }
                };
                if !status::has_ended(&pod) {
                    continue;
                }
                let Some(sandbox_id) = pod.metadata.labels.as_ref().and_then(|l| l.get(LABEL_SANDBOX)).cloned() else {
                    continue;
                };
                if !reported.insert(pod.metadata.uid.clone().unwrap_or_default()) {
                    continue;
                }
                let ended = status::terminated(&pod);
                if ended.and_then(|e| e.reason.as_deref()) == Some("OOMKilled") {
                    yield Ok(EngineEvent::OutOfMemory { sandbox_id: sandbox_id.clone() });
                }
                yield Ok(EngineEvent::Died {
                    sandbox_id,
                    exit_code: ended.map(|e| i64::from(e.exit_code)),
                });
            }
        }
        .boxed()
    }
}

/// Deletes an object; one that is not there (any more) is fine.
async fn delete_if_there<K>(api: &Api<K>, name: &str) -> DriverResult<()>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    match api.delete(name, &DeleteParams::default()).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(status)) if status.is_not_found() => Ok(()),
        Err(err) => Err(classify(err)),
    }
}

/// An error from making an object: the API refusing it (quota, admission, invalid) is the
/// sandbox not starting; the rest is as [`classify`] says.
fn refused(err: kube::Error) -> DriverError {
    match classify(err) {
        DriverError::Engine(message) => DriverError::StartFailed(message),
        other => other,
    }
}

/// Sorts kube's errors into what the manager can tell its clients: an API server that
/// is away, throttling or failing for now is unavailable (worth a retry).
fn classify(err: kube::Error) -> DriverError {
    match err {
        kube::Error::Api(status) => {
            let text = format!("{} {}: {}", status.code, status.reason, status.message);
            match status.code {
                429 | 500..=504 => DriverError::EngineUnavailable(text),
                403 => DriverError::Engine(format!(
                    "{text} (the manager's service account needs the Role in \
                     deploy/kubernetes/sandbox-manager.yaml, in the sandbox namespace)"
                )),
                _ => DriverError::Engine(text),
            }
        }
        kube::Error::HyperError(_) | kube::Error::Service(_) | kube::Error::Auth(_) => {
            DriverError::EngineUnavailable(err.to_string())
        }
        other => DriverError::Engine(other.to_string()),
    }
}
