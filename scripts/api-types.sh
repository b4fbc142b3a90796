#!/usr/bin/env bash
# Writes the backend's OpenAPI document to docs/openapi.json, generates the front end's API
# types from it (frontend/src/api/generated) and the API clients (clients/, through
# scripts/clients.sh). Run it after changing a type the API sends or takes; the backend's
# and the front end's tests, and the clients' check, fail while any of them is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --locked -p backend-api -- openapi >docs/openapi.json
(cd frontend && npx --no-install openapi-ts >/dev/null)
scripts/clients.sh >/dev/null
echo "docs/openapi.json, frontend/src/api/generated and the clients under clients/ are up to date"
