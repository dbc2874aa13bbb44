#!/usr/bin/env python3
"""The browser test of `gdl serve` (issue 28): headless Chromium, driven by
chromedriver over the W3C WebDriver protocol (plain HTTP, the standard
library only), opens the page, plays tic-tac-toe against `optimal` by
clicking cells, and checks the result the page shows against the board it
draws. With --screenshots DIR it also saves connect four and Kalah in the
middle of a game, for the docs.

    python3 tests/browser/play.py GDL_BINARY [--screenshots docs]
"""

import argparse
import base64
import json
import os
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


def play_tictactoe(d, url):
    new_game(d, url, "tictactoe", ["human", "optimal"])
    clicks = 0
    for turn in range(9):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        before = d.js(CELLS)
        legal = d.js("return document.querySelectorAll('#board .legal').length")
        # Not best play: the person clicks around the board.
        d.click("#board .legal", (turn * 5) % legal)
        clicks += 1
        d.wait(f"const c = {CELLS_OF}; return c.filter(x => x == 'X').length == {before.count('X') + 1}",
               "the X clicked to appear")
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    cells = d.js(CELLS)
    outcome = d.js("return document.getElementById('outcome').textContent")
    history = d.js("return document.querySelectorAll('#history li').length")
    won = lambda mark: any(all(cells[i] == mark for i in line) for line in LINES)
    assert len(cells) == 9, cells
    assert cells.count("X") == clicks, (cells, clicks)
    assert history == cells.count("X") + cells.count("O"), (history, cells)
    assert not won("X"), f"optimal lost: {cells}"
    if won("O"):
        assert outcome == "O won the game", outcome
    else:
        assert "." not in cells, cells
        assert outcome == "the game is a draw", outcome
    print(f"browser: tic-tac-toe against optimal, {clicks} clicks: {outcome} ({''.join(cells)})")


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


def play_kalah_against_optimal(d, url):
    """Kalah 3x3 to the end against `optimal`, by clicks on the ringed pits,
    the rows named; the stores the page shows decide the outcome."""
    d.do("POST", "/url", {"url": f"{url}?game=kalah"})
    d.wait("return document.querySelectorAll('#params input').length > 0", "the parameters")
    d.js("""for (const i of document.querySelectorAll('#params input')) {
              if (i.name === 'pits' || i.name === 'seeds') { i.value = '3'; } }""")
    d.wait("return document.querySelectorAll('.seat').length == 2", "the seats")
    d.js("const s = document.querySelectorAll('.seat'); s[0].value = 'human'; s[1].value = 'optimal';")
    d.click("#start")
    d.wait("return document.getElementById('play').hidden === false", "the board")
    names = d.js("return [...document.querySelectorAll('#board .side-name')].map(t => t.textContent)")
    assert names[0].startswith("South's pits") and names[1].startswith("\u2190 North's pits"), names
    clicks = 0
    for turn in range(60):
        d.wait(READY, "the person's turn or the end")
        if d.js("return document.getElementById('outcome').textContent"):
            break
        d.click("#board .legal", 0)
        clicks += 1
        time.sleep(0.1)
    d.wait("return document.getElementById('outcome').textContent !== ''", "the outcome")
    outcome = d.js("return document.getElementById('outcome').textContent")
    # South's store is on the right, North's on the left.
    north = int(d.js("return document.querySelector('#board text.store.left').textContent"))
    south = int(d.js("return document.querySelector('#board text.store.right').textContent"))
    winner = "South" if south > north else "North" if north > south else None
    assert (f"{winner} won" in outcome) if winner else ("draw" in outcome), (outcome, south, north)
    print(f"browser: Kalah 3x3 against optimal, {clicks} clicks on pits: {outcome}")


def board_pictures(d, url, folder):
    """Each board game a few random moves in, for the docs."""
    games = json.loads(urllib.request.urlopen(url + "api/games").read())["games"]
    for game in [g["name"] for g in games]:
        info = json.loads(urllib.request.urlopen(urllib.request.Request(
            url + "api/game", data=json.dumps({"game": game}).encode(), method="POST",
            headers={"Content-Type": "application/json"})).read())
        new_game(d, url, game, ["random"] * len(info["players"]))
        time.sleep(3)
        path = os.path.join(folder, f"serve-{game}.png")
        d.screenshot(path)
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
    parser.add_argument("--chromedriver", default="chromedriver")
    parser.add_argument("--chromium", default=None)
    args = parser.parse_args()
    server, url = start_server(args.gdl)
    driver = None
    try:
        driver = Driver(args.chromedriver, args.chromium)
        play_tictactoe(driver, url)
        play_chess(driver, url)
        play_kuhn_to_a_showdown(driver, url)
        play_hex_by_clicking_cells(driver, url)
        play_kalah_against_optimal(driver, url)
        small, small_url = start_server(args.gdl, "--max-nodes", "2000")
        try:
            recover_from_a_failed_agent(driver, small_url)
        finally:
            small.terminate()
            small.wait()
        if args.pictures:
            board_pictures(driver, url, args.pictures)
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
