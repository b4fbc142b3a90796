#!/usr/bin/env bash
# The whole test suite: every crate's unit and integration tests, against real processes,
# files and sockets; then backend-api's storage-dependent suites once more against
# MongoDB (wire protocol) and Redis instead of the embedded store; then the front end's
# component and end-to-end tests; then the deployment (images, Compose, dev.sh). Extra arguments go to `cargo test` (e.g. a test name
# filter).
set -euo pipefail
cd "$(dirname "$0")"

# Test-only MongoDB-wire and Redis servers on their own ports, started when not running.
MONGODB_TEST_PORT="${MONGODB_TEST_PORT:-27117}"
REDIS_TEST_PORT="${REDIS_TEST_PORT:-6479}"
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() {
    for _ in $(seq 1 100); do answers "$1" && return 0; sleep 0.1; done
    echo "$2 did not start on port $1" >&2
    return 1
}
for tool in secantusd-py redis-server; do
    command -v "$tool" >/dev/null || { echo "$tool is required: see README (Testing)" >&2; exit 1; }
done
if ! answers "$MONGODB_TEST_PORT"; then
    setsid secantusd-py --host 127.0.0.1 --port "$MONGODB_TEST_PORT" --storage-path :memory: \
        --log-level WARNING </dev/null >/dev/null 2>&1 &
    wait_for "$MONGODB_TEST_PORT" "the MongoDB-wire test server"
fi
if ! answers "$REDIS_TEST_PORT"; then
    redis-server --bind 127.0.0.1 --port "$REDIS_TEST_PORT" --save "" --appendonly no --daemonize yes >/dev/null
    wait_for "$REDIS_TEST_PORT" "the Redis test server"
fi

cargo test --workspace --locked "$@"

BACKEND_TEST_STORES=mongodb-redis \
TEST_MONGODB_URI="mongodb://127.0.0.1:$MONGODB_TEST_PORT/?directConnection=true" \
TEST_REDIS_URL="redis://127.0.0.1:$REDIS_TEST_PORT/" \
    cargo test -p backend-api --locked --test auth --test events --test sessions --test agent --test agent_sandbox --test vnc --test terminal "$@"

# The front end: component tests, type check and production build, the bundle budget,
# then the end-to-end tests — the built app served by the backend-api binary built above,
# the sandbox-manager and real sandboxes, Debian's Chromium driven by playwright-core.
(
    cd frontend
    npm ci --no-audit --no-fund --loglevel=error
    npm test
    npm run build
    npm run size
    npm run e2e
)

# The deployment: the Kubernetes manifests checked, every image (./build.sh), the Compose
# stack brought up and walked through its one published port, ./dev.sh started, used,
# reloaded and stopped with Ctrl-C.
deploy/checks/kubernetes.sh
./build.sh
deploy/checks/compose.sh
deploy/checks/dev.sh
