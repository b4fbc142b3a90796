//! Reading a sandbox Pod's status: how far its start has come, and whether (and how) it
//! ended. Kubernetes reports both through the phase and the container's state.

use k8s_openapi::api::core::v1::{ContainerStateTerminated, Pod};

/// Container waiting reasons that mean the image cannot be had.
const IMAGE_REASONS: [&str; 2] = ["ErrImageNeverPull", "InvalidImageName"];
/// Pull failures: the image cannot be had when the registry says so, otherwise (rate
/// limits, time-outs) the kubelet tries again and the Pod is still starting.
const PULL_REASONS: [&str; 2] = ["ErrImagePull", "ImagePullBackOff"];
const PULL_REFUSALS: [&str; 5] = [
    "not found",
    "does not exist",
    "manifest unknown",
    "denied",
    "unauthorized",
];
/// Waiting reasons that will not clear up by themselves. (`CreateContainerConfigError`
/// may: a Secret the kubelet has not seen yet.)
const BROKEN_REASONS: [&str; 2] = ["CreateContainerError", "RunContainerError"];

/// Where a starting Pod stands.
#[derive(Debug, PartialEq, Eq)]
pub enum Progress {
    /// Not scheduled, not pulled or not running yet; the text says why, when known.
    Pending(Option<String>),
    /// Running, at this IP.
    Running(String),
    /// Its image cannot be pulled.
    ImageMissing(String),
    /// It ended or cannot start.
    Failed(String),
}

pub fn progress(pod: &Pod) -> Progress {
    let Some(status) = &pod.status else {
        return Progress::Pending(None);
    };
    if let Some(ended) = terminated(pod) {
        return Progress::Failed(describe(ended));
    }
    let waiting = status
        .container_statuses
        .iter()
        .flatten()
        .find_map(|c| c.state.as_ref()?.waiting.as_ref());
    if let Some(waiting) = waiting {
        let reason = waiting.reason.clone().unwrap_or_default();
        let text = match &waiting.message {
            Some(message) => format!("{reason}: {message}"),
            None => reason.clone(),
        };
        let refused = || {
            let lower = text.to_lowercase();
            PULL_REFUSALS.iter().any(|r| lower.contains(r))
        };
        if IMAGE_REASONS.contains(&reason.as_str()) || (PULL_REASONS.contains(&reason.as_str()) && refused())
        {
            return Progress::ImageMissing(text);
        }
        if BROKEN_REASONS.contains(&reason.as_str()) {
            return Progress::Failed(text);
        }
        return Progress::Pending(Some(text));
    }
    match (status.phase.as_deref(), &status.pod_ip) {
        (Some("Running"), Some(ip)) if !ip.is_empty() => Progress::Running(ip.clone()),
        (Some("Failed" | "Succeeded"), _) => {
            Progress::Failed(status.message.clone().unwrap_or_else(|| "the Pod ended".into()))
        }
        _ => {
            // The scheduler's reason, e.g. "0/3 nodes are available: 3 Insufficient memory."
            let unscheduled = status
                .conditions
                .iter()
                .flatten()
                .find(|c| c.type_ == "PodScheduled" && c.status == "False")
                .and_then(|c| c.message.clone());
            Progress::Pending(unscheduled)
        }
    }
}

/// How the sandbox's container ended, if it did.
pub fn terminated(pod: &Pod) -> Option<&ContainerStateTerminated> {
    pod.status
        .as_ref()?
        .container_statuses
        .iter()
        .flatten()
        .find_map(|c| c.state.as_ref()?.terminated.as_ref())
}

/// Whether the Pod is over: its container ended, or the Pod failed as a whole (evicted,
/// node lost).
pub fn is_stopped(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    terminated(pod).is_some() || matches!(phase, Some("Failed" | "Succeeded"))
}

/// Whether the cluster is taking the Pod away (eviction, preemption, a drained or lost
/// node): it is being deleted, but not by the manager.
pub fn is_disrupted(pod: &Pod) -> bool {
    pod.status
        .iter()
        .flat_map(|s| s.conditions.iter().flatten())
        .any(|c| c.type_ == "DisruptionTarget" && c.status == "True")
}

/// Whether the Pod has ended for a reason the manager should act on.
pub fn has_ended(pod: &Pod) -> bool {
    if pod.metadata.deletion_timestamp.is_some() {
        // Deleted on purpose, unless the cluster says it is a disruption.
        is_disrupted(pod)
    } else {
        is_stopped(pod)
    }
}

fn describe(ended: &ContainerStateTerminated) -> String {
    let mut text = format!("the sandbox exited with code {}", ended.exit_code);
    if let Some(reason) = &ended.reason {
        text.push_str(&format!(" ({reason})"));
    }
    if let Some(message) = &ended.message {
        text.push_str(&format!(": {message}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(status: serde_json::Value) -> Pod {
        serde_json::from_value(json!({"metadata": {"name": "p"}, "status": status})).unwrap()
    }

    fn waiting(reason: &str, message: &str) -> Pod {
        pod(json!({"phase": "Pending", "containerStatuses": [{
            "name": "sandbox", "ready": false, "restartCount": 0, "image": "i", "imageID": "",
            "state": {"waiting": {"reason": reason, "message": message}},
        }]}))
    }

    #[test]
    fn a_running_pod_is_reached_at_its_ip() {
        let running = pod(json!({"phase": "Running", "podIP": "10.1.2.3"}));
        assert_eq!(progress(&running), Progress::Running("10.1.2.3".into()));
        assert_eq!(
            progress(&pod(json!({"phase": "Running"}))),
            Progress::Pending(None)
        );
    }

    #[test]
    fn a_pull_the_registry_refuses_is_a_missing_image_and_a_throttled_one_waits() {
        let missing = waiting("ErrImagePull", "rpc error: manifest unknown");
        assert!(matches!(progress(&missing), Progress::ImageMissing(_)));
        let back_off = waiting("ImagePullBackOff", "pull access denied for x");
        assert!(matches!(progress(&back_off), Progress::ImageMissing(_)));
        let throttled = waiting("ErrImagePull", "429 Too Many Requests");
        assert!(matches!(progress(&throttled), Progress::Pending(Some(_))));
        let never = waiting("ErrImageNeverPull", "image not present with pull policy Never");
        assert!(matches!(progress(&never), Progress::ImageMissing(_)));
        let config = waiting("CreateContainerConfigError", "secret \"s\" not found");
        assert!(matches!(progress(&config), Progress::Pending(Some(_))));
        let broken = waiting("CreateContainerError", "no such file");
        assert!(matches!(progress(&broken), Progress::Failed(_)));
    }

    #[test]
    fn an_unschedulable_pod_says_why() {
        let unscheduled = pod(json!({"phase": "Pending", "conditions": [{
            "type": "PodScheduled", "status": "False",
            "message": "0/3 nodes are available: 3 Insufficient memory.",
        }]}));
        assert_eq!(
            progress(&unscheduled),
            Progress::Pending(Some("0/3 nodes are available: 3 Insufficient memory.".into()))
        );
    }

    #[test]
    fn an_oom_kill_ends_the_pod_with_its_reason() {
        let killed = pod(json!({"phase": "Failed", "containerStatuses": [{
            "name": "sandbox", "ready": false, "restartCount": 0, "image": "i", "imageID": "",
            "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}},
        }]}));
        assert!(is_stopped(&killed) && has_ended(&killed));
        assert_eq!(terminated(&killed).unwrap().reason.as_deref(), Some("OOMKilled"));
        assert_eq!(
            progress(&killed),
            Progress::Failed("the sandbox exited with code 137 (OOMKilled)".into())
        );
    }

    #[test]
    fn a_deleted_pod_has_ended_only_when_the_cluster_took_it() {
        let deleted = |conditions: serde_json::Value| -> Pod {
            serde_json::from_value(json!({
                "metadata": {"name": "p", "deletionTimestamp": "2026-11-23T10:00:00Z"},
                "status": {"phase": "Running", "podIP": "10.1.2.3", "conditions": conditions},
            }))
            .unwrap()
        };
        assert!(!has_ended(&deleted(json!([]))), "deleted by the manager");
        let evicted =
            json!([{"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI"}]);
        assert!(has_ended(&deleted(evicted)));
    }
}
