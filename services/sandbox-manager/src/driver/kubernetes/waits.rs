//! What the driver waits for on the cluster, each within the start time-out: a Pod
//! running, a Pod gone from the API, and a home volume's claim free of every other Pod.
//! A claim is ReadWriteOnce, and deleting a Pod only begins its end (its grace period,
//! then its kubelet's word), so the Pod of a stopped sandbox can still hold its claim,
//! on another node, when the session's next sandbox wants it.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;

use super::status::{self, Progress};
use super::{classify, KubernetesDriver};
use crate::access::Endpoints;
use crate::driver::{DriverError, DriverResult, TOOL_API_PORT};

/// How often a starting or disappearing Pod is looked at.
const POLL: Duration = Duration::from_millis(500);

impl KubernetesDriver {
    fn start_timeout(&self) -> Duration {
        Duration::from_secs(self.objects.kubernetes.start_timeout_secs)
    }

    /// Waits until the Pod runs and has an IP, or cannot start.
    pub(super) async fn wait_running(&self, name: &str) -> DriverResult<Endpoints> {
        let timeout = self.start_timeout();
        let deadline = Instant::now() + timeout;
        loop {
            let pod = self.pods.get(name).await.map_err(classify)?;
            match status::progress(&pod) {
                Progress::Running(ip) => {
                    return Ok(Endpoints {
                        host: ip,
                        tool_api_port: TOOL_API_PORT,
                    })
                }
                Progress::ImageMissing(why) => {
                    let image = &self.objects.sandbox.image;
                    return Err(DriverError::ImageMissing(format!("{image} ({why})")));
                }
                Progress::Failed(why) => return Err(DriverError::StartFailed(why)),
                Progress::Pending(why) if Instant::now() >= deadline => {
                    let why = why.map(|w| format!(": {w}")).unwrap_or_default();
                    return Err(DriverError::StartFailed(format!(
                        "its Pod was not running after {timeout:?}{why}"
                    )));
                }
                Progress::Pending(_) => tokio::time::sleep(POLL).await,
            }
        }
    }

    /// Waits until the Pod is gone from the API (its containers stopped).
    pub(super) async fn wait_gone(&self, name: &str) -> DriverResult<()> {
        let deadline = Instant::now() + self.start_timeout();
        while self.pods.get_opt(name).await.map_err(classify)?.is_some() {
            if Instant::now() >= deadline {
                return Err(DriverError::StartFailed(format!(
                    "its old Pod {name} is still terminating"
                )));
            }
            tokio::time::sleep(POLL).await;
        }
        Ok(())
    }

    /// Waits until no Pod of this manager mounts the claim: the Pod of the sandbox that
    /// had it before is gone, so the claim can be attached to the next one's node.
    pub(super) async fn wait_claim_free(&self, claim: &str) -> DriverResult<()> {
        let timeout = self.start_timeout();
        let deadline = Instant::now() + timeout;
        loop {
            let pods = self.pods.list(&self.mine()).await.map_err(classify)?;
            let Some(holder) = pods.items.iter().find(|pod| holds(pod, claim)) else {
                return Ok(());
            };
            if Instant::now() >= deadline {
                let holder = holder.metadata.name.as_deref().unwrap_or_default();
                return Err(DriverError::StartFailed(format!(
                    "its home volume's claim {claim} was still held by Pod {holder} after \
                     {timeout:?} (a Pod on an unreachable node keeps it until it is deleted \
                     with --force)"
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// Whether a Pod holds the claim: it mounts it and runs, or is being deleted (it holds it
/// until it is gone). One that ended by itself has let its volumes go.
fn holds(pod: &Pod, claim: &str) -> bool {
    let volumes = pod.spec.as_ref().and_then(|spec| spec.volumes.as_ref());
    let mounts = volumes.into_iter().flatten().any(|volume| {
        volume
            .persistent_volume_claim
            .as_ref()
            .is_some_and(|source| source.claim_name == claim)
    });
    mounts && (pod.metadata.deletion_timestamp.is_some() || !status::is_stopped(pod))
}
