#!/usr/bin/env bash
# Runs docker-compose.yml with whichever Compose this machine has: `docker compose` (the
# plugin) or `docker-compose` (the standalone one). Arguments go to Compose:
#
#   ./run.sh up -d              start (or update to newly built images)
#   ./run.sh ps | logs -f backend-api | restart backend-api | config
#   ./run.sh down               stop and remove the services and the sandboxes
#   ./run.sh down -v            … and every volume: accounts, chats and session files
#
# Sandboxes are started by sandbox-manager, not by Compose, so `down` removes them first
# (their network could not be removed while they are on it); with -v their session
# volumes go too. Settings come from .env (copy .env.example), or from the file named by
# SANDPIPER_ENV_FILE. COMPOSE_PROJECT_NAME defaults to sandpiper.
set -euo pipefail
cd "$(dirname "$0")"

env_file="${SANDPIPER_ENV_FILE:-.env}"
export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-sandpiper}"
die() { printf 'run.sh: %s\n' "$*" >&2; exit 1; }

if docker compose version >/dev/null 2>&1; then
    compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
    compose=(docker-compose)
else
    die "neither 'docker compose' nor 'docker-compose' is installed (apt-get install docker-compose)"
fi
(($#)) || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
[[ -f "$env_file" ]] || die "$env_file is missing: cp .env.example .env, then set JWT_SECRET, SANDBOX_MANAGER_TOKEN and the LLM_* lines"

# A setting as Compose will see it: the environment first, then the env file, then the default.
setting() {
    local value="${!1:-}"
    [[ -n "$value" ]] || value="$(sed -n "s/^$1=//p" "$env_file" | tail -n 1)"
    echo "${value:-$2}"
}

if [[ "$1" == down ]]; then
    namespace="$(setting SANDBOX_NAMESPACE compose)"
    # The manager would start pool sandboxes again while it runs: stop it first.
    "${compose[@]}" --env-file "$env_file" stop sandbox-manager >/dev/null 2>&1 || true
    sandboxes="$(docker ps -aq --filter "label=org.sandpiper.manager=$namespace")"
    if [[ -n "$sandboxes" ]]; then
        echo "removing $(wc -l <<<"$sandboxes") sandbox(es) of namespace $namespace" >&2
        docker rm -f $sandboxes >/dev/null
    fi
    if [[ " $* " == *" -v "* || " $* " == *" --volumes "* ]]; then
        volumes="$(docker volume ls -q --filter "label=org.sandpiper.manager=$namespace")"
        [[ -z "$volumes" ]] || docker volume rm -f $volumes >/dev/null
    fi
fi
exec "${compose[@]}" --env-file "$env_file" "$@"
