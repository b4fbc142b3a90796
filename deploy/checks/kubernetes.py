"""Checks deploy/kubernetes against what the services need and what an operator expects.

Schema validation is kubernetes-validate's job (run by kubernetes.sh); this checks what a
schema cannot: every workload has probes, resource requests, a memory limit and the
hardening; every secret it reads is in secrets.env.example; the manager may do exactly
what its driver does, in the namespace it is told to use, which enforces the restricted
Pod Security Standard; both namespaces deny traffic by default; MongoDB and Redis demand
the Secret's credentials and backend-api presents them; Redis persists; sandboxes run
under a RuntimeClass that places them; the ingress suits event streams and WebSockets,
and backend-api's public address is its host; backend-api and the frontend believe a
client's forwarded address from one named range, not every private one. Prints each failure and exits 1 if there is one.
"""

import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "deploy/kubernetes")
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)


kustomization = yaml.safe_load((ROOT / "kustomization.yaml").read_text())
listed = set(kustomization["resources"])
present = {p.name for p in ROOT.glob("*.yaml")} - {"kustomization.yaml"}
check(listed == present, f"kustomization resources {sorted(listed)} != files {sorted(present)}")

docs = [d for name in sorted(listed) for d in yaml.safe_load_all((ROOT / name).read_text()) if d]
by_kind = {}
for doc in docs:
    by_kind.setdefault(doc["kind"], []).append(doc)


def named(kind, name):
    found = [d for d in by_kind.get(kind, []) if d["metadata"]["name"] == name]
    check(len(found) == 1, f"expected one {kind} {name}, found {len(found)}")
    return found[0] if found else {}


secret_keys = {
    line.split("=", 1)[0]
    for line in (ROOT / "secrets.env.example").read_text().splitlines()
    if line and not line.startswith("#")
}
generated = {g["name"] for g in kustomization.get("secretGenerator", [])}
image_names = {i["name"] for i in kustomization.get("images", [])}

for workload in by_kind.get("Deployment", []) + by_kind.get("StatefulSet", []):
    name = workload["metadata"]["name"]
    pod = workload["spec"]["template"]["spec"]
    pod_security = pod.get("securityContext", {})
    check(pod_security.get("runAsNonRoot") is True, f"{name}: runAsNonRoot")
    check("seccompProfile" in pod_security, f"{name}: a seccomp profile")
    check(
        workload["spec"]["selector"]["matchLabels"].items()
        <= workload["spec"]["template"]["metadata"]["labels"].items(),
        f"{name}: the selector matches the template",
    )
    for container in pod["containers"]:
        where = f"{name}/{container['name']}"
        resources = container.get("resources", {})
        check({"cpu", "memory"} <= set(resources.get("requests", {})), f"{where}: cpu and memory requests")
        check("memory" in resources.get("limits", {}), f"{where}: a memory limit")
        check("readinessProbe" in container and "livenessProbe" in container, f"{where}: probes")
        security = container.get("securityContext", {})
        check(security.get("allowPrivilegeEscalation") is False, f"{where}: allowPrivilegeEscalation false")
        check("ALL" in security.get("capabilities", {}).get("drop", []), f"{where}: drops all capabilities")
        image = container["image"]
        check(
            not image.startswith("sandpiper-") or image in image_names,
            f"{where}: image {image} is not in kustomization images",
        )
        mounted = {m["name"] for m in container.get("volumeMounts", [])}
        volumes = {v["name"] for v in pod.get("volumes", [])}
        volumes |= {t["metadata"]["name"] for t in workload["spec"].get("volumeClaimTemplates", [])}
        check(mounted <= volumes, f"{where}: mounts {sorted(mounted - volumes)} have no volume")
        for index, var in enumerate(container.get("env", [])):
            # `$(NAME)` expands only a variable defined earlier in the list.
            earlier = {v["name"] for v in container["env"][:index]}
            for used in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", var.get("value", "")):
                check(used in earlier, f"{where}: {var['name']} uses $({used}) before it is defined")
            ref = var.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                check(ref["name"] in generated, f"{where}: secret {ref['name']} is not generated")
                check(ref["key"] in secret_keys, f"{where}: {ref['key']} is not in secrets.env.example")

backend = named("Deployment", "backend-api")
check(backend.get("spec", {}).get("replicas", 1) >= 2, "backend-api runs several replicas")

manager = named("Deployment", "sandbox-manager")
manager_pod = manager["spec"]["template"]["spec"]
env = {v["name"]: v.get("value") for v in manager_pod["containers"][0].get("env", [])}
check(env.get("SANDBOX_MANAGER_DRIVER") == "kubernetes", "the manager uses its Kubernetes driver")
sandbox_ns = env.get("SANDBOX_MANAGER_KUBERNETES__NAMESPACE")
check(manager["spec"].get("strategy", {}).get("type") == "Recreate", "one manager at a time on its records")
check(
    env.get("SANDBOX_MANAGER_SANDBOX__BROWSER_SANDBOX") == "false"
    or "SANDBOX_MANAGER_KUBERNETES__SECCOMP_PROFILE" in env,
    "the browser sandbox needs a seccomp profile on the nodes (or is off)",
)

namespace = named("Namespace", sandbox_ns or "")
check(
    namespace.get("metadata", {}).get("labels", {}).get("pod-security.kubernetes.io/enforce") == "restricted",
    f"{sandbox_ns} enforces the restricted Pod Security Standard",
)

# What KubernetesDriver calls: create/get/list/watch/delete Pods, read their logs,
# create/get/list/delete Secrets (a restart reads the Pod spec kept on one), and
# create/list/delete claims.
needed = {
    "pods": {"get", "list", "watch", "create", "delete"},
    "pods/log": {"get"},
    "secrets": {"get", "list", "create", "delete"},
    "persistentvolumeclaims": {"list", "create", "delete"},
}
role = named("Role", manager_pod["serviceAccountName"])
check(role.get("metadata", {}).get("namespace") == sandbox_ns, "the manager's Role is in the sandbox namespace")
granted = {}
for rule in role.get("rules", []):
    for resource in rule["resources"]:
        granted.setdefault(resource, set()).update(rule["verbs"])
check(granted == needed, f"the manager's Role grants {granted}, the driver needs {needed}")
binding = named("RoleBinding", manager_pod["serviceAccountName"])
check(
    any(s["name"] == manager_pod["serviceAccountName"] for s in binding.get("subjects", [])),
    "the RoleBinding names the manager's service account",
)

policies = [p for p in by_kind.get("NetworkPolicy", []) if p["metadata"]["namespace"] == sandbox_ns]
check(
    any(p["spec"]["podSelector"] == {} and set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"} for p in policies),
    "sandboxes are denied all traffic by default",
)
check(
    any(p["spec"]["podSelector"].get("matchLabels") == {"org.sandpiper.network": "internet"} for p in policies),
    "internet sandboxes (org.sandpiper.network=internet) may reach out",
)

services_policies = [p for p in by_kind.get("NetworkPolicy", []) if p["metadata"]["namespace"] == "sandpiper"]
check(
    any(
        p["spec"]["podSelector"] == {} and set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"}
        for p in services_policies
    ),
    "the services are denied all traffic by default",
)

runtime_class = named("RuntimeClass", env.get("SANDBOX_MANAGER_KUBERNETES__RUNTIME_CLASS") or "")
check(
    bool(runtime_class.get("scheduling", {}).get("nodeSelector")),
    "the sandboxes' RuntimeClass places them on the nodes that limit their pids",
)


def container_env(workload):
    container = workload.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [{}])[0]
    return container, {v["name"]: v for v in container.get("env", [])}


def from_secret(variables, name, key):
    ref = variables.get(name, {}).get("valueFrom", {}).get("secretKeyRef", {})
    return ref.get("name") in generated and ref.get("key") == key


mongodb, mongodb_env = container_env(named("StatefulSet", "mongodb"))
check(
    from_secret(mongodb_env, "MONGO_INITDB_ROOT_USERNAME", "MONGODB_USERNAME")
    and from_secret(mongodb_env, "MONGO_INITDB_ROOT_PASSWORD", "MONGODB_PASSWORD")
    and "--auth" in mongodb.get("args", []),
    "MongoDB demands the Secret's account",
)
redis_set = named("StatefulSet", "redis")
redis, redis_env = container_env(redis_set)
redis_command = " ".join(redis.get("command", []) + redis.get("args", []))
check(
    from_secret(redis_env, "REDIS_PASSWORD", "REDIS_PASSWORD") and '--requirepass "$REDIS_PASSWORD"' in redis_command,
    "Redis demands the Secret's password",
)
check(
    "--appendonly yes" in redis_command and bool(redis_set.get("spec", {}).get("volumeClaimTemplates")),
    "Redis keeps an append-only file on a claim",
)
_, backend_env = container_env(backend)
check(
    "$(MONGODB_USERNAME):$(MONGODB_PASSWORD)@" in backend_env.get("MONGODB_URI", {}).get("value", "")
    and ":$(REDIS_PASSWORD)@" in backend_env.get("REDIS_URL", {}).get("value", ""),
    "backend-api presents the stores' credentials",
)

ingress = named("Ingress", "sandpiper")
notes = ingress.get("metadata", {}).get("annotations", {})
check(int(notes.get("nginx.ingress.kubernetes.io/proxy-read-timeout", "60")) >= 3600, "long read timeouts")
check(notes.get("nginx.ingress.kubernetes.io/proxy-buffering") == "off", "unbuffered responses for SSE")
paths = {
    p["path"]: p["backend"]["service"]["name"]
    for rule in ingress.get("spec", {}).get("rules", [])
    for p in rule["http"]["paths"]
}
check(paths.get("/api") == "backend-api" and paths.get("/") == "frontend", f"ingress paths {paths}")
# E2B's SDKs: the E2B-compatible API, and the signed file links they build at the root.
check(paths.get("/e2b") == "backend-api" and paths.get("/files") == "backend-api", f"E2B's paths {paths}")
# The address backend-api gives out (webhook URLs) is the one the ingress serves.
hosts = [rule.get("host") for rule in ingress.get("spec", {}).get("rules", [])]
public_url = backend_env.get("BACKEND_PUBLIC_URL", {}).get("value", "")
check(public_url in [f"https://{host}" for host in hosts], f"BACKEND_PUBLIC_URL {public_url!r} is not the ingress's https://{hosts}")

# Who may name a client's address: one range, read by backend-api and the frontend from one
# place, not every private range (a Pod the policies let in could then forge it).
proxies = next(
    (g for g in kustomization.get("configMapGenerator", []) if g.get("name") == "sandpiper-proxies"), {}
)
trusted = dict(literal.split("=", 1) for literal in proxies.get("literals", [])).get("TRUSTED_PROXIES", "")
check(
    bool(trusted) and not {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"} & set(trusted.replace(",", " ").split()),
    f"TRUSTED_PROXIES {trusted!r} is one range, not every private one",
)
_, frontend_env = container_env(named("Deployment", "frontend"))
for variables, name in [(backend_env, "BACKEND_HTTP__TRUSTED_PROXIES"), (frontend_env, "TRUSTED_PROXIES")]:
    ref = variables.get(name, {}).get("valueFrom", {}).get("configMapKeyRef", {})
    check(ref == {"name": "sandpiper-proxies", "key": "TRUSTED_PROXIES"}, f"{name} is not read from sandpiper-proxies")

for failure in failures:
    print(f"deploy/kubernetes: {failure}", file=sys.stderr)
if failures:
    sys.exit(1)
print(f"deploy/kubernetes: {len(docs)} objects in {len(listed)} files pass the checks")
