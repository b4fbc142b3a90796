//! The fake cluster's kubelet: runs every new Pod as a Docker container translating its
//! spec, once no other Pod holds its claim ([`attached`]), reports its IP and its end as
//! the Pod's status, and removes the container of a Pod that is gone.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::process::Command;

use super::gate::outcome;
use super::{now, Cluster};

impl Cluster {
    /// The other Pods that hold a claim: they mount it and have not ended by themselves (a
    /// Pod being deleted holds it until it is gone).
    pub(super) fn holders(&self, claim: &str, except_uid: &Value) -> Vec<String> {
        let objects = self.objects.lock().unwrap();
        objects
            .items
            .iter()
            .filter(|((r, _), pod)| r == "pods" && pod["metadata"]["uid"] != *except_uid)
            .filter(|(_, pod)| {
                let ended =
                    ["Succeeded", "Failed"].contains(&pod["status"]["phase"].as_str().unwrap_or_default());
                !ended || pod["metadata"]["deletionTimestamp"].is_string()
            })
            .filter(|(_, pod)| {
                let volumes = pod["spec"]["volumes"].as_array().into_iter().flatten();
                volumes
                    .into_iter()
                    .any(|v| v["persistentVolumeClaim"]["claimName"] == claim)
            })
            .map(|((_, name), _)| name.clone())
            .collect()
    }

    /// Changes a Pod's status, if that Pod (that very one: `uid`) still exists.
    fn set_pod_status(&self, name: &str, uid: &Value, status: Value) {
        self.modify("pods", name, uid, |pod| pod["status"] = status);
    }

    /// Deletes the claims being deleted that no Pod holds any more (what the
    /// `kubernetes.io/pvc-protection` finalizer waits for).
    fn release_claims(&self) {
        let names = self.names_of("persistentvolumeclaims");
        for name in names {
            let claim = self.get("persistentvolumeclaims", &name).unwrap_or_default();
            if claim["metadata"]["deletionTimestamp"].is_string()
                && self.holders(&name, &Value::Null).is_empty()
            {
                self.delete("persistentvolumeclaims", &name);
            }
        }
    }
}

/// Runs every new Pod as a container and stops the container of every deleted one.
pub(super) async fn run(cluster: Arc<Cluster>) {
    let mut changes = cluster.changes.subscribe();
    while let Ok(change) = changes.recv().await {
        if change.resource != "pods" {
            continue;
        }
        let container = cluster.container(&change.object);
        match change.kind {
            "ADDED" => {
                tokio::spawn(run_pod(cluster.clone(), change.object));
            }
            "DELETED" => {
                cluster.release_claims();
                tokio::spawn(async move {
                    let _ = Command::new("docker")
                        .args(["rm", "-f", &container])
                        .output()
                        .await;
                });
            }
            _ => {}
        }
    }
}

/// A docker command that makes nothing (what makes something goes through the gate).
async fn docker(args: &[String]) -> Result<String, String> {
    outcome(
        Command::new("docker")
            .args(args)
            .output()
            .await
            .map_err(|e| e.to_string())?,
    )
}

/// Waits until no other Pod holds the claim (each is on a node of its own, and a
/// ReadWriteOnce claim attaches to one node): the Pod stays `ContainerCreating`, with one
/// `FailedAttachVolume` Event, as the attach-detach controller retries. False when the
/// Pod was deleted meanwhile.
async fn attached(cluster: &Cluster, pod: &Value, claim: &str) -> bool {
    let name = pod["metadata"]["name"].as_str().unwrap_or_default();
    let uid = &pod["metadata"]["uid"];
    let mut reported = false;
    loop {
        let holders = cluster.holders(claim, uid);
        if holders.is_empty() {
            return true;
        }
        if cluster
            .get("pods", name)
            .is_none_or(|pod| pod["metadata"]["uid"] != *uid)
        {
            return false;
        }
        if !reported {
            let message = format!(
                "Multi-Attach error for volume \"{claim}\" Volume is already used by pod(s) {}",
                holders.join(", ")
            );
            let event = json!({
                "metadata": {"name": format!("{}.attach", uid.as_str().unwrap_or_default())},
                "involvedObject": {"kind": "Pod", "name": name, "uid": uid},
                "type": "Warning", "reason": "FailedAttachVolume", "message": message,
            });
            let _ = cluster.create("events", event);
            cluster.set_pod_status(name, uid, waiting("ContainerCreating", &message));
            reported = true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn waiting(reason: &str, message: &str) -> Value {
    json!({"phase": "Pending", "containerStatuses": [{
        "name": "sandbox", "ready": false, "restartCount": 0, "image": "", "imageID": "",
        "state": {"waiting": {"reason": reason, "message": message}},
    }]})
}

/// Mebibytes of a quantity such as `512Mi`.
fn mebibytes(quantity: &Value) -> Option<u64> {
    quantity.as_str()?.strip_suffix("Mi")?.parse().ok()
}

async fn run_pod(cluster: Arc<Cluster>, pod: Value) {
    let name = pod["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let uid = pod["metadata"]["uid"].clone();
    let spec = &pod["spec"];
    let c = &spec["containers"][0];
    let image = c["image"].as_str().unwrap_or_default().to_owned();
    let container = cluster.container(&pod);
    if docker(&["image".into(), "inspect".into(), image.clone()])
        .await
        .is_err()
    {
        let message = format!("pull access denied for {image}, repository does not exist");
        return cluster.set_pod_status(&name, &uid, waiting("ErrImagePull", &message));
    }
    let mut args: Vec<String> = vec!["create".into(), "--name".into(), container.clone()];
    let mut arg = |a: &str, b: String| {
        args.push(a.to_owned());
        args.push(b);
    };
    arg("--label", format!("fake-kube={}", cluster.id));
    for var in c["env"].as_array().into_iter().flatten() {
        arg(
            "--env",
            format!(
                "{}={}",
                var["name"].as_str().unwrap_or_default(),
                var["value"].as_str().unwrap_or_default()
            ),
        );
    }
    for source in c["envFrom"].as_array().into_iter().flatten() {
        let secret_name = source["secretRef"]["name"].as_str().unwrap_or_default();
        let Some(secret) = cluster.get("secrets", secret_name) else {
            let message = format!("secret \"{secret_name}\" not found");
            return cluster.set_pod_status(&name, &uid, waiting("CreateContainerConfigError", &message));
        };
        for (key, value) in secret["data"].as_object().into_iter().flatten() {
            let value = base64::engine::general_purpose::STANDARD
                .decode(value.as_str().unwrap_or_default())
                .unwrap_or_default();
            arg("--env", format!("{key}={}", String::from_utf8_lossy(&value)));
        }
    }
    let pod_security = &spec["securityContext"];
    if let (Some(user), Some(group)) = (
        pod_security["runAsUser"].as_i64(),
        pod_security["runAsGroup"].as_i64(),
    ) {
        arg("--user", format!("{user}:{group}"));
    }
    let security = &c["securityContext"];
    if security["readOnlyRootFilesystem"] == true {
        args.push("--read-only".into());
    }
    if security["allowPrivilegeEscalation"] == false {
        args.extend(["--security-opt".into(), "no-new-privileges".into()]);
    }
    for cap in security["capabilities"]["drop"].as_array().into_iter().flatten() {
        args.extend(["--cap-drop".into(), cap.as_str().unwrap_or_default().to_owned()]);
    }
    if spec["shareProcessNamespace"] == true {
        args.push("--init".into());
    }
    let limits = &c["resources"]["limits"];
    if let Some(memory) = mebibytes(&limits["memory"]) {
        args.extend([
            "--memory".into(),
            format!("{memory}m"),
            "--memory-swap".into(),
            format!("{memory}m"),
        ]);
    }
    if let Some(cpu) = limits["cpu"]
        .as_str()
        .and_then(|c| c.strip_suffix('m'))
        .and_then(|c| c.parse::<f64>().ok())
    {
        args.extend(["--cpus".into(), format!("{}", cpu / 1000.0)]);
    }
    // An emptyDir is writable by every user of the Pod (0777, group fsGroup); on a tmpfs
    // the engine shows that by giving it to the Pod's user.
    let owner = pod_security["runAsUser"].as_i64().unwrap_or(0);
    let fs_group = pod_security["fsGroup"].as_i64().unwrap_or(0);
    for mount in c["volumeMounts"].as_array().into_iter().flatten() {
        let path = mount["mountPath"].as_str().unwrap_or_default();
        let volume = spec["volumes"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|v| v["name"] == mount["name"])
            .cloned()
            .unwrap_or_default();
        if let Some(size) = mebibytes(&volume["emptyDir"]["sizeLimit"]) {
            args.extend([
                "--tmpfs".into(),
                format!("{path}:rw,nosuid,nodev,exec,size={size}m,uid={owner},gid={fs_group},mode=0770"),
            ]);
        } else if let Some(claim) = volume["persistentVolumeClaim"]["claimName"].as_str() {
            let Some(found) = cluster.get("persistentvolumeclaims", claim) else {
                let message = format!("persistentvolumeclaim \"{claim}\" not found");
                return cluster.set_pod_status(&name, &uid, waiting("CreateContainerConfigError", &message));
            };
            if found["metadata"]["deletionTimestamp"].is_string() {
                // The scheduler does not place it; once the claim is gone, it never can.
                let message = format!("persistentvolumeclaim \"{claim}\" is being deleted");
                let unschedulable = json!({"phase": "Pending", "conditions": [{
                    "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                    "message": message,
                }]});
                return cluster.set_pod_status(&name, &uid, unschedulable);
            }
            if !attached(&cluster, &pod, claim).await {
                return; // deleted while it waited
            }
            let volume = format!("{}-{claim}", cluster.id);
            let _ = cluster
                .gate
                .make(vec![
                    "volume".into(),
                    "create".into(),
                    "--label".into(),
                    format!("fake-kube={}", cluster.id),
                    volume.clone(),
                ])
                .await;
            args.extend([
                "--mount".into(),
                format!("type=volume,source={volume},target={path}"),
            ]);
        }
    }
    args.push(image.clone());
    let started = match cluster.gate.make(args).await {
        Ok(_) => cluster.gate.make(vec!["start".into(), container.clone()]).await,
        Err(err) => Err(err),
    };
    if let Err(err) = started {
        return cluster.set_pod_status(&name, &uid, waiting("CreateContainerError", &err));
    }
    let ip = docker(&[
        "inspect".into(),
        "-f".into(),
        "{{.NetworkSettings.IPAddress}}".into(),
        container.clone(),
    ])
    .await
    .unwrap_or_default();
    let status = |state: Value, phase: &str| {
        json!({"phase": phase, "podIP": ip, "containerStatuses": [{
            "name": "sandbox", "ready": phase == "Running", "restartCount": 0, "image": image,
            "imageID": "", "containerID": format!("docker://{container}"), "state": state,
        }]})
    };
    cluster.set_pod_status(
        &name,
        &uid,
        status(json!({"running": {"startedAt": now()}}), "Running"),
    );
    let Ok(exit) = docker(&["wait".into(), container.clone()]).await else {
        return; // removed: the Pod was deleted
    };
    let oom = docker(&[
        "inspect".into(),
        "-f".into(),
        "{{.State.OOMKilled}}".into(),
        container.clone(),
    ])
    .await
    .is_ok_and(|o| o == "true");
    let code: i64 = exit.parse().unwrap_or(-1);
    let reason = if oom {
        "OOMKilled"
    } else if code == 0 {
        "Completed"
    } else {
        "Error"
    };
    let terminated = json!({"terminated": {"exitCode": code, "reason": reason, "finishedAt": now()}});
    cluster.set_pod_status(
        &name,
        &uid,
        status(terminated, if code == 0 { "Succeeded" } else { "Failed" }),
    );
}
