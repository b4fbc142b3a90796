//! A small Kubernetes API server and a kubelet for the Kubernetes driver's tests: no real
//! cluster runs on the test machines, so this speaks the parts of the real wire protocol
//! the driver uses (core/v1 Pods, Secrets and PersistentVolumeClaims over REST and JSON,
//! label selectors, `Status` errors, bearer tokens, watches as newline-delimited JSON
//! from a resourceVersion, Pod logs; [`api`]), and its kubelet ([`kubelet`]) runs each Pod
//! for real as a Docker container of the Pod's image, translating the spec's hardening
//! (user, read-only root, capabilities, no-new-privileges, memory-backed emptyDirs, claims
//! as volumes, limits, shared process namespace as an init) and reporting the container's
//! bridge IP as the Pod IP and its exit (with OOMKilled) as the Pod's status.
//!
//! Every Pod is on a node of its own: a ReadWriteOnce claim another Pod still holds keeps a
//! Pod waiting, with a `FailedAttachVolume` Event, as the attach-detach controller does.
//! Deleted Pods go at once unless a test asks for graceful deletion ([`Deletion`]), and a
//! deleted claim stays (terminating) while a Pod holds it; [`FakeCluster::evict`] plays
//! an eviction.
//!
//! Not modelled: scheduling, admission, NetworkPolicies, seccomp profiles other than the
//! runtime's default, paging and bookmarks. A claim is a Docker volume, which starts with
//! the image's files where a real claim starts empty, and which a claim made anew under
//! the same name finds again; an emptyDir is the Pod user's where a real one is root's
//! with mode 0777.

mod api;
mod gate;
mod kubelet;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::process::Command;
use tokio::sync::broadcast;

pub const TOKEN: &str = "fake-cluster-token";
pub const NAMESPACE: &str = "sandboxes";

/// Why the API refused a request: code, reason, message.
type Refusal = (u16, &'static str, String);

/// One change to an object, as a watch reports it.
#[derive(Clone, Debug)]
struct Change {
    version: u64,
    resource: String,
    kind: &'static str,
    object: Value,
}

#[derive(Default)]
struct Objects {
    version: u64,
    /// (resource, name) → object; everything lives in [`NAMESPACE`].
    items: BTreeMap<(String, String), Value>,
    history: Vec<Change>,
}

/// How the API server deletes a Pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deletion {
    /// At once, as if its kubelet confirmed at once.
    AtOnce,
    /// Marked as terminating (`deletionTimestamp`), it goes after its
    /// `terminationGracePeriodSeconds`: a process that ignores SIGTERM to the end.
    AfterGracePeriod,
    /// Marked as terminating, it never goes: its node does not answer.
    Never,
}

pub struct Cluster {
    objects: Mutex<Objects>,
    deletion: Mutex<Deletion>,
    changes: broadcast::Sender<Change>,
    /// What the kubelet makes on the engine passes it; closed before the clean-up.
    gate: gate::Gate,
    /// Labels this cluster's containers on the engine, for clean-up.
    pub id: String,
}

/// The API server, its kubelet and a kubeconfig pointing at them.
pub struct FakeCluster {
    pub cluster: Arc<Cluster>,
    pub kubeconfig: tempfile::NamedTempFile,
}

impl FakeCluster {
    pub async fn start() -> Self {
        let cluster = Arc::new(Cluster {
            objects: Mutex::default(),
            deletion: Mutex::new(Deletion::AtOnce),
            changes: broadcast::channel(1024).0,
            gate: gate::Gate::default(),
            id: format!("fk{}", super::random_suffix()),
        });
        let app = api::router(cluster.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        tokio::spawn(kubelet::run(cluster.clone()));
        let kubeconfig = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(
            kubeconfig.path(),
            format!(
                "apiVersion: v1\nkind: Config\ncurrent-context: fake\n\
                 clusters:\n- name: fake\n  cluster:\n    server: {url}\n\
                 users:\n- name: manager\n  user:\n    token: {TOKEN}\n\
                 contexts:\n- name: fake\n  context:\n    cluster: fake\n    user: manager\n    namespace: {NAMESPACE}\n"
            ),
        )
        .unwrap();
        Self { cluster, kubeconfig }
    }

    /// The manager settings (without the prefix) that point its driver here.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("DRIVER", "kubernetes".into()),
            (
                "KUBERNETES__KUBECONFIG",
                self.kubeconfig.path().display().to_string(),
            ),
            ("SANDBOX__BROWSER_SANDBOX", "false".into()),
        ]
    }

    pub fn get(&self, resource: &str, name: &str) -> Option<Value> {
        self.cluster.get(resource, name)
    }

    /// Names of the objects of a resource.
    pub fn names(&self, resource: &str) -> Vec<String> {
        self.cluster.names_of(resource)
    }

    /// How Pods are deleted from now on.
    pub fn set_deletion(&self, deletion: Deletion) {
        *self.cluster.deletion.lock().unwrap() = deletion;
    }

    /// The messages of the Events of a reason (e.g. `FailedAttachVolume`).
    pub fn events(&self, reason: &str) -> Vec<String> {
        let objects = self.cluster.objects.lock().unwrap();
        objects
            .items
            .iter()
            .filter(|((r, _), event)| r == "events" && event["reason"] == reason)
            .map(|(_, event)| event["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Creates an object as a client would (e.g. a Pod the manager never made).
    pub fn create(&self, resource: &str, object: Value) -> Value {
        self.cluster.create(resource, object).unwrap()
    }

    /// Evicts a Pod as the kubelet does under node pressure: marks it as a disruption
    /// target being deleted, stops its container, then deletes it.
    pub async fn evict(&self, name: &str) {
        let pod = self.get("pods", name).expect("a Pod to evict");
        // Read before the mark: the manager, seeing the Pod end, may delete it at once,
        // before its container is stopped here.
        let (uid, container) = (pod["metadata"]["uid"].clone(), self.cluster.container(&pod));
        let marked = self.cluster.modify("pods", name, &uid, |pod| {
            pod["metadata"]["deletionTimestamp"] = json!(now());
            pod["status"]["conditions"] = json!([{
                "type": "DisruptionTarget", "status": "True", "reason": "TerminationByKubelet",
                "message": "The node was low on resource: memory.",
            }]);
        });
        assert!(marked, "no Pod {name} to evict");
        let _ = Command::new("docker")
            .args(["stop", "-t", "1", &container])
            .output()
            .await;
        self.cluster.delete_pod(name, &uid);
    }

    /// The engine container running a Pod.
    pub fn container(&self, pod: &str) -> String {
        let pod = self.get("pods", pod).expect("the Pod exists");
        self.cluster.container(&pod)
    }
}

impl Drop for FakeCluster {
    fn drop(&mut self) {
        // Nothing the kubelet is making may land after the sweep.
        self.cluster.gate.close_and_drain();
        let filter = format!("label=fake-kube={}", self.cluster.id);
        let ids = std::process::Command::new("docker")
            .args(["ps", "-aq", "--filter", &filter])
            .output();
        if let Ok(ids) = ids {
            for id in String::from_utf8_lossy(&ids.stdout).split_whitespace() {
                let _ = std::process::Command::new("docker")
                    .args(["rm", "-f", "-v", id])
                    .output();
            }
        }
        let _ = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("docker volume ls -q --filter {filter} | xargs -r docker volume rm -f"),
            ])
            .output();
    }
}

impl Cluster {
    /// The engine container of one Pod object: a Pod made anew under the same name gets
    /// its own while the old one is still going.
    fn container(&self, pod: &Value) -> String {
        format!(
            "{}-{}",
            self.id,
            pod["metadata"]["uid"].as_str().unwrap_or_default()
        )
    }

    fn names_of(&self, resource: &str) -> Vec<String> {
        let objects = self.objects.lock().unwrap();
        objects
            .items
            .keys()
            .filter(|(r, _)| r == resource)
            .map(|(_, name)| name.clone())
            .collect()
    }

    fn get(&self, resource: &str, name: &str) -> Option<Value> {
        let objects = self.objects.lock().unwrap();
        objects
            .items
            .get(&(resource.to_owned(), name.to_owned()))
            .cloned()
    }

    fn record(&self, objects: &mut Objects, resource: &str, kind: &'static str, object: Value) {
        let change = Change {
            version: objects.version,
            resource: resource.to_owned(),
            kind,
            object,
        };
        objects.history.push(change.clone());
        let _ = self.changes.send(change);
    }

    fn create(&self, resource: &str, mut object: Value) -> Result<Value, Refusal> {
        let kind = kind_of(resource).ok_or((404, "NotFound", "no such resource".to_owned()))?;
        let Some(name) = object["metadata"]["name"].as_str().map(str::to_owned) else {
            return Err((422, "Invalid", "metadata.name: Required value".to_owned()));
        };
        let mut objects = self.objects.lock().unwrap();
        let key = (resource.to_owned(), name.clone());
        if objects.items.contains_key(&key) {
            let message = format!("{resource} \"{name}\" already exists");
            return Err((409, "AlreadyExists", message));
        }
        objects.version += 1;
        object["apiVersion"] = json!("v1");
        object["kind"] = json!(kind);
        let metadata = &mut object["metadata"];
        metadata["namespace"] = json!(NAMESPACE);
        metadata["uid"] = json!(format!("uid-{}-{}", name, objects.version));
        metadata["resourceVersion"] = json!(objects.version.to_string());
        metadata["creationTimestamp"] = json!(now());
        if resource == "secrets" {
            // The API server keeps stringData as base64 data.
            if let Some(Value::Object(plain)) = object.as_object_mut().unwrap().remove("stringData") {
                for (key, value) in plain {
                    let encoded =
                        base64::engine::general_purpose::STANDARD.encode(value.as_str().unwrap_or_default());
                    object["data"][key] = json!(encoded);
                }
            }
        }
        if resource == "pods" {
            object["status"] = json!({"phase": "Pending"});
        }
        objects.items.insert(key, object.clone());
        self.record(&mut objects, resource, "ADDED", object.clone());
        Ok(object)
    }

    fn delete(&self, resource: &str, name: &str) -> Option<Value> {
        let mut objects = self.objects.lock().unwrap();
        let object = objects.items.remove(&(resource.to_owned(), name.to_owned()))?;
        objects.version += 1;
        self.record(&mut objects, resource, "DELETED", object.clone());
        Some(object)
    }

    /// Deletes that Pod (that very one: `uid`), not one made anew under its name.
    fn delete_pod(&self, name: &str, uid: &Value) {
        if self
            .get("pods", name)
            .is_some_and(|pod| pod["metadata"]["uid"] == *uid)
        {
            self.delete("pods", name);
        }
    }

    /// Changes an object, if that object (that very one: `uid`) still exists; says
    /// whether it did.
    fn modify(&self, resource: &str, name: &str, uid: &Value, change: impl FnOnce(&mut Value)) -> bool {
        let mut objects = self.objects.lock().unwrap();
        let version = objects.version + 1;
        let key = (resource.to_owned(), name.to_owned());
        let Some(object) = objects
            .items
            .get_mut(&key)
            .filter(|o| o["metadata"]["uid"] == *uid)
        else {
            return false;
        };
        change(object);
        object["metadata"]["resourceVersion"] = json!(version.to_string());
        let object = object.clone();
        objects.version = version;
        self.record(&mut objects, resource, "MODIFIED", object);
        true
    }
}

fn kind_of(resource: &str) -> Option<&'static str> {
    match resource {
        "pods" => Some("Pod"),
        "secrets" => Some("Secret"),
        "persistentvolumeclaims" => Some("PersistentVolumeClaim"),
        "events" => Some("Event"),
        _ => None,
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
