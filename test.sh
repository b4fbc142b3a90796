#!/usr/bin/env bash
# The whole test suite: every crate's unit and integration tests, against real processes,
# files and sockets. Extra arguments go to `cargo test` (e.g. a test name filter).
set -euo pipefail
cd "$(dirname "$0")"
cargo test --workspace --locked "$@"
