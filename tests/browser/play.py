#!/usr/bin/env python3
"""The browser test of `gdl serve` (issues 28 and 45): headless Chromium,
driven by chromedriver over the W3C WebDriver protocol (plain HTTP, the
standard library only), plays every game tests/browser/run.sh lists by
clicks only, and checks what the page draws against the game's own fields
(the position as `--raw` prints it, asked of the server), the colours its
file names, and the values of the moves against minimax. With --pictures
DIR it also saves each bundled game's board.

    python3 tests/browser/play.py GDL_BINARY [--only GAME]... [--pictures docs/pictures]
"""

import argparse
import base64
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The few WebDriver commands the test needs."""

    def __init__(self, chromedriver, chromium):
        self.port = free_port()
        self.process = subprocess.Popen(
            [chromedriver, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while True:
            try:
                self.call("GET", "/status")
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        options = {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,860", "--hide-scrollbars"],
        }
        if chromium:
            options["binary"] = chromium
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"WebDriver {method} {path}: {e.read().decode()}") from None

    def do(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def js(self, script, *args):
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, css, index=0):
        found = self.do("POST", "/elements", {"using": "css selector", "value": css})
        element = list(found[index].values())[0]
        self.do("POST", f"/element/{element}/click", {})

    def wait(self, script, what, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.js(script)
            if value:
                return value
            time.sleep(0.1)
        error = self.js("return document.getElementById('error').textContent")
        raise AssertionError(f"timed out waiting for {what}; the page says: {error!r}")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.do("GET", "/screenshot")))

    def element_screenshot(self, css, path):
        found = self.do("POST", "/element", {"using": "css selector", "value": css})
        element = list(found.values())[0]
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.do("GET", f"/element/{element}/screenshot")))

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.process.terminate()
            self.process.wait()


def start_server(gdl, *extra):
    server = subprocess.Popen([gdl, "serve", "--port", "0", "--seed", "11", *extra], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    url = re.search(r"http://\S+/", line)
    if not url:
        server.terminate()
        raise AssertionError(f"gdl serve printed no URL: {line!r}")
    return server, url.group(0)


def new_game(d, url, game, seats):
    d.do("POST", "/url", {"url": f"{url}?game={game}"})
    d.wait(f"return document.querySelectorAll('.seat').length == {len(seats)}", "the seats")
    d.js("""const seats = document.querySelectorAll('.seat');
            arguments[0].forEach((s, i) => { seats[i].value = s; });""", seats)
    d.click("#start")
    d.wait("return document.getElementById('play').hidden === false", "the board")


# The page is waiting for the person: cells to click, or the game over.
READY = """const outcome = document.getElementById('outcome').textContent;
           const legal = document.querySelectorAll('#board .legal').length;
           return outcome !== '' || (legal > 0 && document.getElementById('status').textContent.endsWith('(you)'));"""

# Each cell's symbol as the board draws it ('.' for an empty cell).
CELLS_OF = """[...document.querySelectorAll('#board g[data-cell]')].map(g => {
               const t = g.querySelector('text'); return t ? t.textContent : '.'; })"""
CELLS = "return " + CELLS_OF + ";"


def game_file(name):
    with open(os.path.join("games", name + ".game")) as f:
        return f.read()


def declared_colours(name):
    """Each symbol's colour as the game's display names it."""
    text = game_file(name)
    symbols = re.findall(r'"([^"]*)"', re.search(r"^\s*symbols (.*)$", text, re.M).group(1))
    colours = re.findall(r'"([^"]*)"', re.search(r"^\s*colours (.*)$", text, re.M).group(1))
    return {s: c for s, c in zip(symbols, colours) if c}


def server_state(d, url):
    """The game the page shows, as the server tells it to any client."""
    sid = d.js("return state.id")
    return json.loads(urllib.request.urlopen(f"{url}api/state?id={sid}").read())


def history(d):
    return d.js("return [...document.querySelectorAll('#history li')].map(li => li.textContent)")


def set_params(d, url, game, params):
    """Opens `game` and types its parameters, as a person does (each typed
    value changes the seats where it changes the players)."""
    d.do("POST", "/url", {"url": f"{url}?game={game}"})
    d.wait("return document.querySelectorAll('.seat').length > 0", "the seats")
    for name, value in params.items():
        d.js("""const i = document.querySelector(`#params input[name='${arguments[0]}']`);
                i.value = arguments[1]; i.dispatchEvent(new Event('change'));""", name, str(value))
        d.wait("return document.getElementById('seats').dataset.ready === 'yes'", f"the players with {name} = {value}")


def start(d, seats):
    d.wait(f"return document.querySelectorAll('.seat').length == {len(seats)}", f"{len(seats)} seats")
    d.js("""const seats = document.querySelectorAll('.seat');
            arguments[0].forEach((s, i) => { seats[i].value = s; });""", seats)
    d.click("#start")
    d.wait("return document.getElementById('play').hidden === false", "the board")


def drawn_grid(d):
    """Each cell as the page draws it: its symbol, the colour of what is on
    it, whether it is marked as changed by the last move."""
    return d.js("""return [...document.querySelectorAll('#board g[data-cell]')].map(g => {
        const piece = g.querySelector('circle, text');
        return { symbol: g.dataset.symbol, colour: piece ? piece.getAttribute('fill') : null,
                 last: g.querySelector('.last') !== null };
      });""")


def coordinates(d):
    return d.js("return [...document.querySelectorAll('#board text.coord')].map(t => t.textContent)")


def check_grid(d, expected, colours, columns, rows, last):
    """The board drawn against the game's own position: every cell's
    symbol, the colour the file names for it, the coordinates, and the one
    cell the last move marked."""
    drawn = drawn_grid(d)
    assert [c["symbol"] for c in drawn] == expected, ([c["symbol"] for c in drawn], expected)
    for i, c in enumerate(drawn):
        if expected[i] in colours:
            assert c["colour"] == colours[expected[i]], (i, c, colours)
    assert coordinates(d) == columns + rows, coordinates(d)
    marked = [i for i, c in enumerate(drawn) if c["last"]]
    assert marked == ([] if last is None else [last]), (marked, last)


def tictactoe_cells(raw):
    """The nine cells from the game's own fields (`marks: [{1, 5}, {9}]`)."""
    marks = re.search(r"marks: \[\{([^}]*)\}, \{([^}]*)\}\]", raw)
    cells = ["."] * 9
    for symbol, group in zip("XO", marks.groups()):
        for n in filter(None, (x.strip() for x in group.split(","))):
            cells[int(n) - 1] = symbol
    return cells


def tictactoe_value(cells, me):
    """Minimax: what the position is worth to `me`, `me` to move (1 a win)."""
    other = "O" if me == "X" else "X"
    if any(all(cells[i] == other for i in line) for line in LINES):
        return -1
    if "." not in cells:
        return 0
    return max(-tictactoe_value(cells[:i] + [me] + cells[i + 1:], other) for i in range(9) if cells[i] == ".")


def check_tictactoe_values(d, cells, me):
    """Values of the moves, read from the side to move, against minimax."""
    d.click("#values")
    d.wait("return document.getElementById('valuetable').hidden === false", "the values", 30)
    head = d.js("return document.querySelector('#valuetable th:nth-child(2)').textContent")
    assert head == f"value for {me}", head
    rows = d.js("""return [...document.querySelectorAll('#valuetable tr')].slice(1)
                     .map(r => [r.cells[0].textContent, Number(r.cells[1].textContent), r.className === 'best']);""")
    other = "O" if me == "X" else "X"
    want = {str(i + 1): -tictactoe_value(cells[:i] + [me] + cells[i + 1:], other) for i in range(9) if cells[i] == "."}
    assert {m: v for m, v, _ in rows} == want, (rows, want, cells)
    # The best moves are marked only where some moves are worse.
    differ = len(set(want.values())) > 1
    best = max(want.values())
    assert all(b == (differ and want[m] == best) for m, _, b in rows), rows
    # And on the board: each free cell shows its move's value.
    on_board = d.js("return [...document.querySelectorAll('#board text.value')].map(t => t.textContent)")
    assert sorted(on_board) == sorted(str(v) for v in want.values()), (on_board, want)
    return rows


def play_tictactoe(d, url, opponent, person="X"):
    """Tic-tac-toe to the end against `opponent`, the person at `person`,
    by clicks on cells: at each of the person's turns the board is checked
    against the game's own fields, and (as O) the values of the moves
    against minimax from O's side."""
    seats = ["human", opponent] if person == "X" else [opponent, "human"]
    set_params(d, url, "tictactoe", {})
    start(d, seats)
    colours = declared_colours("tictactoe")
    assert colours == {"X": "#c0392b", "O": "#2e86de"}, colours
    clicks = 0
    valued = 0
    for turn in range(9):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        game = server_state(d, url)
        cells = tictactoe_cells(game["raw"]) if game["raw"] else None
        moves = history(d)
        # The last move: its cell, as the game numbers its cells 1 to 9.
        last = int(moves[-1].split(": ")[1]) - 1 if moves else None
        page = [c["symbol"] for c in drawn_grid(d)]
        if cells is None:
            cells = page
        check_grid(d, cells, colours, ["a", "b", "c"], ["3", "2", "1"], last)
        if person == "O":
            check_tictactoe_values(d, cells, "O")
            valued += 1
        free = [i for i in range(9) if cells[i] == "."]
        # Not best play: the person clicks around the board.
        cell = free[(turn * 5) % len(free)]
        d.click(f"#board g[data-cell='{cell}'] .legal")
        clicks += 1
        d.wait(f"const c = {CELLS_OF}; return c[{cell}] == '{person}'", "the mark clicked to appear")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    cells = tictactoe_cells(server_state(d, url)["raw"])
    assert [c["symbol"] for c in drawn_grid(d)] == cells
    outcome = d.js("return document.getElementById('outcome').textContent")
    moves = history(d)
    won = lambda mark: any(all(cells[i] == mark for i in line) for line in LINES)
    assert cells.count(person) == clicks, (cells, clicks)
    assert len(moves) == 9 - cells.count("."), (moves, cells)
    if opponent == "optimal":
        assert not won(person), f"optimal lost: {cells}"
    winner = "X" if won("X") else "O" if won("O") else None
    assert outcome == (f"{winner} won the game" if winner else "the game is a draw"), (outcome, cells)
    if winner:
        # The winning line is marked, and only its cells.
        marked = d.js("return [...document.querySelectorAll('#board g[data-cell]')].filter(g => g.querySelector('.win')).map(g => Number(g.dataset.cell))")
        assert any(set(line) <= set(marked) for line in LINES) and all(cells[i] == winner for i in marked), marked
    print(f"browser: tic-tac-toe as {person} against {opponent}, {clicks} clicks"
          f"{f', values checked {valued} times' if valued else ''}: {outcome} ({''.join(cells)})")


def connect4_columns(raw, rows, cols):
    """The grid, top row first, from the game's own fields (`columns: [[X, O], [], ...]`)."""
    body = re.search(r"columns: \[(.*)\]", raw).group(1)
    columns = [[x.strip() for x in c.split(",") if x.strip()] for c in re.findall(r"\[([^\]]*)\]", body)]
    assert len(columns) == cols, (raw, columns)
    return [columns[c][rows - 1 - r] if rows - 1 - r < len(columns[c]) else "." for r in range(rows) for c in range(cols)]


def play_connect4(d, url, opponent, rows=4, cols=5, connect=3):
    """Connect four, small, to the end against `opponent`, by clicks on
    columns: the board against the game's own fields at every turn, the
    columns named as the moves are, the last disc marked where it fell."""
    set_params(d, url, "connect4", {"rows": rows, "cols": cols, "connect": connect})
    start(d, ["human", opponent])
    colours = declared_colours("connect4")
    names = [str(c + 1) for c in range(cols)]
    ranks = [str(rows - r) for r in range(rows)]
    clicks = 0
    for turn in range(rows * cols):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        game = server_state(d, url)
        cells = connect4_columns(game["raw"], rows, cols)
        moves = history(d)
        last = None
        if moves:
            # The column the move list names is the one drawn with that name.
            column = names.index(moves[-1].split(": ")[1])
            last = next(r * cols + column for r in range(rows) if cells[r * cols + column] != ".")
        check_grid(d, cells, colours, names, ranks, last)
        if turn == 1:
            check_connect4_values(d, cells, cols)
        open_columns = [c for c in range(cols) if cells[c] == "."]
        column = open_columns[(turn * 3) % len(open_columns)]
        # A click on the column's top cell drops the disc to the bottom.
        d.click(f"#board g[data-cell='{column}'] .legal")
        clicks += 1
        d.wait(f"return document.querySelectorAll('#history li').length > {len(moves)}", "the disc dropped")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    cells = connect4_columns(server_state(d, url)["raw"], rows, cols)
    assert [c["symbol"] for c in drawn_grid(d)] == cells
    outcome = d.js("return document.getElementById('outcome').textContent")
    assert cells.count("X") == clicks, (cells, clicks)
    line = d.js("return [...document.querySelectorAll('#board g[data-cell]')].filter(g => g.querySelector('.win')).map(g => Number(g.dataset.cell))")
    if "won" in outcome:
        winner = outcome.split(" ")[0]
        assert len(line) >= connect and all(cells[i] == winner for i in line), (outcome, line, cells)
    else:
        assert outcome == "the game is a draw" and "." not in cells and not line, (outcome, cells)
    print(f"browser: connect four {rows}x{cols} (connect {connect}) against {opponent}, {clicks} clicks on columns: {outcome}")


def check_connect4_values(d, cells, cols):
    """The values for X (the side to move), one per open column, on the
    board where the disc would land and in the table."""
    d.click("#values")
    d.wait("return document.getElementById('valuetable').hidden === false", "the values", 30)
    note = d.js("return document.getElementById('valuenote').textContent")
    assert "for X (the side to move)" in note, note
    table = d.js("""return [...document.querySelectorAll('#valuetable tr')].slice(1)
                     .map(r => [r.cells[0].textContent, r.cells[1].textContent]);""")
    open_columns = [str(c + 1) for c in range(cols) if cells[c] == "."]
    assert sorted(m for m, _ in table) == sorted(open_columns), (table, open_columns)
    on_board = d.js("return [...document.querySelectorAll('#board text.value')].map(t => t.textContent)")
    assert len(on_board) == len(open_columns), on_board


def play_chess(d, url):
    """Chess is played by clicking a piece, then its target: e2-e4, then
    Ng1-f3, checking the board the page draws after each and that a target
    clicked alone plays nothing."""
    new_game(d, url, "chess", ["human", "random"])
    d.wait(READY, "White's turn")
    # Cells are numbered as the display's rows: a8 is 0, e2 is 52, e4 36.
    cell = lambda square: 8 * (8 - int(square[1])) + "abcdefgh".index(square[0])
    assert d.js("return document.querySelector(\"#board g[data-cell='52']\").dataset.symbol") == "P"
    # An empty square is not a move by itself.
    assert d.js(f"return document.querySelector(\"#board g[data-cell='{cell('e4')}'] .legal\")") is None
    # The move list names a piece's moves by the board's coordinates too.
    named = d.js("return [...document.querySelectorAll('#movelist option')].map(o => [o.value, o.textContent])")
    assert ["(52, 54, 0)", "e2\u2013e4 (52, 54, 0)"] in named, named
    d.click(f"#board g[data-cell='{cell('e2')}'] rect")
    d.wait("return document.querySelectorAll('#board .target').length == 2", "e2's two targets marked")
    d.click(f"#board g[data-cell='{cell('e4')}'] rect")
    # The old board's cells are ready to click until the move comes back.
    d.wait("return document.querySelectorAll('#history li').length >= 2", "Black's answer")
    d.wait(READY, "White's second turn")
    first = d.js("return document.querySelector('#history li').textContent")
    assert first == "White: (52, 54, 0)", first
    symbols = d.js("return [...document.querySelectorAll('#board g[data-cell]')].map(g => g.dataset.symbol)")
    assert symbols[cell("e4")] == "P" and symbols[cell("e2")] == ".", symbols
    # Black's reply and White's pawn are marked as what changed last.
    assert d.js("return document.querySelectorAll('#board .last').length") == 2
    d.click(f"#board g[data-cell='{cell('g1')}'] rect")
    d.click(f"#board g[data-cell='{cell('f3')}'] rect")
    d.wait("return document.querySelectorAll('#history li').length >= 3", "Nf3 in the history")
    moves = d.js("return [...document.querySelectorAll('#history li')].map(li => li.textContent)")
    assert moves[2] == "White: (71, 63, 0)", moves
    print(f"browser: chess by clicks: {'; '.join(moves)}")


def recover_from_a_failed_agent(d, url):
    """On a server whose `optimal` may search only 2,000 nodes, connect
    four's optimal runs out at its first move: the page offers its own ways
    on, and the game goes on through them."""
    new_game(d, url, "connect4", ["human", "optimal"])
    d.wait(READY, "the person's turn")
    d.click("#board g[data-cell='3'] rect")
    d.wait("return document.getElementById('recover').hidden === false", "the page's ways on")
    status = d.js("return document.getElementById('status').textContent")
    assert status == "O (optimal) could not choose a move", status
    d.click("#recover-stand-in")
    d.wait(READY, "the person's turn after random stood in")
    moves = d.js("return [...document.querySelectorAll('#history li')].map(li => li.textContent)")
    assert len(moves) == 2 and moves[0] == "X: 4" and moves[1].startswith("O: "), moves
    # Taken back: the person's move and the stand-in's answer.
    d.click("#undo")
    d.wait("return document.querySelectorAll('#history li').length == 0", "the moves taken back")
    d.wait(READY, "the person's turn again")
    # The person seats random at O from now on.
    d.click("#board g[data-cell='2'] rect")
    d.wait("return document.getElementById('recover').hidden === false", "the page's ways on")
    d.js("document.getElementById('recover-seat').value = 'random';")
    d.click("#recover-seat-go")
    d.wait(READY, "the person's turn with random seated")
    seated = d.js("return document.getElementById('title').textContent")
    assert seated.endswith("O random"), seated
    print(f"browser: connect four, optimal out of budget: stood in, taken back, reseated ({seated})")


def play_kuhn_to_a_showdown(d, url):
    """Kuhn poker with two people at one screen: each sees their own card
    only after the screen is handed to them, the other's face down; both
    pass, and the showdown turns both cards up."""
    new_game(d, url, "kuhn-poker", ["human", "human"])
    seen = []
    for who in ["First", "Second"]:
        d.wait("return document.getElementById('handover').hidden === false", f"the screen handed to {who}")
        assert d.js("return document.getElementById('handover-who').textContent") == who
        # Nothing of the game is drawn while the screen is covered.
        assert d.js("return document.querySelectorAll('#board .card').length") == 0
        d.click("#handover-go")
        d.wait("return document.getElementById('status').textContent.endsWith('(you)') && "
               "document.querySelectorAll('#board .card').length > 0", f"{who}'s turn")
        mine = d.js(f"return [...document.querySelectorAll(\"#board [data-field=card] .player\")].map(p => p.querySelector('.card').textContent)")
        down = d.js("return document.querySelectorAll('#board [data-field=card] .card.down').length")
        assert down == 1, (who, mine)
        own = mine[0 if who == "First" else 1]
        assert own in ("J", "Q", "K"), mine
        seen.append(own)
        # A pass is a click on the move list's button: Kuhn's moves are no cards.
        d.js("document.getElementById('movelist').value = 'pass';")
        d.click("#play-move")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the showdown")
    shown = d.js("return [...document.querySelectorAll(\"#board [data-field=card] .card\")].map(c => c.textContent)")
    assert shown == seen, (shown, seen)
    # The actions by the names the display gives them, not as 0s and 1s.
    actions = d.js("return document.querySelector('#board [data-field=actions] .text').textContent")
    assert actions == "pass, pass", actions
    outcome = d.js("return document.getElementById('outcome').textContent")
    rank = "JQK"
    winner = "First" if rank.index(seen[0]) > rank.index(seen[1]) else "Second"
    assert outcome == f"{winner} won the game", (outcome, seen)
    print(f"browser: Kuhn poker, two people, hand-over and showdown: {seen[0]} against {seen[1]}: {outcome}")


def play_hex_by_clicking_cells(d, url):
    """Hex on hexagons whose sides are drawn in the colours of the players
    who join them, played to the end by clicks on cells."""
    new_game(d, url, "hex", ["human", "random"])
    sides = d.js("return [...document.querySelectorAll('#board .side')].map(s => [s.dataset.player, s.getAttribute('stroke')])")
    assert sides == [["Red", "#d63031"]] * 2 + [["Blue", "#2e86de"]] * 2, sides
    clicks = 0
    for turn in range(9):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        assert d.js("return document.querySelectorAll('#board polygon.legal').length") > 0
        d.click("#board polygon.legal", 0)
        clicks += 1
        d.wait(f"return document.querySelectorAll('#history li').length > {2 * clicks - 2}", "the stone placed")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    symbols = d.js("return [...document.querySelectorAll('#board g[data-cell]')].map(g => g.dataset.symbol)")
    assert symbols.count("R") == clicks, (symbols, clicks)
    outcome = d.js("return document.getElementById('outcome').textContent")
    print(f"browser: Hex by {clicks} clicks on hexagons: {outcome}")


def fields(raw):
    """`name: value` fields of the game's own position, as text."""
    parts = re.split(r"(?:^|,\s+|\n)(\w+): ", raw.strip())
    return dict(zip(parts[1::2], parts[2::2]))


def numbers(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def play_kalah(d, url, opponent, pits=3, seeds=3):
    """Kalah, small, to the end against `opponent`, by clicks on the ringed
    pits, the rows named: at each turn every pit and store against the
    game's own fields, and the ringed pits against those South may sow."""
    set_params(d, url, "kalah", {"pits": pits, "seeds": seeds})
    start(d, ["human", opponent])
    title = d.js("return document.getElementById('title').textContent")
    assert title == f"Kalah: South human vs North {opponent}", title
    names = d.js("return [...document.querySelectorAll('#board .side-name')].map(t => t.textContent)")
    assert names[0].startswith("South's pits") and names[1].startswith("\u2190 North's pits"), names
    clicks = 0
    last_marked = 0
    for turn in range(60):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        f = fields(server_state(d, url)["raw"])
        ring, store = numbers(f["ring"]), numbers(f["store"])
        drawn = d.js("""const of = (row) => [...document.querySelectorAll(`#board text.seeds[data-row=${row}]`)].map(t => Number(t.textContent));
                        return { bottom: of('bottom'), top: of('top'),
                                 left: Number(document.querySelector('#board text.store.left').textContent),
                                 right: Number(document.querySelector('#board text.store.right').textContent),
                                 ringed: [...document.querySelectorAll('#board rect.pit.legal')].map(r => r.dataset.row + r.dataset.index) };""")
        # South's pits along the bottom, North's across the top from the right; South's store right.
        want = {"bottom": ring[:pits], "top": [ring[2 * pits - 1 - i] for i in range(pits)],
                "left": store[1], "right": store[0],
                "ringed": [f"bottom{i}" for i in range(pits) if ring[i] > 0]}
        assert drawn == want, (drawn, want)
        # The pit the last move sowed from (South's pit k is the bottom
        # row's k-th, North's the top row's k-th from the right).
        moves = history(d)
        marked = d.js("return [...document.querySelectorAll('#board rect.pit.last')].map(r => r.dataset.row + r.dataset.index)")
        if moves:
            who, pit = moves[-1].split(": ")
            sown = f"bottom{int(pit) - 1}" if who == "South" else f"top{pits - int(pit)}"
            # A sowing that laps round refills its pit: nothing is marked.
            assert marked in ([sown], []), (marked, sown)
            last_marked += len(marked)
        before = len(history(d))
        d.click("#board rect.pit.legal", clicks % len(want["ringed"]))
        clicks += 1
        d.wait(f"return document.querySelectorAll('#history li').length > {before}", "the sowing")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    outcome = d.js("return document.getElementById('outcome').textContent")
    store = numbers(fields(server_state(d, url)["raw"])["store"])
    north = int(d.js("return document.querySelector('#board text.store.left').textContent"))
    south = int(d.js("return document.querySelector('#board text.store.right').textContent"))
    assert [south, north] == store, (south, north, store)
    assert last_marked > 0, "the last sowing was never marked"
    winner = "South" if south > north else "North" if north > south else None
    assert (f"{winner} won" in outcome) if winner else ("draw" in outcome), (outcome, south, north)
    print(f"browser: Kalah {pits}x{seeds} against {opponent}, {clicks} clicks on pits: {outcome}")


def hand_of(d, player):
    return d.js(f"return [...document.querySelectorAll(\"#board [data-field=hands] .player[data-player='{player}'] .card\")].map(c => c.textContent)")


def play_cards(d, url, game, params, seats, rounds, check_round, private=True):
    """A card game of simultaneous bids by clicks on the cards of the
    person's hand (player 0): each round the card clicked leaves the hand
    and is the one the move list records for the person."""
    set_params(d, url, game, params)
    start(d, seats)
    played = []
    for _ in range(rounds):
        d.wait(READY, "the person's turn")
        hand = hand_of(d, 0)
        others = [hand_of(d, p) for p in range(1, len(seats))]
        # The others' private hands are face down to the person.
        assert all(all((c == "?") == private for c in h) for h in others), others
        legal = d.js("return [...document.querySelectorAll('#board [data-field=hands] .card.legal')].map(c => c.textContent)")
        assert legal == hand and hand, (legal, hand)
        card = hand[len(played) % len(hand)]
        before = len(history(d))
        d.click("#board [data-field=hands] .card.legal", hand.index(card))
        d.wait(f"return [...document.querySelectorAll('#history li')].slice({before}).some(li => li.textContent.startsWith('all: '))",
               "the round played")
        everyone = next(m for m in history(d)[before:] if m.startswith("all: "))
        mine = everyone[len("all: "):].split(", ")[0]
        assert mine.split(" ")[-1] == card, (everyone, card)
        check_round(d, card)
        played.append(card)
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    return played, d.js("return document.getElementById('outcome').textContent")


def play_xnimmt(d, url):
    """X Nimmt! with three players (P=3 changes the seats; N=3 first, or
    the deck of 17 is too small for three hands of 5), three rounds,
    the person's cards played by clicks; at the end the winner is the one
    who collected fewest points in the game's own fields."""
    d.do("POST", "/url", {"url": f"{url}?game=xnimmt"})
    d.wait("return document.querySelectorAll('.seat').length == 2", "two seats")
    def after_round(d, card):
        assert card not in hand_of(d, 0) or d.js("return document.getElementById('outcome').textContent")
    played, outcome = play_cards(d, url, "xnimmt", {"N": 3, "P": 3}, ["human", "random", "random"], 3, after_round)
    f = fields(server_state(d, url)["raw"])
    collected = numbers(f["collected"])
    names = [p["name"] for p in server_state(d, url)["players"]]
    low = min(collected)
    winners = [names[i] for i, c in enumerate(collected) if c == low]
    assert any(w in outcome for w in winners), (outcome, collected, names)
    print(f"browser: X Nimmt! with 3 players, cards {', '.join(played)} clicked: {outcome} (collected {collected})")


def play_goofspiel(d, url):
    """Goofspiel with 3 cards, bids by clicks on the person's cards."""
    def after_round(d, card):
        pass
    played, outcome = play_cards(d, url, "goofspiel", {"cards": 3}, ["human", "random"], 3, after_round,
                                 private=False)
    assert sorted(played) == ["1", "2", "3"], played
    print(f"browser: Goofspiel, bids {', '.join(played)} clicked: {outcome}")


def pig_dice(d, url, ask):
    """Pig with seed 7, two people rolling four times by the move list; with
    `ask`, the values of the moves asked before each roll. The dice drawn."""
    set_params(d, url, "pig", {"target": 10})
    d.js("document.getElementById('seed').value = '7';")
    start(d, ["human", "human"])
    for _ in range(4):
        d.wait(READY.replace("legal > 0 && ", ""), "a person's turn")
        if ask:
            d.click("#values")
            d.wait("return document.getElementById('valuetable').hidden === false", "the values", 30)
        before = len(history(d))
        d.js("document.getElementById('movelist').value = 'roll';")
        d.click("#play-move")
        d.wait(f"return [...document.querySelectorAll('#history li')].slice({before}).some(li => li.textContent.startsWith('chance: '))",
               "the die")
    d.js("document.getElementById('seed').value = '';")
    return [m for m in history(d) if m.startswith("chance: ")]


def check_pig_dice(d, url):
    plain = pig_dice(d, url, False)
    asked = pig_dice(d, url, True)
    assert plain == asked and len(plain) == 4, (plain, asked)
    print(f"browser: Pig, seed 7: the same dice with and without values asked ({', '.join(m[8:] for m in plain)})")


def play_dots_and_boxes(d, url, rows=2, cols=2):
    """Dots and boxes to the end against `random` by clicks on edges (the
    display's `plays` says which line each is): at each turn the edge drawn
    last is the one the move list names, and each box is drawn as its
    closer's, as many as the game's own count of boxes."""
    set_params(d, url, "dots-and-boxes", {})
    start(d, ["human", "random"])
    width = 2 * cols + 1
    horizontal = (rows + 1) * cols

    def cell_of(line):
        if line < horizontal:
            return 2 * (line // cols) * width + 2 * (line % cols) + 1
        v = line - horizontal
        return (2 * (v // (cols + 1)) + 1) * width + 2 * (v % (cols + 1))

    clicks = 0
    for turn in range(horizontal * 2):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        check_dots(d, url, cell_of)
        before = len(history(d))
        d.click("#board g[data-cell] rect.legal", turn % d.js("return document.querySelectorAll('#board rect.legal').length"))
        clicks += 1
        d.wait(f"return document.querySelectorAll('#history li').length > {before}", "the line drawn")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    check_dots(d, url, cell_of)
    outcome = d.js("return document.getElementById('outcome').textContent")
    print(f"browser: dots and boxes {rows}x{cols} against random, {clicks} clicks on edges: {outcome}")


def check_dots(d, url, cell_of):
    moves = history(d)
    last = d.js("return [...document.querySelectorAll('#board g[data-cell]')].filter(g => g.querySelector('.edge.last')).map(g => Number(g.dataset.cell))")
    assert last == ([cell_of(int(moves[-1].split(": ")[1]))] if moves else []), (last, moves[-1:])
    game = server_state(d, url)
    names = [p["name"] for p in game["players"]]
    # Each player's boxes, counted by the game itself.
    boxes = numbers(fields(game["raw"])["boxes"]) if game["raw"] else None
    owners = d.js("return [...document.querySelectorAll('#board rect.box')].map(r => r.dataset.owner)")
    assert all(o in names for o in owners), owners
    if boxes is not None:
        assert [owners.count(n) for n in names] == boxes, (owners, boxes)


# How many moves into each game its picture is taken (8 where not named):
# a few for the short games, more where the board fills slowly.
PICTURE_MOVES = {"nim": 2, "nim-normal": 2, "nimcala": 2, "select19": 2, "pig": 3, "tictactoe": 4,
                 "tictactoe-symmetric": 4, "three-mens-morris": 5, "go": 14, "gomoku": 12, "othello": 12,
                 "amazons": 6, "backgammon": 10, "dots-and-boxes": 11}


def board_pictures(d, url, folder, only=None):
    """Each bundled game's board a few moves in, for the docs: people at
    every seat, the moves drawn at random from the move list, so that the
    picture is taken as a person sees the board, the last move marked; a
    game of hidden cards is played by `random` to its end, where every
    card is turned up."""
    rng = random.Random(45)
    # Tall enough for the longest panel (X Nimmt!'s fields): a picture of
    # an element is cut at the window's edge.
    d.do("POST", "/window/rect", {"width": 1280, "height": 1400})
    games = json.loads(urllib.request.urlopen(url + "api/games").read())["games"]
    waiting = ("const done = document.getElementById('outcome').textContent !== '';"
               "return done || document.getElementById('status').textContent.endsWith('(you)');")
    for game in [g["name"] for g in games if not only or g["name"] in only]:
        info = json.loads(urllib.request.urlopen(urllib.request.Request(
            url + "api/game", data=json.dumps({"game": game}).encode(), method="POST",
            headers={"Content-Type": "application/json"})).read())
        seats = len(info["players"])
        new_game(d, url, game, ["human"] * seats)
        d.wait(waiting, f"{game}: a person's turn")
        # Hidden cards, or moves made at once (Goofspiel's bids): agents play.
        if d.js("return state.hidden || state.turn === 'simultaneous'"):
            new_game(d, url, game, ["random"] * seats)
            d.wait("return document.getElementById('outcome').textContent !== ''", f"{game} to its end")
        else:
            for _ in range(PICTURE_MOVES.get(game, 8)):
                d.wait(waiting, f"{game}: a person's turn")
                if d.js("return document.getElementById('outcome').textContent"):
                    break
                moves = d.js("return [...document.querySelectorAll('#movelist option')].map(o => o.value)")
                before = len(history(d))
                d.js("document.getElementById('movelist').value = arguments[0];", rng.choice(moves))
                d.click("#play-move")
                d.wait(f"return document.querySelectorAll('#history li').length > {before}", f"{game}: the move")
            d.wait(waiting, f"{game}: a person's turn")
        path = os.path.join(folder, f"serve-{game}.png")
        # The board with its title, status and outcome: not the whole window.
        d.element_screenshot("#play", path)
        print(f"browser: wrote {path}")


def screenshots(d, url, folder):
    # Connect four: the person drops discs in the middle columns, MCTS answers.
    new_game(d, url, "connect4", ["human", "mcts"])
    for column in [3, 3, 2, 4]:
        d.wait(READY, "the person's turn")
        # Any cell of a column plays it: the top row's cell does.
        d.click(f"#board g[data-cell='{column}'] rect")
        time.sleep(0.3)
    d.wait(READY, "the person's turn")
    d.click("#values")
    d.wait("return document.getElementById('valuetable').hidden === false", "the move values", 30)
    path = os.path.join(folder, "serve-connect4.png")
    d.screenshot(path)
    print(f"browser: wrote {path}")
    # Kalah: a few sowings each.
    new_game(d, url, "kalah", ["human", "mcts"])
    for pit in [2, 5, 0]:
        d.wait(READY, "the person's turn")
        legal = d.js("return document.querySelectorAll('#board .legal').length")
        d.click("#board .legal", min(pit, legal - 1))
        time.sleep(0.3)
    d.wait(READY, "the person's turn")
    path = os.path.join(folder, "serve-kalah.png")
    d.screenshot(path)
    print(f"browser: wrote {path}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gdl")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--pictures", metavar="DIR", help="each board game's page, a few moves in")
    parser.add_argument("--only", action="append", help="play only these (tictactoe, connect4, ..., recover)")
    parser.add_argument("--picture", action="append", help="with --pictures: only these games")
    parser.add_argument("--chromedriver", default="chromedriver")
    parser.add_argument("--chromium", default=None)
    args = parser.parse_args()
    # MCTS thinks 100 ms a move: the games against it stay short.
    server, url = start_server(args.gdl, "--budget-ms", "100")
    driver = None
    try:
        driver = Driver(args.chromedriver, args.chromium)
        plays = [
            ("tictactoe", lambda: play_tictactoe(driver, url, "optimal")),
            ("tictactoe", lambda: play_tictactoe(driver, url, "mcts", person="O")),
            ("connect4", lambda: play_connect4(driver, url, "optimal")),
            ("connect4", lambda: play_connect4(driver, url, "mcts")),
            ("kalah", lambda: play_kalah(driver, url, "optimal")),
            ("kalah", lambda: play_kalah(driver, url, "mcts")),
            ("xnimmt", lambda: play_xnimmt(driver, url)),
            ("goofspiel", lambda: play_goofspiel(driver, url)),
            ("pig", lambda: check_pig_dice(driver, url)),
            ("chess", lambda: play_chess(driver, url)),
            ("kuhn", lambda: play_kuhn_to_a_showdown(driver, url)),
            ("hex", lambda: play_hex_by_clicking_cells(driver, url)),
            ("dots", lambda: play_dots_and_boxes(driver, url)),
        ]
        for name, run in plays:
            if not args.only or name in args.only:
                run()
        if not args.only or "recover" in args.only:
            small, small_url = start_server(args.gdl, "--max-nodes", "2000")
            try:
                recover_from_a_failed_agent(driver, small_url)
            finally:
                small.terminate()
                small.wait()
        if args.pictures:
            board_pictures(driver, url, args.pictures, args.picture)
        if args.screenshots:
            screenshots(driver, url, args.screenshots)
    finally:
        if driver:
            driver.close()
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
