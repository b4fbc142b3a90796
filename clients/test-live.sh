#!/usr/bin/env bash
# The generated clients against a real backend-api: clients/python/tests with pytest (the
# package installed from clients/python as a user would) and clients/typescript/test with
# node's test runner (the package built, imported by its name).
#
#   clients/test-live.sh                  starts a backend-api of its own, runs both, stops it
#   SANDPIPER_URL=http://… clients/test-live.sh
#                                         against one already running (SANDPIPER_EMAIL and
#                                         SANDPIPER_PASSWORD to sign in, else it registers)
#   clients/test-live.sh --jobs           the job tests (test_live_jobs.py, live-jobs.test.ts):
#                                         a backend-api of its own with the scripted model
#                                         and a sandbox-manager, which needs the Docker engine
#                                         and the sandbox image (SANDBOX_TEST_IMAGE, else
#                                         sandpiper-sandbox:latest); without them it says so
#                                         and skips, unless SANDBOX_TEST_IMAGE was given
#   clients/test-live.sh --e2b            E2B's own SDKs (e2b, e2b-code-interpreter,
#                                         e2b-desktop from clients/e2b/requirements.txt) as
#                                         the client: clients/e2b/tests with pytest against a
#                                         backend-api and a sandbox-manager
#                                         (the engine and image as for --jobs)
#
# Its own backend-api is the binary cargo built (SANDPIPER_BIN_DIR, else
# $CARGO_TARGET_DIR/debug or target/debug; `cargo build -p backend-api` makes it) on a free
# port of 127.0.0.1, with the embedded store in a temporary folder, open registration and
# the agent off: a message is stored and no run answers it, so no model or sandbox is needed.
# With --jobs the agent is on, its model is clients/scripted-model.py and its sandboxes come
# from the sandbox-manager binary beside it (no warm pool, containers in a namespace of
# their own): each job writes fib.py in a real sandbox. With --e2b the agent is off and the
# manager keeps no warm pool either; the tests register accounts and make their own
# `sandboxes` keys. Everything it started is stopped and removed when it ends, also on
# failure.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'test-live.sh: error: %s\n' "$*" >&2; exit 1; }
. scripts/prerequisites.sh

jobs=false e2b=false
case "${1:-}" in
    "") ;;
    --jobs) jobs=true ;;
    --e2b) e2b=true ;;
    *) die "unknown argument $1 (see the header of clients/test-live.sh)" ;;
esac

# Both modes that need sandboxes.
sandboxes=false
! $jobs && ! $e2b || sandboxes=true
if $sandboxes; then
    [[ -z "${SANDPIPER_URL:-}" ]] || die "${1} starts its own backend-api and sandbox-manager: unset SANDPIPER_URL"
    image="${SANDBOX_TEST_IMAGE:-sandpiper-sandbox:latest}"
    # Skipped where there are no sandboxes to be had, unless the caller said there are.
    if ! docker image inspect "$image" >/dev/null 2>&1; then
        [[ -z "${SANDBOX_TEST_IMAGE:-}" ]] || die "the sandbox image $image is not there (or the Docker engine does not answer)"
        log "skipped: no Docker engine answers, or it has no $image (sandbox-image/build.sh makes it)"
        exit 0
    fi
fi

# The READMEs' job examples, which the job tests run, use curl and jq.
! $jobs || need_packages curl:curl jq:jq
if $e2b; then
    venv="$(need_pip_venv e2b-venv clients/e2b/requirements.txt)"
else
    need_node
    venv="$(need_pip_venv clients-venv clients/requirements.txt)"
    need_npm_packages clients/typescript
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-clients-live.XXXXXX")"
# What it started, stopped in reverse order at the end; the manager's containers go too.
started=()
namespace="clients$$"
# Networks of its own too: the suites beside it never make or remove this run's networks.
networks=("sandpiper-$namespace-internet" "sandpiper-$namespace-offline")
finish() {
    local status=$? i name
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        kill "${started[i]%%:*}" 2>/dev/null || true
        wait "${started[i]%%:*}" 2>/dev/null || true
    done
    if $sandboxes; then
        docker ps -aq --filter "label=org.sandpiper.manager=$namespace" | xargs -r docker rm -f -v >/dev/null 2>&1 || true
        docker volume ls -q --filter "label=org.sandpiper.manager=$namespace" | xargs -r docker volume rm -f >/dev/null 2>&1 || true
        docker network rm "${networks[@]}" >/dev/null 2>&1 || true
    fi
    if ((status != 0)); then
        for i in "${started[@]}"; do
            name="${i#*:}"
            printf '\n---- %s log ----\n' "$name" >&2
            tail -n 50 "$work/$name.log" >&2
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
answers() { python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$1" 2>/dev/null; }
wait_until_it_answers() { # url, name, pid
    for _ in $(seq 1 150); do
        answers "$1" && return 0
        kill -0 "$3" 2>/dev/null || die "$2 exited at start"
        sleep 0.2
    done
    die "$2 did not answer $1 within 30 s"
}
binary() {
    local file="${SANDPIPER_BIN_DIR:-${CARGO_TARGET_DIR:-target}/debug}/$1"
    [[ -x "$file" ]] || die "$file is missing: run \`cargo build -p $1\` first (or set SANDPIPER_BIN_DIR)"
    printf '%s\n' "$file"
}

# Only these settings: none of the caller's (a MongoDB, a model, a production secret check).
settings=(BACKEND_ENVIRONMENT=development BACKEND_HOST=127.0.0.1 BACKEND_DATA_DIR="$work/data"
    BACKEND_AUTH__MODE=password BACKEND_AUTH__REGISTRATION=open)
if $sandboxes; then
    # No light pool (E2B's sandboxes keep their files on a volume, which its sandboxes,
    # their home in memory, cannot give), and for the E2B suites a code pool of one: the
    # code interpreter's sandboxes are claimed from it, volume and started kernel
    # included, as people's are.
    code_pool=0
    ! $e2b || code_pool=1
    manager="$(binary sandbox-manager)"
    manager_port="$(free_port)"
    manager_token="clients-test-manager-token-$$"
    env -i PATH="$PATH" HOME="$HOME" RUST_LOG=warn ${DOCKER_HOST:+DOCKER_HOST="$DOCKER_HOST"} \
        SANDBOX_MANAGER_TOKEN="$manager_token" SANDBOX_MANAGER_PORT="$manager_port" \
        SANDBOX_MANAGER_DATA_DIR="$work/manager" SANDBOX_MANAGER_NAMESPACE="$namespace" \
        SANDBOX_MANAGER_POOL__SIZE=0 SANDBOX_MANAGER_POOL__CODE_SIZE=$code_pool \
        SANDBOX_MANAGER_SANDBOX__READY_TIMEOUT_SECS=90 \
        SANDBOX_MANAGER_QUOTA__PER_OWNER=10 \
        SANDBOX_MANAGER_SANDBOX__INTERNET_NETWORK="${networks[0]}" \
        SANDBOX_MANAGER_SANDBOX__OFFLINE_NETWORK="${networks[1]}" \
        SANDBOX_IMAGE="$image" "$manager" >"$work/sandbox-manager.log" 2>&1 &
    started+=("$!:sandbox-manager")
    wait_until_it_answers "http://127.0.0.1:$manager_port/health" sandbox-manager "$!"
    settings+=(SANDBOX_MANAGER_URL="http://127.0.0.1:$manager_port" SANDBOX_MANAGER_TOKEN="$manager_token")
fi
if $jobs; then
    llm_key="scripted-key-$$"
    python3 -u clients/scripted-model.py --api-key "$llm_key" >"$work/llm.url" 2>"$work/scripted-model.log" &
    started+=("$!:scripted-model")
    for _ in $(seq 1 50); do [[ -s "$work/llm.url" ]] && break; sleep 0.1; done
    [[ -s "$work/llm.url" ]] || die "the scripted model did not start"
    settings+=(LLM_BASE_URL="$(head -n 1 "$work/llm.url")" LLM_API_KEY="$llm_key" LLM_MODEL=scripted)
else
    settings+=(BACKEND_AGENT__ENABLED=false)
fi

if [[ -z "${SANDPIPER_URL:-}" ]]; then
    backend="$(binary backend-api)"
    port="$(free_port)"
    env -i PATH="$PATH" HOME="$HOME" RUST_LOG=warn BACKEND_PORT="$port" "${settings[@]}" \
        "$backend" >"$work/backend-api.log" 2>&1 &
    started+=("$!:backend-api")
    export SANDPIPER_URL="http://127.0.0.1:$port"
    wait_until_it_answers "$SANDPIPER_URL/ready" backend-api "$!"
    log "backend-api at $SANDPIPER_URL"
fi

if $e2b; then
    log "E2B's SDKs (pytest)"
    E2B_API_URL="$SANDPIPER_URL/e2b" E2B_SANDBOX_URL="$SANDPIPER_URL/e2b/sandbox" PYTHONDONTWRITEBYTECODE=1 \
        "$venv/bin/pytest" -p no:cacheprovider clients/e2b/tests
    exit 0
fi
if $jobs; then
    python_tests=clients/python/tests/test_live_jobs.py typescript_tests=test:live-jobs
else
    python_tests=clients/python/tests/test_live.py typescript_tests=test:live
fi
log "Python client (pytest)"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --target "$work/site" ./clients/python ||
    die "clients/python does not install"
PYTHONPATH="$work/site" PYTHONDONTWRITEBYTECODE=1 "$venv/bin/pytest" -p no:cacheprovider "$python_tests"

log "TypeScript client (node --test)"
(cd clients/typescript && npm run --silent "$typescript_tests")
