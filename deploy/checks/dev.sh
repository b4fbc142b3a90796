#!/usr/bin/env bash
# Checks ./dev.sh the way a developer uses it: start it, wait for its URL, walk the app
# through the Vite dev server (its proxy passes the API and WebSockets on to backend-api;
# the walk starts a sandbox), change a service's source and see it rebuilt and restarted,
# then Ctrl-C (SIGINT to its process group) and check it stops cleanly and leaves nothing:
# no process on its ports, no container, volume or network of the "dev" namespace.
#
# DEV_CHECK_COLD_ENGINE=1 (root, no systemd) first stops the Docker engine, so dev.sh
# has to start it as on a fresh machine: its Ctrl-C must then neither wait for the
# engine nor stop it, and must say that it keeps running.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/checks/lib.sh

log() { printf 'dev-check: %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; [[ -f "$output" ]] && tail -n 30 "$output" >&2; exit 1; }
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
export DEV_PORT="$(free_port)" DEV_BACKEND_PORT="$(free_port)" DEV_MANAGER_PORT="$(free_port)"
# The walk registers an account of its own, and .dev/ may hold people already: by
# default only the first account may register without an invite.
export BACKEND_AUTH__REGISTRATION=open
output="$(mktemp "${TMPDIR:-/tmp}/sandpiper-dev-check.XXXXXX")"

cold_engine=false
if [[ "${DEV_CHECK_COLD_ENGINE:-}" == 1 ]]; then
    log "stopping the Docker engine, so dev.sh starts it"
    pkill -x dockerd || true
    for _ in $(seq 1 120); do pgrep -x dockerd >/dev/null || break; sleep 0.5; done
    pgrep -x dockerd >/dev/null && fail "the Docker engine did not stop"
    cold_engine=true
fi

log "starting ./dev.sh (app on $DEV_PORT)"
# As a terminal runs a foreground command: in a process group of its own, which Ctrl-C
# signals as a whole, and with SIGINT at its default (a script's plain `&`, or a caller
# started in the background, would leave it ignored, and a shell cannot trap a signal
# it started with ignored).
set -m
env --default-signal=INT ./dev.sh </dev/null >"$output" 2>&1 &
set +m
pid=$!
# A dev.sh that did not stop is stopped with TERM, which it also cleans up after.
trap 'kill -TERM -- -$pid 2>/dev/null || true; rm -f "$output"' EXIT
for _ in $(seq 1 1200); do
    grep -q "Sandpiper is running at" "$output" && break
    kill -0 "$pid" 2>/dev/null || fail "dev.sh exited before it was ready"
    sleep 0.5
done
grep -q "Sandpiper is running at http://127.0.0.1:$DEV_PORT/" "$output" || fail "dev.sh printed no URL"
grep -q "No model is configured" "$output" || fail "dev.sh did not say how to set the model"

log "walking the app through the dev server"
node --experimental-websocket --no-warnings deploy/checks/walk.mjs "http://127.0.0.1:$DEV_PORT"
[[ -n "$(docker ps -q --filter label=org.sandpiper.manager=dev)" ]] || fail "the walk's sandbox is not running"

log "hot reload: a service's source changes"
touch services/backend-api/src/main.rs
for _ in $(seq 1 600); do
    grep -q "backend-api restarted" "$output" && break
    sleep 0.5
done
grep -q "backend-api restarted" "$output" || fail "backend-api was not rebuilt and restarted"
wait_for_url "http://127.0.0.1:$DEV_PORT/api/v1/auth/mode" 20 || fail "the API did not come back after the restart"

log "Ctrl-C"
kill -INT -- "-$pid"
for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$pid" 2>/dev/null && fail "dev.sh still runs 60 s after Ctrl-C"
grep -q "nothing left running" "$output" || fail "dev.sh did not clean up"
grep -q "dev.sh: error" "$output" && fail "dev.sh reported an error on a clean stop"
if $cold_engine; then
    grep -q "starting the Docker engine" "$output" || fail "dev.sh did not start the engine"
    grep -q "Docker engine dev.sh started keeps running" "$output" ||
        fail "dev.sh did not say that the engine it started keeps running"
    docker info >/dev/null 2>&1 || fail "the engine dev.sh started did not outlive it"
fi
for port in "$DEV_PORT" "$DEV_BACKEND_PORT" "$DEV_MANAGER_PORT"; do
    answers "$port" && fail "something still listens on $port"
done
left="$(docker ps -aq --filter label=org.sandpiper.manager=dev; docker volume ls -q --filter label=org.sandpiper.manager=dev;
    docker network ls -q --filter name=sandpiper-dev-)"
[[ -z "$left" ]] || fail "left behind: $left"
log "all good"
