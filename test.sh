#!/usr/bin/env bash
# Every test of the repository: the Rust crate's (`cargo test`), the browser
# test of `gdl serve` (tests/browser/run.sh), then the Python package's
# (python/test.sh: builds the module and runs pytest).
# Arguments go to cargo test; CI passes --locked.
set -euo pipefail
cd "$(dirname "$0")"

echo "== cargo test"
cargo test "$@"

# The Python tests compare with the `gdl` command: the one cargo test just
# built (a `cargo build` would compile it again, with other features).
export GDL_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/gdl"

# `gdl serve` in a real browser (headless Chromium).
tests/browser/run.sh "$GDL_BIN"

python/test.sh
