//! Reading a sandbox Pod's status: how far its start has come, and whether (and how) it
//! ended. Kubernetes reports both through the phase and the container's state.

use k8s_openapi::api::core::v1::{ContainerStateTerminated, Pod};

/// Container waiting reasons that mean the image cannot be had.
const IMAGE_REASONS: [&str; 4] = [
    "ErrImagePull",
    "ImagePullBackOff",
    "ErrImageNeverPull",
    "InvalidImageName",
];
/// Waiting reasons that will not clear up by themselves.
const BROKEN_REASONS: [&str; 3] = [
    "CreateContainerConfigError",
    "CreateContainerError",
    "RunContainerError",
];

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
        if IMAGE_REASONS.contains(&reason.as_str()) {
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
