#!/usr/bin/env bash
# Builds the sandbox image `sandpiper-sandbox:<hash>` (and `:latest`).
#
#   sandbox-image/build.sh               build if needed, report tag, size and time
#   sandbox-image/build.sh --print-tag   same, then print only the image reference
#                                        (sandpiper-sandbox:<hash>) on stdout
#   sandbox-image/build.sh --refresh     rebuild without Docker's layer cache, to pick up
#                                        new Debian (security) updates for the same inputs
#
# Steps: `cargo build --release --workspace --bin tool-api` (CARGO_TARGET_DIR and cargo
# config honoured; the workspace's features, so the services' builds share its dependencies),
# then a content hash over every input (Dockerfile, the tool-api binary, these scripts).
# The first 12 hex digits are the tag; when that tag exists, nothing is built. Otherwise
# the base is `debian:bookworm-slim` (present or pullable) or else the locally
# bootstrapped `sandpiper-base:bookworm` (bootstrap-base.sh, made when missing), and
# Dockerfile + binary are built in a temporary context with the classic builder.
#
# Environment: SANDBOX_BASE_IMAGE (force a base; part of the hash),
# SANDBOX_TOOL_API_BIN (use this tool-api binary instead of building one),
# SANDBOX_IMAGE_REPO (image name, default sandpiper-sandbox), DOCKER (docker CLI).
# Logs go to stderr; stdout carries only the --print-tag answer.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/.." && pwd)"
started_ns=$(date +%s%N)

repo="${SANDBOX_IMAGE_REPO:-sandpiper-sandbox}"
default_base=debian:bookworm-slim
bootstrap_base=sandpiper-base:bookworm
pull_timeout=20

log() { printf 'sandbox-image: %s\n' "$*" >&2; }
die() { printf 'sandbox-image: error: %s\n' "$*" >&2; exit 1; }

print_tag=false
refresh=false
for arg in "$@"; do
    case "$arg" in
        --print-tag) print_tag=true ;;
        --refresh) refresh=true ;;
        -h | --help)
            sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) die "unknown argument: $arg (usage: build.sh [--print-tag] [--refresh])" ;;
    esac
done

elapsed() { # human time since the start: 0.4s, 42s, 1m52s
    local ms=$((($(date +%s%N) - started_ns) / 1000000))
    if ((ms < 10000)); then
        printf '%d.%ds' $((ms / 1000)) $((ms % 1000 / 100))
    elif ((ms < 60000)); then
        printf '%ds' $((ms / 1000))
    else
        printf '%dm%02ds' $((ms / 60000)) $((ms % 60000 / 1000))
    fi
}

human_size() { awk -v b="$1" 'BEGIN { if (b >= 1e9) printf "%.2f GB", b / 1e9; else printf "%d MB", b / 1e6 }'; }

# --- Docker: the Debian package's CLI and the classic builder (a newer CLI first on PATH
# may lack buildx, and BuildKit is not what these machines run).
if [[ -n "${DOCKER:-}" ]]; then
    docker_cli=$DOCKER
elif [[ -x /usr/bin/docker ]]; then
    docker_cli=/usr/bin/docker
else
    docker_cli=docker
fi
export DOCKER_BUILDKIT=0
docker() { command "$docker_cli" "$@"; }
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 ||
    die "the Docker engine does not answer ('$docker_cli version' failed); start dockerd first"

# --- 1. The tool-api binary.
if [[ -n "${SANDBOX_TOOL_API_BIN:-}" ]]; then
    binary=$SANDBOX_TOOL_API_BIN
    [[ -x "$binary" ]] || die "SANDBOX_TOOL_API_BIN=$binary is not an executable file"
    log "using tool-api binary $binary"
else
    cargo_cli=${CARGO:-cargo}
    if ! command -v "$cargo_cli" >/dev/null 2>&1; then
        [[ -x "$HOME/.cargo/bin/cargo" ]] || die "cargo not found (install Rust, or set SANDBOX_TOOL_API_BIN)"
        cargo_cli="$HOME/.cargo/bin/cargo"
    fi
    log "cargo build --release --workspace --bin tool-api"
    # The artifact message names the executable wherever the target dir is.
    binary="$(
        cd "$repo_root" &&
            "$cargo_cli" build --release --locked --workspace --bin tool-api \
                --message-format=json-render-diagnostics |
            sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1
    )" || die "cargo build of tool-api failed"
    [[ -n "$binary" && -x "$binary" ]] || die "cargo did not report the tool-api executable"
    # A binary linked against a newer glibc than bookworm's (2.36) does not start there.
    host_glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')" || true
    if [[ -n "$host_glibc" ]] && [[ "$(printf '%s\n2.36\n' "$host_glibc" | sort -V | tail -n 1)" != 2.36 ]]; then
        log "warning: this host has glibc $host_glibc, newer than Debian bookworm's 2.36; tool-api may not start" \
            "in the image (build on bookworm, or set SANDBOX_TOOL_API_BIN to a compatible binary)"
    fi
fi

# --- 2. The content hash over every input of the image.
inputs_hash="$(
    {
        echo "sandpiper-sandbox inputs v1"
        echo "base-override ${SANDBOX_BASE_IMAGE:-}"
        (cd "$here" && sha256sum Dockerfile bootstrap-base.sh build.sh)
        printf '%s  tool-api\n' "$(sha256sum <"$binary" | cut -d' ' -f1)"
    } | sha256sum | cut -c1-12
)"
image="$repo:$inputs_hash"

finish() { # report, and answer --print-tag
    local size
    size="$(docker image inspect -f '{{.Size}}' "$image")"
    log "$1 $image — $(human_size "$size"), $2 $(elapsed)"
    if $print_tag; then
        echo "$image"
    fi
}

# The tag exists; also point :latest at it when it does not already.
up_to_date() {
    local id latest
    id="$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null)" || return 1
    latest="$(docker image inspect -f '{{.Id}}' "$repo:latest" 2>/dev/null)" || true
    [[ "$id" == "$latest" ]] || docker tag "$image" "$repo:latest"
}

if ! $refresh && up_to_date; then
    finish "up to date:" "checked in"
    exit 0
fi

# One image build at a time on this machine; whoever waited may find the image made.
lock_file="${TMPDIR:-/tmp}/sandpiper-sandbox-build.lock"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$lock_file"
    if ! flock -n 9; then
        log "another sandbox image build is running; waiting for it"
        flock 9
    fi
    if ! $refresh && up_to_date; then
        finish "up to date:" "checked in"
        exit 0
    fi
fi

# --- 3. The base image.
have_image() { docker image inspect "$1" >/dev/null 2>&1; }
try_pull() {
    log "pulling $1 (timeout ${pull_timeout}s)"
    timeout "$pull_timeout" "$docker_cli" pull -q "$1" >/dev/null 2>&1
}
if [[ -n "${SANDBOX_BASE_IMAGE:-}" ]]; then
    base=$SANDBOX_BASE_IMAGE
    if $refresh || ! have_image "$base"; then
        try_pull "$base" || have_image "$base" || die "base image $base is neither present nor pullable"
    fi
elif { ! $refresh && have_image "$default_base"; } || try_pull "$default_base"; then
    base=$default_base
elif have_image "$default_base"; then
    base=$default_base # --refresh could not pull: keep the one there is
else
    log "$default_base is not available (no registry?); using the bootstrapped $bootstrap_base"
    "$here/bootstrap-base.sh"
    base=$bootstrap_base
fi
log "base image: $base"

# --- 4. A minimal context: the Dockerfile and the binary, nothing of this machine's tree.
context="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-sandbox-context.XXXXXX")"
trap 'rm -rf "$context"' EXIT
cp "$here/Dockerfile" "$context/Dockerfile"
ln "$binary" "$context/tool-api" 2>/dev/null || cp "$binary" "$context/tool-api"

build_args=(
    --build-arg "BASE_IMAGE=$base"
    --label "org.opencontainers.image.title=Sandpiper sandbox"
    --label "org.sandpiper.sandbox.inputs=$inputs_hash"
    --label "org.sandpiper.sandbox.base=$base"
    --force-rm
    -t "$image" -t "$repo:latest"
)
$refresh && build_args+=(--no-cache)
log "docker build $image (classic builder; ≈2 min from scratch)"
docker build "${build_args[@]}" "$context" >&2 || die "docker build failed (see above)"

finish "image" "built in"
