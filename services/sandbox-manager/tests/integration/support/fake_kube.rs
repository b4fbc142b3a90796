//! A small Kubernetes API server and a kubelet for the Kubernetes driver's tests: no real
//! cluster runs on the test machines, so this speaks the parts of the real wire protocol
//! the driver uses (core/v1 Pods, Secrets and PersistentVolumeClaims over REST and JSON,
//! label selectors, `Status` errors, bearer tokens, watches as newline-delimited JSON
//! from a resourceVersion, Pod logs), and its kubelet runs each Pod for real as a Docker
//! container of the Pod's image, translating the spec's hardening (user, read-only root,
//! capabilities, no-new-privileges, memory-backed emptyDirs, claims as volumes, limits,
//! shared process namespace as an init) and reporting the container's bridge IP as the
//! Pod IP and its exit (with OOMKilled) as the Pod's status.
//!
//! Not modelled: scheduling, admission, NetworkPolicies, graceful deletion (objects go at
//! once; [`FakeCluster::evict`] plays an eviction), seccomp profiles other than the
//! runtime's default, paging and bookmarks. A claim is a Docker volume, which starts with
//! the image's files where a real claim starts empty; an emptyDir is the Pod user's where
//! a real one is root's with mode 0777.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine as _;
use futures::StreamExt;
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

pub struct Cluster {
    objects: Mutex<Objects>,
    changes: broadcast::Sender<Change>,
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
            changes: broadcast::channel(1024).0,
            id: format!("fk{}", super::random_suffix()),
        });
        let app = Router::new()
            .route("/version", get(version))
            .route(
                "/api/v1/namespaces/{ns}/{resource}",
                get(list_or_watch).post(create),
            )
            .route(
                "/api/v1/namespaces/{ns}/{resource}/{name}",
                get(read).delete(delete),
            )
            .route("/api/v1/namespaces/{ns}/pods/{name}/log", get(logs))
            .layer(axum::middleware::from_fn(authenticate))
            .with_state(cluster.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        tokio::spawn(kubelet(cluster.clone()));
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
        let objects = self.cluster.objects.lock().unwrap();
        objects
            .items
            .keys()
            .filter(|(r, _)| r == resource)
            .map(|(_, name)| name.clone())
            .collect()
    }

    /// Creates an object as a client would (e.g. a Pod the manager never made).
    pub fn create(&self, resource: &str, object: Value) -> Value {
        self.cluster.create(resource, object).unwrap()
    }

    /// Evicts a Pod as the kubelet does under node pressure: marks it as a disruption
    /// target being deleted, stops its container, then deletes it.
    pub async fn evict(&self, name: &str) {
        let uid = self.get("pods", name).unwrap()["metadata"]["uid"].clone();
        let marked = self.cluster.modify_pod(name, &uid, |pod| {
            pod["metadata"]["deletionTimestamp"] = json!(now());
            pod["status"]["conditions"] = json!([{
                "type": "DisruptionTarget", "status": "True", "reason": "TerminationByKubelet",
                "message": "The node was low on resource: memory.",
            }]);
        });
        assert!(marked, "no Pod {name} to evict");
        let _ = Command::new("docker")
            .args(["stop", "-t", "1", &self.container(name)])
            .output()
            .await;
        // That Pod, not one made anew meanwhile.
        if self
            .get("pods", name)
            .is_some_and(|pod| pod["metadata"]["uid"] == uid)
        {
            self.cluster.delete("pods", name);
        }
    }

    /// The engine container running a Pod.
    pub fn container(&self, pod: &str) -> String {
        let pod = self.get("pods", pod).expect("the Pod exists");
        self.cluster.container(&pod)
    }
}

impl Drop for FakeCluster {
    fn drop(&mut self) {
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

    /// Changes a Pod's status, if that Pod (that very one: `uid`) still exists.
    fn set_pod_status(&self, name: &str, uid: &Value, status: Value) {
        self.modify_pod(name, uid, |pod| pod["status"] = status);
    }

    /// Changes a Pod, if that Pod (that very one: `uid`) still exists; says whether it did.
    fn modify_pod(&self, name: &str, uid: &Value, change: impl FnOnce(&mut Value)) -> bool {
        let mut objects = self.objects.lock().unwrap();
        let version = objects.version + 1;
        let key = ("pods".to_owned(), name.to_owned());
        let Some(pod) = objects
            .items
            .get_mut(&key)
            .filter(|p| p["metadata"]["uid"] == *uid)
        else {
            return false;
        };
        change(pod);
        pod["metadata"]["resourceVersion"] = json!(version.to_string());
        let pod = pod.clone();
        objects.version = version;
        self.record(&mut objects, "pods", "MODIFIED", pod);
        true
    }
}

fn kind_of(resource: &str) -> Option<&'static str> {
    match resource {
        "pods" => Some("Pod"),
        "secrets" => Some("Secret"),
        "persistentvolumeclaims" => Some("PersistentVolumeClaim"),
        _ => None,
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A `Status` error body, as the API server sends one.
fn status(code: u16, reason: &str, message: &str) -> Response {
    let body = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "message": message, "reason": reason, "code": code,
    });
    (StatusCode::from_u16(code).unwrap(), Json(body)).into_response()
}

async fn authenticate(
    headers: HeaderMap,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let expected = format!("Bearer {TOKEN}");
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return status(401, "Unauthorized", "Unauthorized");
    }
    next.run(request).await
}

async fn version() -> Json<Value> {
    Json(json!({
        "major": "1", "minor": "33", "gitVersion": "v1.33.0-fake", "gitCommit": "fake",
        "gitTreeState": "clean", "buildDate": now(), "goVersion": "go1.24", "compiler": "gc",
        "platform": "linux/amd64",
    }))
}

/// `k=v,k2=v2` (equality only, which is all the driver asks).
fn matches(selector: Option<&String>, object: &Value) -> bool {
    selector.is_none_or(|selector| {
        selector.split(',').filter(|s| !s.is_empty()).all(|term| {
            let (key, value) = term.split_once('=').unwrap_or((term, ""));
            object["metadata"]["labels"][key].as_str() == Some(value)
        })
    })
}

type Params = Query<BTreeMap<String, String>>;

async fn list_or_watch(
    State(cluster): State<Arc<Cluster>>,
    Path((ns, resource)): Path<(String, String)>,
    Query(params): Params,
) -> Response {
    let Some(kind) = kind_of(&resource).filter(|_| ns == NAMESPACE) else {
        return status(404, "NotFound", "no such resource");
    };
    let selector = params.get("labelSelector").cloned();
    if params.get("watch").map(String::as_str) == Some("true") {
        return watch(cluster, resource, selector, &params);
    }
    let objects = cluster.objects.lock().unwrap();
    let items: Vec<Value> = objects
        .items
        .iter()
        .filter(|((r, _), object)| *r == resource && matches(selector.as_ref(), object))
        .map(|(_, object)| object.clone())
        .collect();
    Json(json!({
        "apiVersion": "v1", "kind": format!("{kind}List"),
        "metadata": {"resourceVersion": objects.version.to_string()},
        "items": items,
    }))
    .into_response()
}

/// The changes after `resourceVersion`, then live ones, until `timeoutSeconds`.
fn watch(
    cluster: Arc<Cluster>,
    resource: String,
    selector: Option<String>,
    params: &BTreeMap<String, String>,
) -> Response {
    let since: u64 = params
        .get("resourceVersion")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let timeout: u64 = params
        .get("timeoutSeconds")
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let (past, live) = {
        let objects = cluster.objects.lock().unwrap();
        let past: Vec<Change> = objects
            .history
            .iter()
            .filter(|c| c.version > since)
            .cloned()
            .collect();
        (past, cluster.changes.subscribe())
    };
    let live = tokio_stream::wrappers::BroadcastStream::new(live).filter_map(|c| async { c.ok() });
    let lines = futures::stream::iter(past)
        .chain(live)
        .filter(move |c| {
            let wanted = c.resource == resource && matches(selector.as_ref(), &c.object);
            async move { wanted }
        })
        .map(|c| {
            let line = json!({"type": c.kind, "object": c.object}).to_string() + "\n";
            Ok::<_, std::convert::Infallible>(line)
        })
        .take_until(tokio::time::sleep(Duration::from_secs(timeout)));
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from_stream(lines))
        .unwrap()
}

async fn create(
    State(cluster): State<Arc<Cluster>>,
    Path((ns, resource)): Path<(String, String)>,
    Json(object): Json<Value>,
) -> Response {
    if ns != NAMESPACE {
        return status(404, "NotFound", "no such namespace");
    }
    match cluster.create(&resource, object) {
        Ok(object) => (StatusCode::CREATED, Json(object)).into_response(),
        Err((code, reason, message)) => status(code, reason, &message),
    }
}

async fn read(
    State(cluster): State<Arc<Cluster>>,
    Path((_, resource, name)): Path<(String, String, String)>,
) -> Response {
    match cluster.get(&resource, &name) {
        Some(object) => Json(object).into_response(),
        None => status(404, "NotFound", &format!("{resource} \"{name}\" not found")),
    }
}

async fn delete(
    State(cluster): State<Arc<Cluster>>,
    Path((_, resource, name)): Path<(String, String, String)>,
) -> Response {
    match cluster.delete(&resource, &name) {
        Some(object) => Json(object).into_response(),
        None => status(404, "NotFound", &format!("{resource} \"{name}\" not found")),
    }
}

async fn logs(
    State(cluster): State<Arc<Cluster>>,
    Path((_, name)): Path<(String, String)>,
    Query(params): Params,
) -> Response {
    let tail = params.get("tailLines").cloned().unwrap_or_else(|| "all".into());
    let Some(pod) = cluster.get("pods", &name) else {
        return status(404, "NotFound", &format!("pods \"{name}\" not found"));
    };
    let container = cluster.container(&pod);
    match Command::new("docker")
        .args(["logs", "--tail", &tail, &container])
        .output()
        .await
    {
        Ok(out) if out.status.success() => {
            let mut text = out.stdout;
            text.extend(out.stderr);
            text.into_response()
        }
        _ => status(404, "NotFound", &format!("pods \"{name}\" not found")),
    }
}

/// Runs every new Pod as a container and stops the container of every deleted one.
async fn kubelet(cluster: Arc<Cluster>) {
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

async fn docker(args: &[String]) -> Result<String, String> {
    let out = Command::new("docker")
        .args(args)
        .output()
        .await
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
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
            if cluster.get("persistentvolumeclaims", claim).is_none() {
                let message = format!("persistentvolumeclaim \"{claim}\" not found");
                return cluster.set_pod_status(&name, &uid, waiting("CreateContainerConfigError", &message));
            }
            let volume = format!("{}-{claim}", cluster.id);
            let _ = docker(&[
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
    let started = match docker(&args).await {
        Ok(_) => docker(&["start".into(), container.clone()]).await,
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
