"""The command line's guards, in Python: the memory limit (a solve stops
with a GdlError that names the limit, instead of the interpreter aborting
when the system refuses an allocation) and signals (a handler of Python's
runs during a long solve, and its exception stops it). Issue 42, items 5
and 10. Each case runs in a child interpreter: a limit of its own, and a
hang or an abort seen as what it is."""

import subprocess
import sys
import textwrap

import pytest

import gdl


def child(code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    # The timeout only keeps a failure from hanging the suite.
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout
    )


def test_a_solve_under_an_address_space_limit_stops_with_an_error_that_names_it():
    done = child(
        """
        import resource
        import gdl
        game = gdl.load("connect4")
        # What the interpreter maps now, and 400 MB more: gdl's share is
        # half of what is left, less the search thread's stack.
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 400_000_000, resource.RLIM_INFINITY))
        try:
            game.solve()
        except gdl.GdlError as e:
            print("GdlError:", e)
        print("alive")
        """
    )
    assert done.returncode == 0, done.stderr
    assert "GdlError: gdl stopped at the memory limit of" in done.stdout
    assert "address-space limit" in done.stdout
    assert "memo table held" in done.stdout and "gdl.set_max_memory" in done.stdout
    assert done.stdout.rstrip().endswith("alive")


def test_set_max_memory_caps_a_solve_and_the_default_comes_back():
    done = child(
        """
        import gdl
        default = gdl.max_memory()
        gdl.set_max_memory("64M")
        print(gdl.max_memory())
        try:
            gdl.load("connect4").solve()
        except gdl.GdlError as e:
            print("GdlError:", e)
        gdl.set_max_memory(None)
        # The default again (its bytes follow the memory available now).
        print(gdl.max_memory()[1] == default[1] != "set_max_memory")
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"({64 << 20}, 'set_max_memory')"
    stop = "GdlError: gdl stopped at the memory limit of 64 MiB while solving (set by gdl.set_max_memory)"
    assert lines[1].startswith(stop)
    assert lines[-1] == "True"


def test_set_max_memory_takes_bytes_or_a_size_and_refuses_others():
    before = gdl.max_memory()[1]
    with pytest.raises(ValueError, match="too little"):
        gdl.set_max_memory(1000)
    with pytest.raises(ValueError, match="not a size"):
        gdl.set_max_memory("lots")
    with pytest.raises(TypeError):
        gdl.set_max_memory(1.5)
    assert gdl.max_memory()[1] == before
    gdl.set_max_memory(1 << 30)
    try:
        # As --max-memory: no more than an address-space limit leaves.
        cap, source = gdl.max_memory()
        assert (cap, source) == (1 << 30, "set_max_memory") or (
            cap < 1 << 30 and source == "what the process's address-space limit leaves"
        )
    finally:
        gdl.set_max_memory(None)
    assert gdl.max_memory()[1] == before != "set_max_memory"


@pytest.mark.parametrize("threads", [1, 2])
def test_an_alarm_s_exception_stops_a_long_solve(threads):
    done = child(
        f"""
        import signal
        import gdl
        game = gdl.load("connect4")
        def ring(signum, frame):
            raise TimeoutError("the alarm rang")
        signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        try:
            game.solve(threads={threads})
        except TimeoutError as e:
            print("TimeoutError:", e)
        # The module still works after the stop.
        gdl.load("nim", piles=[2, 1]).solve()
        print("alive")
        """,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # Connect four's solve runs for hours: the exception is the alarm's,
    # raised while the search ran, and the search stopped for it.
    assert done.stdout.splitlines() == ["TimeoutError: the alarm rang", "alive"]


def test_ctrl_c_stops_a_long_solve_with_keyboard_interrupt():
    done = child(
        """
        import os, signal, threading
        import gdl
        game = gdl.load("connect4")
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            game.solve()
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        gdl.load("nim", piles=[2, 1]).solve()
        print("alive")
        """,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["KeyboardInterrupt", "alive"]
