#!/usr/bin/env bash
# Vendors the Scalar API reference that backend-api serves at /docs, so the page loads
# nothing from another origin: the standalone bundle of one pinned version of the npm
# package (npm checks it against the registry's integrity hash), gzipped as it is sent.
# To upgrade, change VERSION, run this, and check /docs in a browser for CSP violations.
set -euo pipefail
VERSION=1.72.1
cd "$(dirname "$0")/.."
out=services/backend-api/assets/docs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "@scalar/api-reference@$VERSION" --silent >/dev/null && tar xzf ./*.tgz)
gzip -9 -n -c "$work/package/dist/browser/standalone.js" > "$out/scalar.js.gz"
echo "@scalar/api-reference $VERSION (MIT), dist/browser/standalone.js" > "$out/SCALAR_VERSION"
echo "vendored @scalar/api-reference $VERSION: $(wc -c < "$out/scalar.js.gz") bytes gzipped"
