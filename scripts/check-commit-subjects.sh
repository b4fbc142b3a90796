#!/usr/bin/env bash
# Fails when a commit reachable from HEAD since BASE has a subject longer than 72
# characters, printing each one (CONTRIBUTING.md has the rule; .ci/run runs this). History
# before BASE, the commit at which the rule began to be checked, is not judged. A clone
# that lacks BASE (a shallow one) cannot tell which commits are new: it says so and skips.
#
#   scripts/check-commit-subjects.sh
set -euo pipefail
cd "$(dirname "$0")/.."

base=c8439896c766428ee55ebfcb05c2eac0f379ed1c
limit=72

if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    echo "commit subjects: not checked, this clone lacks ${base:0:12} (a shallow clone?)"
    exit 0
fi
if ! git merge-base --is-ancestor "$base" HEAD; then
    echo "commit subjects: not checked, HEAD does not descend from ${base:0:12}"
    exit 0
fi

# Characters, not bytes: subjects hold "…" and "—".
export LC_ALL=C.UTF-8
long=0
checked=0
while IFS= read -r line; do
    subject="${line#* }"
    checked=$((checked + 1))
    if ((${#subject} > limit)); then
        printf '%s (%d characters)\n' "$line" "${#subject}" >&2
        long=$((long + 1))
    fi
done < <(git log --no-merges --format='%h %s' "$base..HEAD")

if ((long)); then
    echo "commit subjects: $long of $checked since ${base:0:12} are over $limit characters (above)" >&2
    exit 1
fi
echo "commit subjects: the $checked since ${base:0:12} are at most $limit characters"
