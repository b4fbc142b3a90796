//! What the driver waits for on the cluster, all the waits of one start within one start
//! time-out ([`KubernetesDriver::start_deadline`]): a Pod running, a Pod gone from the
//! API, and a home volume's claim free of every other Pod (and, when it is being deleted,
//! gone, to be made anew).
//! A claim is ReadWriteOnce, and deleting a Pod only begins its end (its grace period,
//! then its kubelet's word), so the Pod of a stopped sandbox can still hold its claim,
//! on another node, when the session's next sandbox wants it.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use kube::api::PostParams;

use super::status::{self, Progress};
use super::{classify, refused, KubernetesDriver};
use crate::access::Endpoints;
use crate::driver::{DriverError, DriverResult, TOOL_API_PORT};

/// How often a starting or disappearing Pod is looked at.
const POLL: Duration = Duration::from_millis(500);

impl KubernetesDriver {
    fn start_timeout(&self) -> Duration {
        Duration::from_secs(self.objects.kubernetes.start_timeout_secs)
    }

    /// When a start that begins now must be done: what its waits share.
    pub(super) fn start_deadline(&self) -> Instant {
        Instant::now() + self.start_timeout()
    }

    /// Waits until the Pod runs and has an IP, or cannot start.
    pub(super) async fn wait_running(&self, name: &str, deadline: Instant) -> DriverResult<Endpoints> {
        let timeout = self.start_timeout();
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
    pub(super) async fn wait_gone(&self, name: &str, deadline: Instant) -> DriverResult<()> {
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

    /// Makes the home claim of a key, or takes over the one there once no other Pod
    /// holds it: the Pod of the sandbox that had it before is gone, so the claim can be
    /// attached to the next one's node. A claim being deleted (its sandbox was, and its
    /// Pod is ending) is waited out and made anew.
    pub(super) async fn claim_home(&self, key: &str, deadline: Instant) -> DriverResult<()> {
        let claim = self.objects.claim(key);
        let name = self.objects.claim_name(key);
        let timeout = self.start_timeout();
        loop {
            let taken = match self.claims.create(&PostParams::default(), &claim).await {
                Ok(_) => return Ok(()),
                Err(kube::Error::Api(status)) if status.is_already_exists() => {
                    self.claim_taken(&name).await?
                }
                Err(err) => return Err(refused(err)),
            };
            let Some(why) = taken else {
                return Ok(());
            };
            if Instant::now() >= deadline {
                return Err(DriverError::StartFailed(format!(
                    "its home volume's claim {name} {why} after {timeout:?} (a Pod on an \
                     unreachable node keeps its claim until it is deleted with --force)"
                )));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// What keeps an existing claim from the next sandbox, if anything: it is being
    /// deleted (or just was), or another Pod holds it.
    async fn claim_taken(&self, name: &str) -> DriverResult<Option<String>> {
        let existing = self.claims.get_opt(name).await.map_err(classify)?;
        if existing.is_none_or(|claim| claim.metadata.deletion_timestamp.is_some()) {
            return Ok(Some("was still being deleted".to_owned()));
        }
        let pods = self.pods.list(&self.mine()).await.map_err(classify)?;
        let holder = pods.items.iter().find(|pod| holds(pod, name));
        Ok(holder.map(|pod| {
            let holder = pod.metadata.name.as_deref().unwrap_or_default();
            format!("was still held by Pod {holder}")
        }))
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
