#!/usr/bin/env bash
# Sandpiper for development, from a fresh clone on Debian or Ubuntu:
#
#   ./dev.sh
#
#  1. Installs what is missing when run as root (Docker engine, build tools, debootstrap,
#     Rust through rustup, Node.js when the distribution's is new enough), or says
#     exactly what to install otherwise.
#  2. Starts the Docker engine if it does not answer, builds the sandbox image, the
#     services (debug) and the front end's dependencies.
#  3. Runs sandbox-manager and backend-api (embedded store: no MongoDB or Redis) and the
#     Vite dev server in front of them, then prints the URL.
#  4. Hot reload: Vite reloads the app as you edit frontend/; a change under services/
#     or crates/ rebuilds the services and restarts the ones that changed.
#  5. Ctrl-C stops everything it started and removes the sandboxes, their volumes and
#     networks (namespace "dev"): nothing is left running but a Docker engine it had to
#     start, which it leaves running for the next start and says so.
#
# The model: export LLM_BASE_URL, LLM_API_KEY and LLM_MODEL, or put them in .env.dev
# (read when present, never committed). Ports: DEV_PORT (app, 5173), DEV_BACKEND_PORT
# (8000), DEV_MANAGER_PORT (8090). State lives in .dev/ (delete it to start afresh).
set -euo pipefail
cd "$(dirname "$0")"
root="$PWD"

app_port="${DEV_PORT:-5173}"
backend_port="${DEV_BACKEND_PORT:-8000}"
manager_port="${DEV_MANAGER_PORT:-8090}"
namespace=dev
state="$root/.dev"

log() { printf '\033[1mdev.sh:\033[0m %s\n' "$*" >&2; }
die() { printf 'dev.sh: error: %s\n' "$*" >&2; exit 1; }
[[ -f .env.dev ]] && { set -a; . ./.env.dev; set +a; }

# --- 1. Prerequisites -------------------------------------------------------------------
. scripts/prerequisites.sh
need_packages docker:docker.io dockerd:docker.io cc:build-essential pkg-config:pkg-config \
    curl:curl git:git debootstrap:debootstrap
need_rust
need_node
need_docker_engine

for port in "$app_port" "$backend_port" "$manager_port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        die "port $port is taken (another ./dev.sh?); stop that or set DEV_PORT, DEV_BACKEND_PORT, DEV_MANAGER_PORT"
    fi
done

# --- 2. Builds --------------------------------------------------------------------------
# Sources changed after this moment are rebuilt by the reload loop.
mkdir -p "$state"
touch "$state/built"
log "sandbox image"
sandbox-image/build.sh
log "building the services"
build_services() {
    cargo build --locked --workspace --bin backend-api --bin sandbox-manager --message-format=json-render-diagnostics |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p'
}
binaries="$(build_services)" || die "cargo build failed"
binary() { grep "/$1\$" <<<"$binaries" | tail -n 1; }
log "front end dependencies"
need_npm_packages frontend

# --- 3. Run -----------------------------------------------------------------------------
mkdir -p "$state/logs"
manager_token="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
declare -A pids=()

start_manager() {
    SANDBOX_MANAGER_PORT="$manager_port" SANDBOX_MANAGER_TOKEN="$manager_token" \
        SANDBOX_MANAGER_NAMESPACE="$namespace" SANDBOX_MANAGER_DATA_DIR="$state/manager" \
        SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK="sandpiper-$namespace-internet" \
        SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK="sandpiper-$namespace-offline" \
        SANDBOX_MANAGER_POOL__SIZE="${DEV_POOL_SIZE:-1}" \
        setsid "$(binary sandbox-manager)" >>"$state/logs/sandbox-manager.log" 2>&1 &
    pids[sandbox-manager]=$!
}
start_backend() {
    BACKEND_PORT="$backend_port" BACKEND_DATA_DIR="$state/backend" \
        SANDBOX_MANAGER_URL="http://127.0.0.1:$manager_port" SANDBOX_MANAGER_TOKEN="$manager_token" \
        MONGODB_URI='' REDIS_URL='' \
        setsid "$(binary backend-api)" >>"$state/logs/backend-api.log" 2>&1 &
    pids[backend-api]=$!
}
wait_http() { # url, name, pid
    for _ in $(seq 1 150); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || die "$2 exited; see $state/logs/$2.log"
        sleep 0.2
    done
    die "$2 did not answer at $1; see $state/logs/$2.log"
}

stopping=false
stop_all() {
    $stopping && return
    stopping=true
    # A second Ctrl-C must not cut the clean-up short, nor a failing step end it.
    trap '' INT TERM
    set +e
    log "stopping"
    for name in "${!pids[@]}"; do kill -TERM "${pids[$name]}" 2>/dev/null; done
    local deadline=$((SECONDS + 15))
    for name in "${!pids[@]}"; do
        while kill -0 "${pids[$name]}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
        kill -KILL "${pids[$name]}" 2>/dev/null
    done
    # Only our services: a bare `wait` would also wait for a Docker engine started above.
    ((${#pids[@]} == 0)) || wait "${pids[@]}" 2>/dev/null
    # Sandboxes of sessions outlive a manager on purpose (it reconciles them on start);
    # a development run removes them with everything else.
    local containers volumes
    containers="$(docker ps -aq --filter "label=org.sandpiper.manager=$namespace")"
    [[ -z "$containers" ]] || docker rm -f $containers >/dev/null
    volumes="$(docker volume ls -q --filter "label=org.sandpiper.manager=$namespace")"
    [[ -z "$volumes" ]] || docker volume rm -f $volumes >/dev/null
    local networks
    networks="$(docker network ls -q --filter "name=^sandpiper-$namespace-")"
    [[ -z "$networks" ]] || docker network rm $networks >/dev/null
    if [[ -n "$(docker ps -aq --filter "label=org.sandpiper.manager=$namespace")" ]]; then
        log "some sandboxes could not be removed: docker ps --filter label=org.sandpiper.manager=$namespace"
    else
        log "stopped; nothing left running"
    fi
    if $PREREQ_STARTED_DOCKERD; then
        log "the Docker engine dev.sh started keeps running (stop it with: pkill dockerd)"
    fi
}
trap 'stop_all; exit 130' INT TERM HUP
trap stop_all EXIT

start_manager
wait_http "http://127.0.0.1:$manager_port/health" sandbox-manager "${pids[sandbox-manager]}"
start_backend
wait_http "http://127.0.0.1:$backend_port/health" backend-api "${pids[backend-api]}"
(cd frontend && BACKEND_URL="http://127.0.0.1:$backend_port" exec setsid node node_modules/vite/bin/vite.js \
    --host 127.0.0.1 --port "$app_port" --strictPort >>"$state/logs/frontend.log" 2>&1) &
pids[frontend]=$!
wait_http "http://127.0.0.1:$app_port/" frontend "${pids[frontend]}"

cat >&2 <<READY

  Sandpiper is running at http://127.0.0.1:$app_port/
  API http://127.0.0.1:$backend_port (docs at /docs), sandbox-manager 127.0.0.1:$manager_port
  Logs: .dev/logs/*.log

READY
if [[ -z "${LLM_BASE_URL:-}" ]]; then
    cat >&2 <<'LLM'
  No model is configured, so the agent cannot answer yet. Stop with Ctrl-C and run e.g.
    LLM_BASE_URL=https://api.openai.com/v1 LLM_API_KEY=sk-... LLM_MODEL=gpt-4o ./dev.sh
  or put those three lines in .env.dev (Ollama: LLM_BASE_URL=http://127.0.0.1:11434/v1,
  no key). README, "LLM providers", lists more.

LLM
fi
log "watching services/ and crates/ for changes; Ctrl-C stops everything"

# --- 4. Hot reload of the services ------------------------------------------------------
fingerprint() { find services crates Cargo.toml Cargo.lock -type f \( -name '*.rs' -o -name '*.toml' -o -name '*.lock' \) -newer "$state/built" 2>/dev/null | head -n 1; }
binary_stamp() { stat -c %Y "$(binary "$1")"; }
declare -A stamps=([backend-api]="$(binary_stamp backend-api)" [sandbox-manager]="$(binary_stamp sandbox-manager)")
restart() {
    kill -TERM "${pids[$1]}" 2>/dev/null || true
    wait "${pids[$1]}" 2>/dev/null || true
    if [[ "$1" == sandbox-manager ]]; then start_manager; else start_backend; fi
    log "$1 restarted"
}
while true; do
    for name in sandbox-manager backend-api; do
        if [[ -n "${stamps[$name]}" ]] && ! kill -0 "${pids[$name]}" 2>/dev/null; then
            log "$name stopped (see .dev/logs/$name.log); it starts again after the next change"
            stamps[$name]=""
        fi
    done
    kill -0 "${pids[frontend]}" 2>/dev/null || die "the Vite dev server stopped; see .dev/logs/frontend.log"
    if [[ -n "$(fingerprint)" ]]; then
        touch "$state/built"
        log "change seen: rebuilding"
        if binaries="$(build_services 2>>"$state/logs/build.log")" && [[ -n "$binaries" ]]; then
            for name in sandbox-manager backend-api; do
                [[ "$(binary_stamp "$name")" != "${stamps[$name]}" ]] || continue
                stamps[$name]="$(binary_stamp "$name")"
                restart "$name"
            done
        else
            log "the build failed (see .dev/logs/build.log); still running the last good one"
        fi
    fi
    sleep 1
done
