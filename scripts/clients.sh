#!/usr/bin/env bash
# Generates the API clients under clients/ from the backend's OpenAPI document
# (docs/openapi.json, written by scripts/api-types.sh): the Python package in clients/python
# with openapi-python-client, the TypeScript one's sources in clients/typescript/src/generated
# with @hey-api/openapi-ts. Run it after the document changed, and commit what it writes.
#
#   scripts/clients.sh           regenerate both in place (clients/python/tests is kept)
#   scripts/clients.sh --check   generate into a temporary folder and fail, naming the files,
#                                when the committed clients are not what the document makes
#
# The generators are pinned (clients/requirements.txt, clients/typescript/package-lock.json)
# and installed on first use: the Python ones into a virtual environment in the user's
# cache, the npm ones with `npm ci` in clients/typescript.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'clients.sh: error: %s\n' "$*" >&2; exit 1; }
. scripts/prerequisites.sh

mode=write
case "${1:-}" in
    "") ;;
    --check) mode=check ;;
    *) die "unknown argument $1 (scripts/clients.sh [--check])" ;;
esac

need_node
venv="$(need_pip_venv clients-venv clients/requirements.txt)"
need_npm_packages clients/typescript

out="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-clients.XXXXXX")"
trap 'rm -rf "$out"' EXIT

# Python. The generator reads the document in the form it handles whole (see
# clients/python-document.py) and runs the pinned ruff on its output; when it left something
# out it says so ("Warning(s) encountered while generating"), which fails here rather than
# shipping a client with pieces missing.
"$venv/bin/python" clients/python-document.py docs/openapi.json >"$out/document.json"
if ! PATH="$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path "$out/document.json" \
    --config clients/python-config.yaml --meta pdm --output-path "$out/python" >"$out/python.log" 2>&1 ||
    grep -q 'encountered while generating' "$out/python.log"; then
    cat "$out/python.log" >&2
    die "openapi-python-client did not generate the whole client (above)"
fi
rm -rf "$out/python/.ruff_cache"
# The generator has no header setting: each Python file gets one here, before the check.
find "$out/python" -name '*.py' -exec sed -i \
    '1i # Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.' {} +

# TypeScript: clients/typescript/openapi-ts.config.ts, into the temporary folder.
(cd clients/typescript && CLIENT_OUTPUT="$out/typescript" npx --no-install openapi-ts --silent) ||
    die "@hey-api/openapi-ts failed"

if [[ $mode == check ]]; then
    stale=0
    diff -r --brief --exclude=tests --exclude=__pycache__ --exclude=.pytest_cache \
        "$out/python" clients/python >&2 || stale=1
    diff -r --brief "$out/typescript" clients/typescript/src/generated >&2 || stale=1
    ((stale == 0)) || die "the clients under clients/ are not what docs/openapi.json makes (files above): run scripts/clients.sh and commit the result"
    echo "the clients under clients/ match docs/openapi.json"
    exit 0
fi

# Everything of clients/python but the hand-written tests is the generator's.
mkdir -p clients/python
find clients/python -mindepth 1 -maxdepth 1 ! -name tests -exec rm -rf {} +
cp -R "$out/python/." clients/python/
rm -rf clients/typescript/src/generated
cp -R "$out/typescript" clients/typescript/src/generated
echo "clients/python and clients/typescript/src/generated are up to date"
