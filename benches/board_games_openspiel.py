#!/usr/bin/env python3
"""Random playouts per second of gdl's board games beside OpenSpiel's C++
implementations of the same games, in the same run on the same machine
(docs/PERFORMANCE.md, "Against OpenSpiel's C++").

For each game, in rounds that interleave the two (gdl, OpenSpiel, gdl,
OpenSpiel, ...) so that a loaded machine's swings fall on both:

- gdl: `gdl bench FILE --seconds S` with the compiled rules (the default)
  and with the interpreter (`--engine vm`): its "random playouts/s" line
  (bench also times alpha-beta and a memoized solve, which are not used).
- OpenSpiel C++: `pyspiel.MCTSBot` with `pyspiel.RandomRolloutEvaluator(1,
  seed)`, searching from the start for S seconds (`max_wall_clock_time`);
  every simulation walks down the tree, expands a leaf and plays one random
  rollout from it to the end of the game, all in C++, so the root's visit
  count over the seconds is about C++ random playouts/s (a little below:
  the tree walk and the expansion are extra work).
- OpenSpiel from Python: whole random games (uniform legal actions, chance
  outcomes by their probabilities) driven by a Python loop, games/s; and
  gdl's Python module playing the same way, for the same overhead.

It prints one line per measurement as it goes, then a table of medians, and
the ratio gdl compiled / OpenSpiel C++. State size: gdl's cells (`gdl check`'s
"state size N cells") and the bytes they pack to (gdl packs a state's cells
at the narrowest of 1, 2, 4 or 8 bytes that holds every one of them, per
state: src/runtime/state.rs), median and largest over the positions of a
few random games; OpenSpiel's `len(state.serialize())` (the text the state
is saved as, for most games its history of actions: not its size in memory,
which Python cannot see) and its observation tensor's length, at the end of
those games.

    cargo build --release
    pip install open_spiel
    python3 benches/board_games_openspiel.py [--gdl target/release/gdl] [--seconds 1]
        [--rounds 3] [--games chess,go] [--quick] [--markdown]
"""

import argparse
import random
import re
import statistics
import subprocess
import sys
import time

import pyspiel

try:
    import gdl as gdl_py  # gdl's Python module, for state sizes and Python-driven play
except ImportError:
    gdl_py = None

# gdl file, OpenSpiel name, OpenSpiel parameters (the same game as the file's defaults).
GAMES = {
    "chess": ("games/chess.game", "chess", {}),
    "checkers": ("games/checkers.game", "checkers", {}),
    "othello": ("games/othello.game", "othello", {}),
    "go": ("games/go.game", "go", {"board_size": 9, "komi": 7.5}),
    "amazons": ("games/amazons.game", "amazons", {}),
    "breakthrough": ("games/breakthrough.game", "breakthrough", {}),
    "backgammon": ("games/backgammon.game", "backgammon", {}),
    "nine-mens-morris": ("games/nine-mens-morris.game", "nine_mens_morris", {}),
}

PLAYOUTS = re.compile(r"^playouts\s+([0-9.]+) random playouts/s \((\d+) playouts in ([0-9.]+) s\)", re.M)


def gdl_rate(gdl, path, engine, seconds, seed):
    cmd = [gdl, "bench", path, "--seconds", str(seconds), "--seed", str(seed), "--max-memory", "1G"]
    if engine == "vm":
        cmd += ["--engine", "vm"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = PLAYOUTS.search(out)
    if not m:
        sys.exit(f"no playouts line in the output of {' '.join(cmd)}:\n{out}")
    return int(m.group(2)) / float(m.group(3))


def to_decision(state, rng):
    """Plays chance outcomes until a player is to move (backgammon's first roll)."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    return state


def openspiel_cpp_rate(game, seconds, seed):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    # uct_c 2, no simulation cap, 1000 MB for the tree, no solver, verbose off.
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 10**9, 1000, False, seed, False,
                          pyspiel.ChildSelectionPolicy.UCT, float(seconds))
    state = to_decision(game.new_initial_state(), random.Random(seed))
    started = time.perf_counter()
    root = bot.mcts_search(state)
    elapsed = time.perf_counter() - started
    return root.explore_count / elapsed


def openspiel_random_game(game, rng):
    """One random game of OpenSpiel's `game` from a Python loop (chance
    outcomes by their probabilities): its last state and its actions."""
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return state, plies


def openspiel_python_rate(game, seconds, seed):
    """Random games/s from a Python loop, and the mean actions per game."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or games == 0:
        plies += openspiel_random_game(game, rng)[1]
        games += 1
    return games / (time.perf_counter() - started), plies / games


def gdl_random_game(g, rng, on_state=None):
    s = g.initial_state()
    plies = 0
    while True:
        if on_state:
            on_state(s)
        t = g.turn(s)
        if t == "terminal":
            return plies
        if t == "chance":
            moves, probs = zip(*g.chance_outcomes(s))
            s = g.apply(s, rng.choices(moves, probs)[0])
        else:
            s = g.apply(s, rng.choice(g.legal_moves(s)))
        plies += 1


def gdl_python_rate(g, seconds, seed):
    """Random games/s of gdl's Python module (compiled rules), and the mean moves per game."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or games == 0:
        plies += gdl_random_game(g, rng)
        games += 1
    return games / (time.perf_counter() - started), plies / games


def packed_bytes(cells):
    """The bytes gdl packs these cells to (src/runtime/state.rs, width_for)."""
    lo, hi, n = min(0, *cells), max(0, *cells), len(cells)
    if 12 < n <= 24 and lo >= 0 and hi <= 15:
        return (n + 1) // 2
    for width, bits in ((1, 7), (2, 15), (4, 31)):
        if -(1 << bits) <= lo and hi < (1 << bits):
            return n * width
    return n * 8


def state_sizes(g, game, games, seed):
    """gdl: cells, median and largest packed bytes over the positions of `games`
    random games. OpenSpiel: median len(serialize()) and the observation
    tensor's length at the end of as many random games."""
    rng = random.Random(seed)
    sizes, cells = [], 0

    def look(s):
        nonlocal cells
        c = s.__reduce__()[1][1]  # a state pickles as its game and its cells
        cells = len(c)
        sizes.append(packed_bytes(c))

    for _ in range(games):
        gdl_random_game(g, rng, look)
    serialized = []
    for _ in range(games):
        state, _ = openspiel_random_game(game, rng)
        serialized.append(len(state.serialize()))
    tensor = game.observation_tensor_size() if game.get_type().provides_observation_tensor else None
    return cells, statistics.median(sizes), max(sizes), statistics.median(serialized), tensor


def fmt(x):
    return "-" if x is None else f"{x:,.0f}" if x >= 10 else f"{x:,.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gdl", default="target/release/gdl")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated: " + ",".join(GAMES))
    ap.add_argument("--quick", action="store_true", help="one round of 0.3 s, no VM, no Python-driven play")
    ap.add_argument("--no-vm", action="store_true", help="leave out the interpreter")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.seconds, a.no_vm = 1, 0.3, True
    names = [n.strip() for n in a.games.split(",") if n.strip()]
    for n in names:
        if n not in GAMES:
            sys.exit(f"unknown game {n!r}; one of {', '.join(GAMES)}")

    rows = []
    for name in names:
        path, os_name, params = GAMES[name]
        game = pyspiel.load_game(os_name, params)
        g = gdl_py.load(path) if gdl_py else None
        r = {k: [] for k in ("jit", "vm", "cpp", "py", "py_plies", "gdl_py", "gdl_py_plies")}
        for rnd in range(a.rounds):
            seed = rnd + 1
            # Interleaved: gdl, OpenSpiel, gdl, OpenSpiel.
            r["jit"].append(gdl_rate(a.gdl, path, "jit", a.seconds, seed))
            r["cpp"].append(openspiel_cpp_rate(game, a.seconds, seed))
            if not a.no_vm:
                r["vm"].append(gdl_rate(a.gdl, path, "vm", a.seconds, seed))
            if not a.quick:
                games_s, plies = openspiel_python_rate(game, a.seconds, seed)
                r["py"].append(games_s)
                r["py_plies"].append(plies)
                if g is not None:
                    games_s, plies = gdl_python_rate(g, a.seconds, seed)
                    r["gdl_py"].append(games_s)
                    r["gdl_py_plies"].append(plies)
            line = [f"{name} round {rnd + 1}", f"gdl {r['jit'][-1]:,.0f}/s", f"openspiel C++ {r['cpp'][-1]:,.0f}/s"]
            if r["vm"]:
                line.append(f"gdl vm {r['vm'][-1]:,.0f}/s")
            if r["py"]:
                line.append(f"openspiel python {r['py'][-1]:,.1f} games/s ({r['py_plies'][-1]:.0f} actions)")
            if r["gdl_py"]:
                line.append(f"gdl python {r['gdl_py'][-1]:,.1f} games/s ({r['gdl_py_plies'][-1]:.0f} moves)")
            print("  ".join(line), flush=True)
        med = {k: (statistics.median(v) if v else None) for k, v in r.items()}
        sizes = state_sizes(g, game, 3, 1) if g is not None and not a.quick else None
        rows.append((name, med, sizes))

    head = ["game", "gdl compiled playouts/s", "gdl VM playouts/s", "OpenSpiel C++ rollouts/s",
            "gdl ÷ OpenSpiel C++", "OpenSpiel from Python games/s", "gdl from Python games/s",
            "moves a game (gdl / OpenSpiel)", "gdl state: cells, bytes (median / max)",
            "OpenSpiel serialize() bytes, obs. tensor"]
    table = []
    for name, m, sizes in rows:
        cells = "-"
        spiel = "-"
        if sizes:
            n, bmed, bmax, ser, tensor = sizes
            cells = f"{n}, {bmed:,.0f} / {bmax:,.0f}"
            spiel = f"{ser:,.0f}, {tensor if tensor is not None else '-'}"
        plies = "-"
        if m["py_plies"] is not None:
            plies = f"{fmt(m['gdl_py_plies'])} / {fmt(m['py_plies'])}"
        table.append([name, fmt(m["jit"]), fmt(m["vm"]), fmt(m["cpp"]), f"{m['jit'] / m['cpp']:.2f}",
                      fmt(m["py"]), fmt(m["gdl_py"]), plies, cells, spiel])
    print(f"\nmedians of {a.rounds} round{'s' if a.rounds > 1 else ''} of {a.seconds} s each")
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(head)]
        print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
        for row in table:
            print("  ".join(c.rjust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    main()
