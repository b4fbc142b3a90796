#!/usr/bin/env bash
# Brings a one-machine deployment up to date with what it is built from:
#
#   ./update.sh
#
#  1. pulls newer images of the services Sandpiper does not build (MongoDB, Redis) where
#     a registry answers; without one, the images already there are kept;
#  2. ./build.sh --refresh: every Sandpiper image rebuilt without Docker's layer cache,
#     re-pulling its base where it can, so new Debian security updates get in;
#  3. when the deployment runs (./run.sh), recreates the services whose image changed;
#     data volumes are kept. New sessions get the new sandbox image; running sandboxes
#     keep theirs until they end.
#
# It does not touch the checkout: `git pull` first to update Sandpiper itself.
set -euo pipefail
cd "$(dirname "$0")"
log() { printf '\n==> %s\n' "$*" >&2; }

log "registry images"
# The compose file's images that are not built here (no variable in their reference).
for image in $(sed -n 's/^ *image: \([^$]*\)$/\1/p' docker-compose.yml); do
    if timeout 120 docker pull -q "$image" >/dev/null 2>&1; then
        echo "pulled $image" >&2
    elif docker image inspect "$image" >/dev/null 2>&1; then
        echo "could not pull $image; keeping the one on this machine" >&2
    else
        echo "could not pull $image, and it is not on this machine: the bundled $image service" \
            "cannot start here (point its URL at an external one, or set it empty; see .env.example)" >&2
    fi
done

log "./build.sh --refresh"
./build.sh --refresh

if [[ -f "${SANDPIPER_ENV_FILE:-.env}" ]] && [[ -n "$(./run.sh ps -q 2>/dev/null)" ]]; then
    log "restarting what changed"
    ./run.sh up -d
else
    log "the deployment is not running; start it with ./run.sh up -d"
fi
