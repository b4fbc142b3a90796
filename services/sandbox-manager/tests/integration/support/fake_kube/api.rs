//! The fake API server's HTTP side: routes, bearer tokens, `Status` errors, lists and
//! watches by label selector, reads, deletions (graceful for Pods when asked, a held
//! claim kept until its Pods are gone) and Pod logs.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::process::Command;

use super::{kind_of, now, Change, Cluster, Deletion, NAMESPACE, TOKEN};

/// The API server's routes.
pub(super) fn router(cluster: Arc<Cluster>) -> Router {
    Router::new()
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
        .with_state(cluster)
}

impl Cluster {
    /// Deletes an object as the API server is asked to: a Pod as [`Deletion`] says; the
    /// object as it now is, or as it was.
    fn delete_on_request(self: &Arc<Self>, resource: &str, name: &str) -> Option<Value> {
        if resource == "persistentvolumeclaims" {
            return self.delete_claim(name);
        }
        let deletion = *self.deletion.lock().unwrap();
        if resource != "pods" || deletion == Deletion::AtOnce {
            return self.delete(resource, name);
        }
        let pod = self.get("pods", name)?;
        if pod["metadata"]["deletionTimestamp"].is_string() {
            return Some(pod);
        }
        let uid = pod["metadata"]["uid"].clone();
        let grace = pod["spec"]["terminationGracePeriodSeconds"]
            .as_u64()
            .unwrap_or(30);
        self.modify("pods", name, &uid, |pod| {
            pod["metadata"]["deletionTimestamp"] = json!(now());
            pod["metadata"]["deletionGracePeriodSeconds"] = json!(grace);
        });
        if deletion == Deletion::AfterGracePeriod {
            let (cluster, name) = (self.clone(), name.to_owned());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(grace)).await;
                cluster.delete_pod(&name, &uid);
            });
        }
        self.get("pods", name)
    }

    /// Deletes a claim, which a Pod still holding it keeps as terminating (the
    /// `kubernetes.io/pvc-protection` finalizer) until the kubelet's sweep once it is gone.
    fn delete_claim(&self, name: &str) -> Option<Value> {
        let claim = self.get("persistentvolumeclaims", name)?;
        if self.holders(name, &Value::Null).is_empty() {
            return self.delete("persistentvolumeclaims", name);
        }
        self.modify(
            "persistentvolumeclaims",
            name,
            &claim["metadata"]["uid"],
            |claim| {
                claim["metadata"]["deletionTimestamp"] = json!(now());
                claim["metadata"]["finalizers"] = json!(["kubernetes.io/pvc-protection"]);
            },
        );
        self.get("persistentvolumeclaims", name)
    }
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
    match cluster.delete_on_request(&resource, &name) {
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
