#!/usr/bin/env bash
# Checks deploy/kubernetes without a cluster: every manifest against the Kubernetes API
# schema of the oldest version the manager's client is built for (kubernetes-validate,
# strict: unknown fields are errors), the checks in kubernetes.py, and, where kubectl is
# installed, the kustomization rendered as `kubectl apply -k` would and validated again.
set -euo pipefail
cd "$(dirname "$0")/../.."

KUBERNETES_VERSION=1.33.0
command -v kubernetes-validate >/dev/null || {
    echo "kubernetes-validate is required: python3 -m pip install kubernetes-validate" >&2
    exit 1
}

manifests=()
for file in deploy/kubernetes/*.yaml; do
    [[ $file == */kustomization.yaml ]] || manifests+=("$file")
done
kubernetes-validate --strict --quiet -k "$KUBERNETES_VERSION" "${manifests[@]}"
python3 deploy/checks/kubernetes.py deploy/kubernetes

if command -v kubectl >/dev/null; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cp -r deploy/kubernetes "$work/"
    # The example with every value filled in, as an operator would.
    sed -E 's/^([A-Z_]+)=$/\1=check-value/' deploy/kubernetes/secrets.env.example \
        > "$work/kubernetes/secrets.env"
    kubectl kustomize "$work/kubernetes" > "$work/rendered.yaml"
    kubernetes-validate --strict --quiet -k "$KUBERNETES_VERSION" "$work/rendered.yaml"
    # The images point at the registry, and the Deployments at the generated Secret.
    if grep -qE 'image: sandpiper-' "$work/rendered.yaml"; then
        echo "deploy/kubernetes: an image was not rewritten by kustomization images" >&2
        exit 1
    fi
    secret=$(grep -oE 'name: sandpiper-[a-z0-9]{10}$' "$work/rendered.yaml" | head -1 | cut -d' ' -f2)
    [[ -n $secret ]] && grep -q "name: $secret" <(grep -A2 secretKeyRef "$work/rendered.yaml") || {
        echo "deploy/kubernetes: the Deployments do not read the generated Secret" >&2
        exit 1
    }
    echo "deploy/kubernetes: rendered with $(kubectl version --client 2>/dev/null | grep -i kustomize) and valid"
else
    echo "deploy/kubernetes: kubectl not installed; the kustomization was not rendered"
fi
