#!/usr/bin/env bash
# The browser test of `gdl serve` (tests/browser/play.py): headless Chromium
# plays, by clicks only, tic-tac-toe, connect four (4x5, three in a row)
# and Kalah (3 pits of 3) to the end against `optimal` and against `mcts`
# (100 ms a move), X Nimmt! with three players and Goofspiel by clicks on
# cards, dots and boxes by clicks on edges, chess by piece and target,
# Kuhn poker with two people to a showdown that turns both cards up
# (through the hand-over screen), Hex on hexagons, and connect four whose
# `optimal` runs out of budget, recovered through the page. At each turn
# it checks the board against the game's own fields (the colours the file
# names, the coordinates, the last move, the values from the side to move
# against minimax), and that asking for values leaves Pig's dice (seed 7)
# as they were. It takes under a minute here; `--only kalah` plays one.
# `--pictures docs/pictures` saves every bundled game's board. Needs
# Debian's chromium and chromium-driver, installed here with apt-get when
# missing. Where they cannot be installed (no apt-get, not root), the test
# is skipped, and says so loudly; any other failure fails the run.
#
#     tests/browser/run.sh [GDL_BINARY] [--screenshots docs] [--pictures docs/pictures]
set -euo pipefail
cd "$(dirname "$0")/../.."

gdl=${1:-${GDL_BIN:-target/debug/gdl}}
shift || true

skip() {
    {
        echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
        echo "!! SKIPPED: the browser test of gdl serve: $1"
        echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    } >&2
    exit 0
}

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    command -v apt-get >/dev/null ||
        skip "chromium and chromedriver are not installed, and there is no apt-get to install them"
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        sudo -n true 2>/dev/null ||
            skip "chromium and chromedriver are not installed, and installing them needs root"
        as_root=(sudo -n)
    fi
    echo "== installing chromium and chromium-driver (apt-get)"
    # A package mirror that cannot be reached is the machine's problem, not
    # gdl's: say so loudly rather than fail every other test with it.
    "${as_root[@]}" apt-get update -qq ||
        skip "apt-get update failed, so chromium could not be installed"
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium chromium-driver >/dev/null ||
        skip "apt-get could not install chromium and chromium-driver"
fi

echo "== the browser test of gdl serve (headless $(chromium --version 2>/dev/null | head -1))"
python3 tests/browser/play.py "$gdl" --chromium "$(command -v chromium)" "$@"
