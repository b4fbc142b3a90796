#!/usr/bin/env bash
# Builds every image Sandpiper runs from, all from this checkout:
#
#   sandpiper-sandbox:<hash>     the sandbox (sandbox-image/build.sh)
#   sandpiper-backend-api        the API and the agent
#   sandpiper-sandbox-manager    the only service with the Docker socket
#   sandpiper-frontend           nginx with the built app, in front of backend-api
#
#   ./build.sh             build what changed (Docker's layer cache)
#   ./build.sh --refresh   rebuild without the cache, re-pulling bases where a registry
#                          answers, so new Debian security updates get in (update.sh)
#
# The services are compiled here (cargo, release) and copied in, so images need no
# toolchain; they use the same base as the sandbox image: debian:bookworm-slim where it
# can be pulled, else the locally bootstrapped sandpiper-base:bookworm. The front end is
# built with npm. Environment: SANDPIPER_VERSION (tag, default latest), DOCKER (CLI).
set -euo pipefail
cd "$(dirname "$0")"

version="${SANDPIPER_VERSION:-latest}"
refresh=()
for arg in "$@"; do
    case "$arg" in
        --refresh) refresh=(--refresh) ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown argument $arg (usage: ./build.sh [--refresh])" >&2; exit 2 ;;
    esac
done

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }
docker_cli="${DOCKER:-$(command -v /usr/bin/docker || command -v docker || true)}"
[[ -n "$docker_cli" ]] || die "docker is not installed (./dev.sh installs it when run as root)"
docker() { DOCKER_BUILDKIT=0 command "$docker_cli" "$@"; }
. scripts/prerequisites.sh
command -v cargo >/dev/null || die "cargo is required (install Rust with rustup)"
command -v npm >/dev/null || die "Node.js 20.19+ and npm are required to build the front end"

log "sandbox image"
sandbox_image="$(DOCKER="$docker_cli" sandbox-image/build.sh --print-tag "${refresh[@]}")"
base="$(docker image inspect -f '{{index .Config.Labels "org.sandpiper.sandbox.base"}}' "$sandbox_image")"
[[ -n "$base" ]] || die "$sandbox_image does not name its base image"

log "cargo build --release --workspace --bin backend-api --bin sandbox-manager"
# Cargo's artifact messages name each executable wherever the target directory is.
binaries="$(cargo build --release --locked --workspace --bin backend-api --bin sandbox-manager \
    --message-format=json-render-diagnostics |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')" || die "cargo build failed"
binary() { grep "/$1\$" <<<"$binaries" | tail -n 1; }

log "front end (npm ci, npm run build)"
{
    need_npm_packages frontend
    (cd frontend && npm run build --silent)
} >&2

# One image from deploy/docker/<name>.Dockerfile and the files named after it, staged in a
# temporary context so nothing else of this tree is sent to the engine.
build_image() {
    local name="$1" context
    shift
    context="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-$name.XXXXXX")"
    cp "deploy/docker/$name.Dockerfile" "$context/Dockerfile"
    cp -r "$@" "$context/"
    log "docker build sandpiper-$name:$version (base $base)"
    local no_cache=()
    ((${#refresh[@]})) && no_cache=(--no-cache)
    docker build "${no_cache[@]}" --force-rm --build-arg "BASE_IMAGE=$base" \
        --label "org.opencontainers.image.title=Sandpiper $name" --label "org.sandpiper.image=$name" \
        --label "org.opencontainers.image.revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
        -t "sandpiper-$name:$version" "$context" >&2 ||
        { rm -rf "$context"; die "docker build of sandpiper-$name failed"; }
    rm -rf "$context"
}
build_image backend-api "$(binary backend-api)"
build_image sandbox-manager "$(binary sandbox-manager)"
build_image frontend deploy/docker/nginx.conf deploy/docker/security-headers.conf deploy/docker/frontend-start.sh frontend/dist

# Images a rebuild left without a tag only take space.
docker image prune -f --filter "label=org.sandpiper.image" >/dev/null
docker image prune -f --filter "label=org.sandpiper.sandbox.inputs" >/dev/null

log "images"
for name in backend-api sandbox-manager frontend; do
    docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' "sandpiper-$name:$version" >&2
done
echo "$sandbox_image (also sandpiper-sandbox:latest)" >&2
