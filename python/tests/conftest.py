"""Shared fixtures: where the game files are, and gdl's command line to
compare the Python binding with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def game_path(name: str) -> str:
    return str(GAMES / name)


@pytest.fixture(scope="session")
def gdl_cli():
    """Runs the `gdl` command of this checkout (GDL_BIN, or built by cargo)
    and returns the finished process."""
    binary = os.environ.get("GDL_BIN")
    if not binary:
        # A no-op when `cargo test` or an earlier run has built it.
        subprocess.run(["cargo", "build", "--quiet", "--bin", "gdl"], cwd=ROOT, check=True)
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        binary = str(target / "debug" / "gdl")

    def run(*args, check=True):
        env = dict(os.environ, NO_COLOR="1")
        done = subprocess.run(
            [binary, *map(str, args)], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL
        )
        if check and done.returncode != 0:
            raise AssertionError(f"gdl {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def solve_json(gdl_cli):
    """`gdl solve --json` of a game file with flags, as a dict."""

    def run(*args):
        return json.loads(gdl_cli("solve", *args, "--json").stdout)

    return run
