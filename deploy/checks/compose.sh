#!/usr/bin/env bash
# Checks the Compose deployment on this machine, with the images ./build.sh made:
#
#  1. docker-compose.yml is valid for .env.example's settings, and refuses to start
#     without the two secrets;
#  2. ./run.sh up -d brings up frontend, backend-api and sandbox-manager as a separate
#     project. MongoDB and Redis images cannot be pulled everywhere, so with
#     SANDPIPER_CHECK_STORES=bundled they are started too, otherwise (the default)
#     backend-api keeps everything in its embedded store (MONGODB_URI and REDIS_URL empty);
#  3. walk.mjs goes through the frontend's published port only: the app, the hardening
#     headers of the app, /docs and the API (each policy once), registration, the
#     sign-in limits counting the client the proxy in front names (nginx's real_ip,
#     then backend-api's trusted proxies), the E2B-compatible API and a signed file link
#     (E2B's SDKs' paths, /e2b and /files), a file through the session's sandbox (reached by container name on the sandboxes
#     network), the event stream through nginx, and a terminal over WebSocket;
#     Then a container on a private network that is not the frontend (sandbox-manager,
#     which reaches backend-api on the sandboxes network) forges X-Forwarded-For: its
#     failed sign-ins count against its own address, so the sixth is refused;
#  4. nothing but the frontend publishes a port; the walk's sandbox runs and publishes none;
#  5. red team: from inside the walk's sandbox, as its user, connections to backend-api,
#     sandbox-manager, the sandbox network's gateway (the host) and 169.254.169.254 are
#     refused by the sandbox's firewall (net_probe.py), though backend-api reached the
#     sandbox in step 3;
#  6. ./run.sh down -v leaves no container, network or volume of the project behind, the
#     walk's sandbox (started by sandbox-manager, not by Compose) included.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/checks/lib.sh

project=sandpiper-check
namespace=check
workdir="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-compose-check.XXXXXX")"
env_file="$workdir/.env"
log() { printf 'compose-check: %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
compose() { COMPOSE_PROJECT_NAME=$project SANDPIPER_ENV_FILE="$env_file" ./run.sh "$@"; }

for image in sandpiper-frontend sandpiper-backend-api sandpiper-sandbox-manager sandpiper-sandbox; do
    docker image inspect "$image:latest" >/dev/null 2>&1 || fail "$image:latest is missing; run ./build.sh first"
done

log "1. the compose file"
cp .env.example "$env_file"
if COMPOSE_PROJECT_NAME=$project SANDPIPER_ENV_FILE="$env_file" ./run.sh config -q 2>"$workdir/err"; then
    fail "the compose file accepted an empty JWT_SECRET"
fi
grep -q "set JWT_SECRET in .env" "$workdir/err" || fail "no clear message for a missing JWT_SECRET: $(cat "$workdir/err")"

port="$(free_port)"
cat >>"$env_file" <<SETTINGS
JWT_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
SANDBOX_MANAGER_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
SANDPIPER_PORT=$port
SANDBOX_NAMESPACE=$namespace
SANDBOX_NETWORK=$project-sandboxes
SANDBOX_OFFLINE_NETWORK=$project-sandboxes-offline
SANDBOX_POOL_SIZE=0
SETTINGS
services=(frontend backend-api sandbox-manager)
if [[ "${SANDPIPER_CHECK_STORES:-embedded}" == bundled ]]; then
    services+=(mongodb redis)
else
    printf 'MONGODB_URI=\nREDIS_URL=\n' >>"$env_file"
fi
compose config -q || fail "docker-compose config"

cleanup() {
    local status=$?
    if ((status != 0)); then
        compose ps >&2 || true
        compose logs --no-color --tail 40 >&2 || true
    fi
    log "6. ./run.sh down -v"
    compose down -v --remove-orphans >/dev/null 2>&1 || true
    rm -rf "$workdir"
}
trap cleanup EXIT

log "2. up: ${services[*]} on 127.0.0.1:$port"
compose up -d --no-deps "${services[@]}"
wait_for_url "http://127.0.0.1:$port/ready" 60 || fail "the deployment did not become ready within 60 s"

log "3. walk"
node --experimental-websocket --no-warnings deploy/checks/walk.mjs "http://127.0.0.1:$port" --headers --client-addresses

log "3. a private peer that is not the frontend names no client"
manager="$(compose ps -q sandbox-manager)"
forged_login() {
    docker exec "$manager" curl -s -o /dev/null -w '%{http_code}' -X POST http://backend-api:8000/api/v1/auth/login \
        -H 'content-type: application/json' -H "x-forwarded-for: $1" \
        -d '{"email":"forger@example.com","password":"not the password!"}'
}
for i in 1 2 3 4 5; do
    status="$(forged_login "192.0.2.$i")"
    [[ "$status" == 401 ]] || fail "a forged sign-in was answered $status"
done
status="$(forged_login 192.0.2.6)"
[[ "$status" == 429 ]] || fail "a forged X-Forwarded-For gave sandbox-manager's container a new address ($status)"

log "4. published ports"
published="$(docker ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}} {{.Ports}}' | grep -- '->' || true)"
[[ "$(wc -l <<<"$published")" == 1 && "$published" == *frontend*"127.0.0.1:$port->8080/tcp"* ]] ||
    fail "only the frontend may publish a port, on loopback: $published"
sandboxes="$(docker ps -q --filter "label=org.sandpiper.manager=$namespace")"
[[ -n "$sandboxes" ]] || fail "the walk's sandbox is not running"
sandbox_ports="$(docker ps -a --filter "label=org.sandpiper.manager=$namespace" --format '{{.Ports}}' | grep -- '->' || true)"
[[ -z "$sandbox_ports" ]] || fail "a sandbox published ports: $sandbox_ports"

log "5. what the sandbox reaches"
gateway="$(docker network inspect -f '{{(index .IPAM.Config 0).Gateway}}' "$project-sandboxes")"
verdicts="$(docker exec -i -u 1000 "$(head -n 1 <<<"$sandboxes")" python3 - \
    backend-api:8000 sandbox-manager:8090 "$gateway:$port" 169.254.169.254:80 <deploy/checks/net_probe.py)"
[[ "$(grep -c ' firewall$' <<<"$verdicts")" == 4 ]] || fail "the sandbox reached past its firewall: $verdicts"

trap - EXIT
cleanup
left="$(docker ps -aq --filter "label=com.docker.compose.project=$project"; docker ps -aq --filter "label=org.sandpiper.manager=$namespace";
    docker network ls -q --filter "name=$project"; docker volume ls -q --filter "label=com.docker.compose.project=$project";
    docker volume ls -q --filter "label=org.sandpiper.manager=$namespace")"
[[ -z "$left" ]] || fail "left behind after down -v: $left"
log "all good"
