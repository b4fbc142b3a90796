#!/usr/bin/env bash
# Creates the local base image `sandpiper-base:bookworm` for machines that have no
# container registry (where `docker pull debian:bookworm-slim` cannot work):
#
#   debootstrap --variant=minbase bookworm ROOTFS <this machine's Debian mirror>
#   + bookworm-updates and bookworm-security in the rootfs' apt sources
#   + trimmed (apt lists and caches, docs, man pages, locales) with dpkg path-exclude
#     rules so later installs stay small
#   tar -C ROOTFS -c . | docker import - sandpiper-base:bookworm
#
# Idempotent: does nothing when the image already exists (`--force` rebuilds it).
# Needs root (debootstrap), Docker, and apt access to a Debian mirror. The mirror is read
# from /etc/apt/sources.list and /etc/apt/sources.list.d/*.{list,sources}; override with
# SANDPIPER_DEBIAN_MIRROR and SANDPIPER_DEBIAN_SECURITY_MIRROR. Logs go to stderr.
set -euo pipefail

IMAGE=sandpiper-base:bookworm
SUITE=bookworm
FALLBACK_MIRROR=http://deb.debian.org/debian
FALLBACK_SECURITY_MIRROR=http://deb.debian.org/debian-security

log() { printf 'bootstrap-base: %s\n' "$*" >&2; }
die() { printf 'bootstrap-base: error: %s\n' "$*" >&2; exit 1; }

force=false
for arg in "$@"; do
    case "$arg" in
        --force) force=true ;;
        -h | --help)
            sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) die "unknown argument: $arg (usage: bootstrap-base.sh [--force])" ;;
    esac
done

# The Debian package's CLI speaks to the 20.10 engine; a newer CLI first on PATH may not.
if [[ -n "${DOCKER:-}" ]]; then
    docker_cli=$DOCKER
elif [[ -x /usr/bin/docker ]]; then
    docker_cli=/usr/bin/docker
else
    docker_cli=docker
fi
docker() { command "$docker_cli" "$@"; }

docker info >/dev/null 2>&1 || die "the Docker engine does not answer ('$docker_cli info' failed); start dockerd first"

image_exists() { docker image inspect "$IMAGE" >/dev/null 2>&1; }

if ! $force && image_exists; then
    log "$IMAGE already exists; nothing to do"
    exit 0
fi

[[ $(id -u) -eq 0 ]] || die "debootstrap needs root; run this script as root (e.g. with sudo)"

# One bootstrap at a time on this machine; whoever waited finds the image made.
lock_file="${TMPDIR:-/tmp}/sandpiper-base-bootstrap.lock"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$lock_file"
    if ! flock -n 9; then
        log "another bootstrap is running; waiting for it"
        flock 9
    fi
    if ! $force && image_exists; then
        log "$IMAGE was created meanwhile; nothing to do"
        exit 0
    fi
fi

# --- The mirror: the first Debian archive (not -security) in this machine's apt sources.
# Prints "URI SUITE" pairs of every enabled `deb` source.
apt_sources() {
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f "$file" ]] || continue
        # deb [options] URI SUITE COMPONENTS...
        sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$file" | awk '$1 == "deb" && NF >= 3 { print $2, $3 }'
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [[ -f "$file" ]] || continue
        # deb822 paragraphs: Types, URIs, Suites (multi-valued), Enabled.
        awk '
            function flush(   u, s, nu, ns, i, j) {
                if (types ~ /(^| )deb( |$)/ && enabled != "no") {
                    nu = split(uris, u, " "); ns = split(suites, s, " ")
                    for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print u[i], s[j]
                }
                types = ""; uris = ""; suites = ""; enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            {
                key = tolower($1); sub(/:$/, "", key)
                value = $0; sub(/^[^:]*:[ \t]*/, "", value)
                if (key == "types") types = value
                else if (key == "uris") uris = value
                else if (key == "suites") suites = value
                else if (key == "enabled") enabled = tolower(value)
            }
            END { flush() }
        ' "$file"
    done
}

sources="$(apt_sources || true)"
pick() { # pick SUITE_REGEX: the first URI whose suite matches
    awk -v re="$1" '$2 ~ re { print $1; exit }' <<<"$sources"
}
mirror="${SANDPIPER_DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
    mirror="$(pick "^${SUITE}\$")"
    # Another release's archive serves bookworm just as well.
    [[ -n "$mirror" ]] || mirror="$(awk '$2 !~ /-(security|updates|backports)$/ && $1 ~ /debian\/?$/ { print $1; exit }' <<<"$sources")"
    [[ -n "$mirror" ]] || { mirror=$FALLBACK_MIRROR; log "no Debian mirror in /etc/apt sources; using $mirror"; }
fi
mirror="${mirror%/}"

security_mirror="${SANDPIPER_DEBIAN_SECURITY_MIRROR:-}"
if [[ -z "$security_mirror" ]]; then
    # What this machine uses for security updates; else the mirror's sibling
    # (…/debian → …/debian-security, the layout of deb.debian.org and most mirrors).
    security_mirror="$(pick '-security$')"
    if [[ -z "$security_mirror" ]]; then
        if [[ "$mirror" == */debian ]]; then
            security_mirror="${mirror}-security"
        else
            security_mirror=$FALLBACK_SECURITY_MIRROR
        fi
    fi
fi
security_mirror="${security_mirror%/}"
log "mirror: $mirror  security: $security_mirror"

# --- debootstrap
export DEBIAN_FRONTEND=noninteractive
need_packages=()
command -v debootstrap >/dev/null 2>&1 || need_packages+=(debootstrap)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -f "$keyring" ]] || need_packages+=(debian-archive-keyring)
if ((${#need_packages[@]})); then
    log "installing ${need_packages[*]}"
    apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >&2 ||
        { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >&2; } ||
        die "could not install ${need_packages[*]} with apt-get"
fi

work="$(mktemp -d "${TMPDIR:-/var/tmp}/sandpiper-base.XXXXXX")"
rootfs="$work/rootfs"
cleanup() {
    local m
    # debootstrap unmounts what it mounted; a failure halfway may leave proc/sys mounted.
    for m in $(awk -v root="$rootfs" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r); do
        umount -l "$m" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

include=()
[[ "$mirror" == https:* ]] && include=(--include=ca-certificates)
started=$SECONDS
log "debootstrap --variant=minbase $SUITE (≈30 s)"
debootstrap --variant=minbase --components=main --keyring="$keyring" "${include[@]}" \
    "$SUITE" "$rootfs" "$mirror" >&2 ||
    die "debootstrap failed (see above; the debootstrap log is in $rootfs/debootstrap/debootstrap.log)"

# --- apt sources: release, updates and security, all signed by the archive keyring.
rm -f "$rootfs/etc/apt/sources.list"
cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security_mirror
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF

# --- Keep later installs small, as the official slim image does.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/sandpiper-excludes" <<'EOF'
# Sandpiper base: no docs (copyright files stay), man pages, info pages or translations.
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/groff/*
path-exclude=/usr/share/lintian/*
path-exclude=/usr/share/linda/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
EOF
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
echo 'force-unsafe-io' >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"

# --- Trim what debootstrap left behind, and this machine's identity.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
    "$rootfs"/var/lib/dpkg/*-old "$rootfs"/debootstrap
find "$rootfs/var/log" -type f -delete
find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/groff/* \
    "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/linda/*
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
: >"$rootfs/etc/resolv.conf"
echo localhost >"$rootfs/etc/hostname"

# --- Import. /dev, /proc and /sys stay empty: the engine provides them.
log "importing $IMAGE"
tar --numeric-owner -C "$rootfs" \
    --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
    docker import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' \
        --message "debootstrap --variant=minbase $SUITE (sandbox-image/bootstrap-base.sh)" \
        - "$IMAGE" >/dev/null
size="$(docker image inspect -f '{{.Size}}' "$IMAGE")"
log "$IMAGE created: $((size / 1000000)) MB in $((SECONDS - started)) s"
