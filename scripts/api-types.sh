#!/usr/bin/env bash
# Writes the backend's OpenAPI document to docs/openapi.json and generates the front
# end's API types from it (frontend/src/api/generated). Run it after changing a type
# the API sends or takes; the backend's and the front end's tests fail while either
# file is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --locked -p backend-api -- openapi >docs/openapi.json
(cd frontend && npx --no-install openapi-ts >/dev/null)
echo "docs/openapi.json and frontend/src/api/generated are up to date"
