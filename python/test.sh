#!/usr/bin/env bash
# The Python package's tests: builds the module `gdl` with maturin into a
# virtual environment under target/ (made on the first run), then runs
# pytest on python/tests. Needs python3 (3.9 or newer, with venv) and a
# Rust toolchain; pip fetches maturin, pytest and the packages the tests
# run gdl's games in.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${GDL_VENV:-target/python-venv}
if [ ! -x "$venv/bin/python" ]; then
    echo "== making a virtual environment in $venv"
    "${PYTHON:-python3}" -m venv "$venv"
fi
# As `source $venv/bin/activate` would: the build finds maturin on PATH.
# An absolute GDL_VENV as it is, a relative one from the checkout's root.
case $venv in
    /*) export VIRTUAL_ENV="$venv" ;;
    *) export VIRTUAL_ENV="$PWD/$venv" ;;
esac
export PATH="$VIRTUAL_ENV/bin:$PATH"
# Never another interpreter: pip would install into it.
if [ "$(command -v python)" != "$VIRTUAL_ENV/bin/python" ]; then
    echo "error: python is $(command -v python), not the virtual environment's $VIRTUAL_ENV/bin/python" >&2
    exit 1
fi
pip=(python -m pip --disable-pip-version-check)
# What the tests run gdl's games in: OpenSpiel, PettingZoo (with
# Gymnasium), easyAI, numpy; and mypy, whose stubtest checks _gdl.pyi. A
# package that cannot be installed stops the run here: no test is skipped
# for want of one.
"${pip[@]}" install --quiet "maturin>=1.9.4,<2" "pytest>=7" "numpy>=1.21" \
    "open_spiel>=2.0" "pettingzoo>=1.24" "gymnasium>=1.0" "easyAI>=2" "mypy>=1.8"

echo "== building and installing the Python package (the first build compiles gdl in release mode: a few minutes)"
# The maturin just installed builds it; --force-reinstall so that a rebuild
# of the same version replaces the last one.
"${pip[@]}" install --quiet --no-build-isolation --force-reinstall --no-deps ./python

echo "== pytest"
# The pytest command, not `python -m pytest`: that would put the current
# folder on sys.path, where python/gdl (without its compiled part) could
# shadow the installed package.
status=0
pytest -q python/tests || status=$?
if [ "$status" -eq 5 ]; then
    echo "error: pytest found no tests in python/tests" >&2
    exit 1
fi
exit "$status"
