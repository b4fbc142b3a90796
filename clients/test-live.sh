#!/usr/bin/env bash
# The generated clients against a real backend-api: clients/python/tests with pytest (the
# package installed from clients/python as a user would) and clients/typescript/test with
# node's test runner (the package built, imported by its name).
#
#   clients/test-live.sh                  starts a backend-api of its own, runs both, stops it
#   SANDPIPER_URL=http://… clients/test-live.sh
#                                         against one already running (SANDPIPER_EMAIL and
#                                         SANDPIPER_PASSWORD to sign in, else it registers)
#
# Its own backend-api is the binary cargo built (SANDPIPER_BIN_DIR, else
# $CARGO_TARGET_DIR/debug or target/debug; `cargo build -p backend-api` makes it) on a free
# port of 127.0.0.1, with the embedded store in a temporary folder, open registration and
# the agent off: a message is stored and no run answers it, so no model or sandbox is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'test-live.sh: error: %s\n' "$*" >&2; exit 1; }
. scripts/prerequisites.sh

need_node
venv="$(need_pip_venv clients-venv clients/requirements.txt)"
need_npm_packages clients/typescript

work="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-clients-live.XXXXXX")"
backend=""
finish() {
    local status=$?
    if [[ -n "$backend" ]]; then
        kill "$backend" 2>/dev/null || true
        wait "$backend" 2>/dev/null || true
        if ((status != 0)); then
            printf '\n---- backend-api log ----\n' >&2
            tail -n 50 "$work/backend.log" >&2
        fi
    fi
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT

if [[ -z "${SANDPIPER_URL:-}" ]]; then
    binary="${SANDPIPER_BIN_DIR:-${CARGO_TARGET_DIR:-target}/debug}/backend-api"
    [[ -x "$binary" ]] || die "$binary is missing: run \`cargo build -p backend-api\` first (or set SANDPIPER_BIN_DIR)"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # Only these settings: none of the caller's (a MongoDB, a model, a production secret check).
    env -i PATH="$PATH" HOME="$HOME" RUST_LOG=warn \
        BACKEND_ENVIRONMENT=development BACKEND_HOST=127.0.0.1 BACKEND_PORT="$port" \
        BACKEND_DATA_DIR="$work/data" BACKEND_AUTH__MODE=password BACKEND_AUTH__REGISTRATION=open \
        BACKEND_AGENT__ENABLED=false \
        "$binary" >"$work/backend.log" 2>&1 &
    backend=$!
    export SANDPIPER_URL="http://127.0.0.1:$port"
    ready() { python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$SANDPIPER_URL/ready" 2>/dev/null; }
    for _ in $(seq 1 150); do
        ready && break
        kill -0 "$backend" 2>/dev/null || die "backend-api exited at start"
        sleep 0.2
    done
    ready || die "backend-api did not answer $SANDPIPER_URL/ready within 30 s"
    log "backend-api at $SANDPIPER_URL"
fi

log "Python client (pytest)"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --target "$work/site" ./clients/python ||
    die "clients/python does not install"
PYTHONPATH="$work/site" PYTHONDONTWRITEBYTECODE=1 "$venv/bin/pytest" -p no:cacheprovider clients/python/tests

log "TypeScript client (node --test)"
(cd clients/typescript && npm run --silent test:live)
