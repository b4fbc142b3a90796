#!/usr/bin/env bash
# Runs the suites of ./test.sh that use Docker (./test.sh --docker-suites) several times in
# a row, each from a cold engine state, and lists every test that failed in any run: a
# test that passes on a warm machine but fails on a new one, or only sometimes, shows up
# here before a new user meets it.
#
#   scripts/flake-loop.sh [RUNS]     RUNS defaults to 5
#
# Cold means: the images stay (building them is not what is tested), but every container,
# volume and network of the project is removed before each run — the sandboxes and test
# containers, their home volumes, the managers' networks — as on a machine that never ran
# the suites. That includes the sandboxes of a Sandpiper deployment on the same engine:
# run it on a machine for development or CI, not beside a deployment people use. Other
# projects' containers are left alone. Each run's whole output is kept in a folder of its
# own, printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-5}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [RUNS]" >&2; exit 2; }
out="$(mktemp -d "${TMPDIR:-/tmp}/sandpiper-flake-loop.XXXXXX")"

log() { printf '\n==> %s\n' "$*" >&2; }

# What the project leaves on an engine: containers and volumes labelled by the
# sandbox-manager or by the container tests, and networks named sandpiper-*.
cold_engine() {
    local filter
    for filter in label=org.sandpiper.managed-by label=org.sandpiper.manager label=sandpiper.test; do
        docker ps -aq --filter "$filter" | xargs -r docker rm -f -v >/dev/null
        docker volume ls -q --filter "$filter" | xargs -r docker volume rm -f >/dev/null
    done
    docker network ls --format '{{.ID}} {{.Name}}' |
        awk '$2 ~ /^sandpiper/ { print $1 }' | xargs -r docker network rm >/dev/null 2>&1 || true
}

# The prerequisites, the image and the test build once, outside the timed runs.
./test.sh --prepare >"$out/prepare.log" 2>&1 || { cat "$out/prepare.log" >&2; exit 1; }

green=0
for ((run = 1; run <= runs; run++)); do
    log "run $run of $runs: cold engine, then ./test.sh --docker-suites"
    cold_engine
    started=$SECONDS
    if ./test.sh --docker-suites >"$out/run-$run.log" 2>&1; then
        green=$((green + 1))
        verdict=green
    else
        verdict=red
    fi
    printf '%s in %dm%02ds\n' "$verdict" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) |
        tee "$out/run-$run.verdict" >&2
done

log "$green of $runs runs green; logs in $out"
# libtest prints "test <name> ... FAILED" for each failing test, test.sh the suites that
# failed (a script's failure has no test name).
for ((run = 1; run <= runs; run++)); do
    grep -h -E '^test .* \.\.\. FAILED$|^    .* \(side by side\)$' "$out/run-$run.log" |
        sed "s/^ */run $run: /" || true
done
((green == runs))
