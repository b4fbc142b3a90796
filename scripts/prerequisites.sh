# What Sandpiper's scripts need on a Debian or Ubuntu machine, and how to get it: sourced
# by ./dev.sh and ./test.sh (and through test.sh by CI), so the list and the way it is
# installed live in one place. As root, what is missing is installed; otherwise the
# caller stops with the exact command to run. Everything is checked before anything is
# installed, so a machine that has it all pays a few `command -v` lookups.
#
# The caller defines `log` and `die` (one line to stderr each) before sourcing this file.

prereq_is_root() { [[ "$(id -u)" == 0 ]]; }
prereq_version_ge() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" == "$2" ]]; }

# Debian packages, given as `command:package` pairs: each package whose command is missing
# is installed (root) or named (otherwise).
need_packages() {
    local missing=() pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    ((${#missing[@]})) || return 0
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    prereq_is_root || die "missing: ${missing[*]}; install them with
    sudo apt-get install -y --no-install-recommends ${missing[*]}
or run this script as root once"
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends ca-certificates "${missing[@]}" >/dev/null
}

# A Python command from a pinned PyPI package: `need_pip_tool command 'Package==1.2.3'`.
need_pip_tool() {
    command -v "$1" >/dev/null 2>&1 && return 0
    prereq_is_root || die "missing: $1; install it with
    python3 -m pip install --user '$2'"
    log "installing $2"
    # Debian's own Python refuses system-wide installs unless told (PEP 668).
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --root-user-action=ignore "$2" ||
        die "could not install $2 with pip"
    command -v pyenv >/dev/null 2>&1 && pyenv rehash
    command -v "$1" >/dev/null 2>&1 || die "$2 is installed but $1 is not on PATH"
}

# A virtual environment holding a requirements file's pinned Python packages, kept in the
# user's cache under the file's hash, so it is made once per version of the file:
# `venv="$(need_pip_venv NAME requirements.txt)"` prints its directory. Debian's Python
# makes one only with its venv module (python3-venv), installed here when missing.
need_pip_venv() {
    local requirements="$2" hash venv
    hash="$(sha256sum "$requirements" | cut -c1-16)"
    venv="${XDG_CACHE_HOME:-$HOME/.cache}/sandpiper/$1-$hash"
    if [[ ! -f "$venv/.complete" ]]; then
        need_packages python3:python3
        log "installing $requirements into $venv"
        rm -rf "$venv"
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            prereq_is_root || die "missing: python3-venv; install it with
    sudo apt-get install -y --no-install-recommends python3-venv
or run this script as root once"
            log "installing python3-venv"
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq
            apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
            python3 -m venv "$venv" >&2 || die "could not make a virtual environment in $venv"
        fi
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2 ||
            die "could not install $requirements with pip"
        touch "$venv/.complete"
    fi
    printf '%s\n' "$venv"
}

# Rust's cargo: rustup's minimal profile when there is none (rustup needs no root).
need_rust() {
    command -v cargo >/dev/null && return 0
    if [[ ! -x "$HOME/.cargo/bin/cargo" ]]; then
        log "installing Rust with rustup (minimal profile)"
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal ||
            die "could not install Rust; install it from https://rustup.rs and run this again"
    fi
    export PATH="$HOME/.cargo/bin:$PATH"
}

# Node.js 20.19+ with npm, from the distribution when its version is new enough.
prereq_min_node=20.19.0
prereq_node_ok() {
    command -v node >/dev/null && command -v npm >/dev/null &&
        prereq_version_ge "$(node --version | tr -d v)" "$prereq_min_node"
}
need_node() {
    prereq_node_ok && return 0
    local candidate
    candidate="$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^ *Candidate: \([0-9.]*\).*/\1/p')"
    if [[ -n "$candidate" ]] && prereq_version_ge "$candidate" "$prereq_min_node"; then
        need_packages node:nodejs npm:npm
    fi
    prereq_node_ok || die "Node.js $prereq_min_node or newer is needed (this machine has $(node --version 2>/dev/null || echo none), and
its package manager offers no new enough one): install it from https://nodejs.org, then run this again"
}

# The npm packages of a folder of the repository (e.g. frontend), installed afresh only
# when its lock file changed since the last install.
need_npm_packages() {
    local root
    root="$(dirname "${BASH_SOURCE[0]}")/../$1"
    if [[ ! -f "$root/node_modules/.package-lock.json" ||
        "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]]; then
        (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
    fi
}

# The pinned Python packages of a requirements file of the repository, as binary wheels
# for the sandbox image's Python (CPython 3.11, glibc, x86_64), unpacked into a folder for
# tests to copy into a sandbox, which has no pip: `need_sandbox_python_packages
# requirements.txt folder`. Installed afresh only when the file changed since.
need_sandbox_python_packages() {
    local root requirements target
    root="$(dirname "${BASH_SOURCE[0]}")/.."
    requirements="$root/$1" target="$root/$2"
    cmp -s "$requirements" "$target/.requirements.txt" && return 0
    log "installing $1 into $2 for the sandbox's Python"
    rm -rf "$target"
    # Every package is pinned in the file, so none is resolved here; the platforms are
    # the manylinux tags the image's glibc (2.36) runs.
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-conflicts --no-compile --no-deps --only-binary=:all: --implementation cp \
        --python-version 3.11 --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 \
        --platform manylinux_2_34_x86_64 --target "$target" --requirement "$requirements" ||
        die "could not install $1 with pip"
    cp "$requirements" "$target/.requirements.txt"
}

# A Docker engine that answers. When none does and we are root, it is started — by
# systemd where there is one, else as a daemon of its own session — and
# PREREQ_STARTED_DOCKERD is set so the caller can say that it is left running.
PREREQ_STARTED_DOCKERD=false
need_docker_engine() {
    docker info >/dev/null 2>&1 && return 0
    prereq_is_root || die "the Docker engine does not answer; start it (sudo systemctl start docker) and add
yourself to the docker group (sudo usermod -aG docker \$USER, then log in again)"
    log "starting the Docker engine"
    if command -v systemctl >/dev/null && systemctl start docker 2>/dev/null; then :; else
        # Its own session and no inherited descriptors: the engine is not the caller's
        # job, so neither a `wait` nor a Ctrl-C in the caller's terminal reaches it.
        setsid dockerd >/var/log/dockerd.log 2>&1 </dev/null &
        disown
        PREREQ_STARTED_DOCKERD=true
    fi
    local _
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && return 0; sleep 0.5; done
    die "dockerd did not start; see /var/log/dockerd.log"
}
