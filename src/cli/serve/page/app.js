// gdl serve's page: picks a game, seats agents, plays through the JSON API
// (src/cli/serve/api.rs), and draws the board from the game's display.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let info = null;   // the game chosen: its parameters and players
let state = null;  // the game being played, as the server last told it
let busy = false;  // a request of ours is on its way
let generation = 0; // bumped by each new game, so an old game's steps stop
// What the person has clicked of a piece's move: the piece, then its target.
let selected = null; // { from, to } with to === null until the target is chosen
let lastBoard = null; // the cells of the board drawn before, with its game's id
let revealedFor = null; // the player whose view the screen was handed to

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const value = await response.json();
  if (!response.ok) {
    throw new Error(value.error || ("HTTP " + response.status));
  }
  return value;
}

function showError(e) {
  const box = $("error");
  box.textContent = e ? String(e.message || e) : "";
  box.hidden = !e;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) {
    node.setAttribute(k, v);
  }
  if (parent) {
    parent.appendChild(node);
  }
  return node;
}

async function loadGames() {
  const { games } = await api("GET", "/api/games");
  const select = $("bundled");
  for (const g of games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.name;
    option.title = g.about;
    select.appendChild(option);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) {
    select.value = wanted;
  }
  await choose(select.value);
}

// Asks for a game's parameters and players, and lays out their inputs.
async function choose(game) {
  showError(null);
  info = await api("POST", "/api/game", { game });
  $("about").textContent = info.about;
  // A game loaded from a file is no longer the bundled one the menu names.
  if ([...$("bundled").options].some((o) => o.value === game)) {
    $("bundled").value = game;
  } else {
    $("bundled").selectedIndex = -1;
  }
  const params = $("params");
  params.innerHTML = info.params.length ? "<h2>Parameters</h2>" : "";
  for (const p of info.params) {
    const label = document.createElement("label");
    label.title = p.doc + (p.range ? " (range " + p.range + ")" : "");
    label.textContent = p.name + " ";
    const input = document.createElement("input");
    input.name = p.name;
    input.value = p.default === null ? "" : p.default;
    input.dataset.default = input.value;
    // A parameter can change the players (X Nimmt!'s P): ask again.
    input.addEventListener("change", () => reseat().catch(showError));
    label.appendChild(input);
    params.appendChild(label);
  }
  layoutSeats([]);
}

// The parameters the person changed from their defaults.
function chosenParams() {
  const params = {};
  for (const input of $("params").querySelectorAll("input")) {
    if (input.value !== input.dataset.default) {
      params[input.name] = input.value;
    }
  }
  return params;
}

// The players of the game with the parameters chosen, their seats kept.
async function reseat() {
  showError(null);
  $("seats").dataset.ready = "no"; // until the players of these parameters are laid out
  const typed = [...document.querySelectorAll(".seat")].map((i) => i.value);
  const described = await api("POST", "/api/game", { game: info.game, params: chosenParams() });
  info.players = described.players;
  info.seats = described.seats;
  layoutSeats(typed);
}

function layoutSeats(typed) {
  const seats = $("seats");
  seats.innerHTML = "<h2>Players</h2>";
  seats.dataset.ready = "yes";
  const suggested = info.seats ? info.seats.split(",") : [];
  info.players.forEach((name, i) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const input = document.createElement("input");
    input.setAttribute("list", "agentkinds");
    input.className = "seat";
    input.value = typed[i] || suggested[i] || "human";
    label.appendChild(input);
    seats.appendChild(label);
  });
  let list = $("agentkinds");
  if (!list) {
    list = document.createElement("datalist");
    list.id = "agentkinds";
    document.body.appendChild(list);
  }
  list.innerHTML = "";
  for (const a of info.agents) {
    const option = document.createElement("option");
    option.value = a.spec;
    option.label = a.plays;
    list.appendChild(option);
  }
  $("agentlist").textContent = info.agents.map((a) => a.spec).join(", ");
}

async function newGame() {
  showError(null);
  $("recover").hidden = true;
  const params = chosenParams();
  const players = [...document.querySelectorAll(".seat")].map((i) => i.value.trim()).join(",");
  const body = { game: info.game, params, players };
  if ($("seed").value !== "") {
    body.seed = Number($("seed").value);
  }
  generation += 1;
  const started = await api("POST", "/api/new", body);
  lastBoard = null;
  selected = null;
  revealedFor = null;
  state = started;
  $("play").hidden = false;
  $("history-box").hidden = false;
  render();
  await advance();
}

let advancing = false; // one loop of steps at a time, or two would race
let standIn = null; // an agent that plays the next step for a seat whose agent failed

// An agent could not choose (out of its budget, a program that crashed):
// the page's own ways on, instead of a dead end.
function offerRecovery(e) {
  const who = state.players[state.mover];
  $("status").textContent = who.name + " (" + who.agent + ") could not choose a move";
  $("recover-why").textContent = String(e.message || e);
  $("recover-seat").value = "random";
  $("recover-undo").hidden = !state.history.length || !state.players.some((p) => p.person);
  $("recover").hidden = false;
  $("undo").hidden = true; // the panel offers it
}

async function recover(how) {
  showError(null);
  $("recover").hidden = true;
  if (how === "stand-in") {
    standIn = "random";
  } else if (how === "seat") {
    moved(await api("POST", "/api/seat", { id: state.id, player: state.mover, agent: $("recover-seat").value.trim() }));
  } else if (how === "undo") {
    moved(await api("POST", "/api/undo", { id: state.id }));
  }
  render();
  await advance();
}

async function undo() {
  // A step still on its way is the game's before the undo: dropped.
  generation += 1;
  showError(null);
  $("recover").hidden = true;
  moved(await api("POST", "/api/undo", { id: state.id }));
  lastBoard = null;
  render();
  await advance();
}

// Lets the agents and chance move until a person is to move or the game ends.
async function advance() {
  if (advancing) {
    return; // the running loop sees the new state after its pause
  }
  advancing = true;
  try {
    await steps();
  } finally {
    advancing = false;
  }
}

async function steps() {
  while (state && !state.outcome && state.person === null) {
    const mine = generation;
    $("status").textContent = state.turn === "chance"
      ? "chance…"
      : (state.mover_name || "the agents") + " is thinking…";
    busy = true;
    let next;
    try {
      next = await api("POST", "/api/step", { id: state.id, instead: standIn });
    } catch (e) {
      if (mine === generation) {
        if (state.turn === "player" && state.mover !== null) {
          offerRecovery(e);
          return;
        }
        throw e;
      }
    } finally {
      busy = false;
      standIn = null;
    }
    // A new game started meanwhile: this step was the old one's.
    if (mine !== generation) {
      continue;
    }
    moved(next);
    render();
    // A pause to see each move; chance's hidden deals go by at once.
    const last = next.history[next.history.length - 1];
    const hidden = last && last.who === "chance" && last.move === "(hidden)";
    await new Promise((r) => setTimeout(r, hidden ? 0 : 250));
  }
}

// The game after a move: the board before it is kept, to mark what changed.
function moved(next) {
  if (state && state.board && state.board.layout === "grid") {
    lastBoard = { id: state.id, cells: state.board.cells };
  } else if (state && state.board && state.board.layout === "pits") {
    lastBoard = { id: state.id, bottom: state.board.bottom, top: state.board.top };
  }
  selected = null;
  state = next;
}

async function play(move) {
  if (busy || !state || state.person === null) {
    return;
  }
  showError(null);
  busy = true;
  try {
    moved(await api("POST", "/api/move", { id: state.id, move }));
  } finally {
    busy = false;
  }
  render();
  await advance();
}

async function values() {
  showError(null);
  const table = $("valuetable");
  $("valuenote").textContent = "searching…";
  const v = await api("POST", "/api/values", { id: state.id });
  table.innerHTML = "";
  const head = table.insertRow();
  const onBoard = {};
  if (v.kind === "exact") {
    head.innerHTML = "<th>move</th><th>value for " + v.for + "</th><th>line after it</th>";
    for (const m of v.moves) {
      const row = table.insertRow();
      row.className = m.best ? "best" : "";
      row.insertCell().textContent = m.move;
      row.insertCell().textContent = String(m.value);
      row.insertCell().textContent = m.line.join(" ");
      onBoard[m.move] = { text: String(m.value), best: m.best };
    }
    const differ = v.moves.some((m) => m.best);
    $("valuenote").textContent = "exact values for " + v.player + " (the side to move), both sides playing perfectly; "
      + (differ ? "the best moves in bold" : "every move is as good as the others");
  } else {
    head.innerHTML = "<th>move</th><th>visits</th><th>mean for " + v.player + "</th><th>proven</th>";
    for (const m of v.moves) {
      const row = table.insertRow();
      row.className = m.chosen ? "best" : "";
      row.insertCell().textContent = m.move;
      row.insertCell().textContent = String(m.visits);
      row.insertCell().textContent = m.mean.toFixed(3);
      row.insertCell().textContent = m.proven === null ? "" : (m.proven > 0 ? "win" : m.proven < 0 ? "loss" : "draw");
      onBoard[m.move] = { text: m.mean.toFixed(2), best: m.chosen };
    }
    $("valuenote").textContent = (v.note ? v.note + ". " : "") + "MCTS, " + v.simulations
      + " simulations: the mean return for " + v.player + " (the side to move) after each move; the move MCTS would play in bold;"
      + " \"proven\": the search reached the end of every line after the move, so its result is certain";
  }
  markValues(onBoard);
  table.hidden = false;
}

// Each value on the cell, column or pit that plays its move, the best ringed.
function markValues(values) {
  // One mark per move: a column's lowest cell that plays it (where the disc lands).
  const last = {};
  for (const node of document.querySelectorAll("#board [data-move]")) {
    last[node.dataset.move] = node;
  }
  for (const node of Object.values(last)) {
    const value = values[node.dataset.move];
    const svg = node.ownerSVGElement || node.closest("svg");
    if (!value || !svg || !node.getBBox) {
      continue;
    }
    const box = node.getBBox();
    const t = el("text", { x: box.x + box.width / 2, y: box.y + box.height - 4, "text-anchor": "middle", "font-size": 12,
      "font-weight": value.best ? "bold" : "normal", fill: value.best ? "#060" : "#444", class: "value", "pointer-events": "none" }, svg);
    t.textContent = value.text;
    if (value.best) {
      el("rect", { x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4, fill: "none", stroke: "#2a2",
        "stroke-width": 3, class: "best", "pointer-events": "none" }, svg);
    }
  }
}

function render() {
  const s = state;
  $("title").textContent = s.game + ": " + s.players.map((p) => p.name + " " + p.agent).join(" vs ");
  $("valuetable").hidden = true;
  $("valuenote").textContent = "";
  if (s.outcome) {
    $("status").textContent = "game over";
  } else if (s.person !== null) {
    $("status").textContent = s.players[s.person].name + " to move (you)";
  } else {
    // Whose move the page waits for now, not the one just played.
    $("status").textContent = s.turn === "chance" ? "chance…" : (s.mover_name || "the agents") + " is thinking…";
  }
  $("outcome").textContent = s.outcome || "";
  $("outcome").dataset.done = s.outcome ? "yes" : "no";
  const board = $("board");
  board.innerHTML = "";
  // Two people at one screen, with cards the other may not see: the
  // screen is handed over, and shows nothing until the next one asks.
  const people = s.players.filter((p) => p.person).length;
  const cover = s.hidden && people > 1 && s.viewer !== null && !s.outcome && revealedFor !== s.viewer;
  $("handover").hidden = !cover;
  if (cover) {
    $("handover-who").textContent = s.players[s.viewer].name;
    $("handover-me").textContent = s.players[s.viewer].name;
    $("text").textContent = "";
    $("choose").hidden = true;
    $("chooser").hidden = true;
    return;
  }
  if (s.board) {
    board.appendChild(drawBoard(s.board, s.clicks));
  } else if (s.fields) {
    board.appendChild(drawFields(s.fields));
  }
  $("chooser").hidden = true;
  $("text").textContent = s.board || s.fields ? "" : s.text;
  const list = $("movelist");
  list.innerHTML = "";
  s.moves.forEach((m, k) => {
    const option = document.createElement("option");
    option.value = m;
    option.textContent = pieceMoveName(s, k) || m;
    list.appendChild(option);
  });
  $("choose").hidden = s.person === null || !!s.outcome;
  $("undo").hidden = !s.players.some((p) => p.person) || !s.history.length;
  const history = $("history");
  history.innerHTML = "";
  for (const h of s.history) {
    const item = document.createElement("li");
    item.textContent = h.who + ": " + h.move;
    history.appendChild(item);
  }
  history.scrollTop = history.scrollHeight;
}

// A piece's move named by the board's coordinates (e2–e4, an arrow's
// cell after a comma), the game's own text after it: "e2–e4 (52, 54, 0)".
function pieceMoveName(s, k) {
  const piece = s.clicks && s.clicks.pieces ? s.clicks.pieces[k] : null;
  const b = s.board;
  if (!piece || !b || b.layout !== "grid") {
    return null;
  }
  const at = (i) => (b.column_names ? b.column_names[i % b.cols] : columnName(i % b.cols, b.style)) + String(b.rows - Math.floor(i / b.cols));
  const third = piece.third !== null && piece.third !== undefined ? ", " + at(piece.third) : "";
  const own = s.moves[k].startsWith("(") ? s.moves[k] : "(" + s.moves[k] + ")";
  return at(piece.from) + "\u2013" + at(piece.to) + third + " " + own;
}

const BLANK = new Set(["", " ", ".", "_", "·"]);
const PALETTE = ["#d63031", "#f9c80e", "#2e86de", "#27ae60", "#8e44ad", "#e67e22", "#555"];

// A colour per symbol, the same for a symbol all game long.
function colours(symbols) {
  const known = { X: 0, O: 1, B: 6, W: 1 };
  const map = {};
  let next = 2;
  for (const sym of [...new Set(symbols)].sort()) {
    if (BLANK.has(sym)) {
      continue;
    }
    map[sym] = PALETTE[sym in known ? known[sym] : (next++ % PALETTE.length)];
  }
  return map;
}

function drawBoard(b, clicks) {
  if (b.layout === "grid") {
    return drawGrid(b, clicks);
  }
  if (b.layout === "pits") {
    return drawPits(b, clicks);
  }
  return drawRows(b);
}

// A cell or pit that does something when clicked: plays `what` (a move's
// text) or calls it.
function clickable(node, what) {
  node.classList.add("legal");
  if (typeof what === "function") {
    node.addEventListener("click", what);
    return;
  }
  node.dataset.move = what;
  node.addEventListener("click", () => play(what).catch(showError));
}

const GLYPHS = { K: "\u265a", Q: "\u265b", R: "\u265c", B: "\u265d", N: "\u265e", P: "\u265f" };
const LIGHT = "#f0d9b5";
const DARK = "#b58863";

// A column's name: a, b, c, ...; Go's skip i, as its boards do.
function columnName(c, style) {
  const letters = style === "go" ? "abcdefghjklmnopqrstuvwxyz" : "abcdefghijklmnopqrstuvwxyz";
  return c < letters.length ? letters[c] : String(c + 1);
}

// The moves a click on cell i may lead to, given what is selected.
function cellAction(i, clicks) {
  const pieces = clicks && clicks.pieces ? clicks.pieces : [];
  const moves = (pred) => pieces.map((p, k) => (p && pred(p) ? k : -1)).filter((k) => k >= 0);
  if (selected && selected.to !== null) {
    const third = moves((p) => p.from === selected.from && p.to === selected.to && p.third === i);
    return third.length === 1 ? { play: third[0] } : null;
  }
  if (selected) {
    const landing = moves((p) => p.from === selected.from && p.to === i);
    if (landing.length > 0) {
      return { land: landing };
    }
  }
  if (moves((p) => p.from === i).length > 0) {
    return { pick: i };
  }
  const single = clicks && clicks.cells ? clicks.cells[i] : null;
  return single !== null && single !== undefined ? { play: single } : null;
}

function act(action) {
  if (action.play !== undefined) {
    selected = null;
    play(state.moves[action.play]).catch(showError);
  } else if (action.pick !== undefined) {
    selected = selected && selected.from === action.pick ? null : { from: action.pick, to: null };
    render();
  } else if (action.land.length === 1) {
    selected = null;
    play(state.moves[action.land[0]]).catch(showError);
  } else {
    const pieces = state.clicks.pieces;
    const to = pieces[action.land[0]].to;
    if (action.land.every((k) => pieces[k].third !== null)) {
      selected = { from: selected.from, to };
      render();
    } else {
      chooseAmong(action.land);
    }
  }
}

// Moves of one step that no further click tells apart (a promotion): buttons.
function chooseAmong(moves) {
  const box = $("chooser");
  box.innerHTML = "";
  for (const k of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = state.moves[k];
    button.addEventListener("click", () => {
      box.hidden = true;
      selected = null;
      play(state.moves[k]).catch(showError);
    });
    box.appendChild(button);
  }
  box.hidden = false;
}

function drawGrid(b, clicks) {
  const style = b.style || "discs";
  const wanted = style === "chess" || style === "checkered" ? 52 : style === "points" ? 38 : 56;
  // A big board (Go 19x19) shrinks its cells to fit the panel.
  const size = Math.max(16, Math.min(wanted, Math.floor(560 / Math.max(b.cols + b.rows / 2 * (b.shift ? 1 : 0), b.rows))));
  const shift = b.shift ? size / 2 : 0;
  const hex = style === "hex";
  const dots = style === "dots";
  // Hexagons' rows overlap by a quarter of their height.
  const rowH = hex ? size * 0.866 : size;
  const coords = style !== "points" && !dots;
  const margin = coords ? 22 : 4;
  const width = b.cols * size + (b.rows - 1) * shift + margin + 8 + (hex ? 12 : 0);
  const height = (b.rows - 1) * rowH + size + margin + 8 + (hex ? 12 : 0);
  const svg = el("svg", { width, height, viewBox: `${-margin - (hex ? 6 : 0)} ${hex ? -10 : -4} ${width} ${height}` });
  const line = new Set(state.line || []);
  const linked = style === "discs" && b.cells.some((c) => c === "-" || c === "|") && b.cells.includes(" ");
  const palette = colours(b.cells);
  const colourOf = (sym) => (b.colours && b.colours[sym]) || palette[sym];
  const declaredColours = Object.values(b.colours || {});
  const shared = new Set(Object.keys(b.colours || {}).filter((k) => declaredColours.filter((c) => c === b.colours[k]).length > 1));
  const changed = lastBoard && lastBoard.id === state.id && lastBoard.cells && lastBoard.cells.length === b.cells.length
    ? b.cells.map((c, i) => c !== lastBoard.cells[i]) : null;
  const bar = (c, top) => {
    const half = top ? [...Array(Math.floor(b.rows / 2)).keys()] : [...Array(Math.floor(b.rows / 2)).keys()].map((k) => b.rows - 1 - k);
    return half.some((r) => b.cells[r * b.cols + c] === "|");
  };
  const pointed = (c, top) => {
    const half = [...Array(Math.floor(b.rows / 2)).keys()].map((k) => (top ? k : b.rows - 1 - k));
    return half.every((r) => b.cells[r * b.cols + c] !== " " && b.cells[r * b.cols + c] !== "|");
  };
  if (style === "go") {
    el("rect", { x: -4, y: -4, width: b.cols * size + 8, height: b.rows * size + 8, fill: "#dcb35c" }, svg);
    const half = size / 2;
    for (let r = 0; r < b.rows; r++) {
      el("line", { x1: half, y1: r * size + half, x2: (b.cols - 1) * size + half, y2: r * size + half, stroke: "#333" }, svg);
    }
    for (let c = 0; c < b.cols; c++) {
      el("line", { x1: c * size + half, y1: half, x2: c * size + half, y2: (b.rows - 1) * size + half, stroke: "#333" }, svg);
    }
    // Star points: nine on 19x19 and 13x13; the centre and four on 9x9
    // and on gomoku's 15x15.
    const stars = b.rows === 19 ? [3, 9, 15] : b.rows === 15 ? [3, 7, 11] : b.rows === 13 ? [3, 6, 9] : b.rows === 9 ? [2, 4, 6] : [];
    const centre = (b.rows - 1) / 2;
    for (const r of stars) {
      for (const c of stars) {
        if (b.cols !== b.rows) {
          continue;
        }
        if ((b.rows !== 9 && b.rows !== 15) || (r === centre) === (c === centre)) {
          el("circle", { cx: c * size + half, cy: r * size + half, r: 4, fill: "#333", "pointer-events": "none" }, svg);
        }
      }
    }
  }
  if (style === "points") {
    el("rect", { x: -4, y: -4, width: b.cols * size + 8, height: b.rows * size + 8, fill: "#2e5e3e" }, svg);
    const halfRows = Math.floor(b.rows / 2);
    for (let c = 0; c < b.cols; c++) {
      for (const top of [true, false]) {
        const x = c * size;
        if (bar(c, top)) {
          el("rect", { x, y: top ? 0 : (b.rows - halfRows) * size, width: size, height: halfRows * size, fill: "#5b3a17" }, svg);
        } else if (pointed(c, top)) {
          const tip = top ? halfRows * size - size / 3 : (b.rows - halfRows) * size + size / 3;
          const base = top ? 0 : b.rows * size;
          el("polygon", { points: `${x},${base} ${x + size},${base} ${x + size / 2},${tip}`, fill: c % 2 === 0 ? "#e8d8b0" : "#a33b2b" }, svg);
        }
      }
    }
  }
  for (let r = 0; r < b.rows; r++) {
    for (let c = 0; c < b.cols; c++) {
      const i = r * b.cols + c;
      const x = c * size + r * shift;
      const y = r * rowH;
      const sym = b.cells[i];
      const g = el("g", { "data-cell": i, "data-symbol": sym }, svg);
      let ground = "#f3efe4";
      if (style === "chess" || style === "checkered") {
        ground = (r + c) % 2 === 0 ? LIGHT : DARK;
      }
      const open = style === "go" || style === "points" || dots;
      const cx = x + size / 2;
      const cy = y + size / 2;
      const cell = hex
        ? el("polygon", { points: hexagon(cx, cy, size / Math.sqrt(3)), fill: ground, stroke: "#8a7f66" }, g)
        : el("rect", { x, y, width: size, height: size, fill: open ? "transparent" : ground, stroke: open || style === "chess" || style === "checkered" ? "none" : "#8a7f66" }, g);
      if (line.has(i)) {
        el("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 6, fill: "rgba(46, 204, 113, 0.35)", stroke: "#1e8449", "stroke-width": 3, class: "win" }, g);
      }
      if (changed && changed[i] && !dots) {
        const mark = { fill: "rgba(255, 215, 0, 0.45)", class: "last" };
        if (hex) {
          el("polygon", { ...mark, points: hexagon(cx, cy, size / Math.sqrt(3) - 1) }, g);
        } else {
          el("rect", { ...mark, x: x + 1, y: y + 1, width: size - 2, height: size - 2 }, g);
        }
      }
      if (selected && selected.from === i) {
        el("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: "none", stroke: "#1e6fd9", "stroke-width": 4, class: "selected" }, g);
      }
      const declared = b.colours && b.colours[sym];
      const empty = sym === b.empty && !declared;
      if (dots) {
        drawDotsCell(g, r, c, x, y, size, sym, b, changed && changed[i], b.owners ? b.owners[i] : null);
      } else if (empty && linked) {
        // A board of points joined by lines (nine men's morris): an empty
        // point is a dot, unlike the gaps between the lines.
        el("circle", { cx, cy, r: 6, fill: "#555", class: "point" }, g);
      } else if (empty) {
        // nothing on it
      } else if (sym === "+" && !declared && style !== "go") {
        el("circle", { cx, cy, r: 5, fill: "#333" }, g);
      } else if (sym === "-" && !declared && style === "discs") {
        el("rect", { x: x + 4, y: cy - 4, width: size - 8, height: 8, rx: 3, fill: "#2e86de" }, g);
      } else if (sym === "|" && !declared && style === "discs") {
        el("rect", { x: cx - 4, y: y + 4, width: 8, height: size - 8, rx: 3, fill: "#2e86de" }, g);
      } else if (!declared && (BLANK.has(sym) || sym === "+" || sym === "|" || sym === "-")) {
        // an empty cell: nothing on it
      } else if (style === "chess" && GLYPHS[sym.toUpperCase()]) {
        const white = sym === sym.toUpperCase();
        const t = el("text", { x: cx, y: cy + size * 0.3, "text-anchor": "middle", "font-size": size * 0.82, fill: white ? "#fff" : "#111", stroke: "#111", "stroke-width": white ? 1.2 : 0.5, class: "piece" }, g);
        t.textContent = GLYPHS[sym.toUpperCase()];
      } else if (style === "marks") {
        const t = el("text", { x: cx, y: cy + size * 0.25, "text-anchor": "middle", "font-size": size * 0.7, "font-weight": "bold", fill: colourOf(sym) }, g);
        t.textContent = sym;
      } else if (style === "points" && /^[0-9]+$/.test(sym)) {
        const t = el("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 17, "font-weight": "bold", fill: "#fff" }, g);
        t.textContent = sym;
      } else {
        const fill = colourOf(sym);
        el("circle", { cx, cy, r: size * (style === "go" ? 0.46 : 0.38), fill, stroke: "#333" }, g);
        // A colour of its own says what a stone or checker is; a colour
        // shared (a man and a king of one side) needs the symbol too.
        if (!declared || shared.has(sym)) {
          const font = Math.min(18, Math.round(size * 0.36));
          const t = el("text", { x: cx, y: cy + font / 3, "text-anchor": "middle", "font-size": font, "font-weight": "bold", fill: textOn(fill) }, g);
          t.textContent = sym;
        }
      }
      const action = state.person !== null && !state.outcome ? cellAction(i, clicks) : null;
      if (action) {
        clickable(cell, () => act(action));
        if (action.play !== undefined) {
          g.setAttribute("data-move", state.moves[action.play]);
        }
        for (const child of g.children) {
          if (child !== cell) {
            child.setAttribute("pointer-events", "none");
          }
        }
        if (selected && (action.land || action.play !== undefined) && cellAction(i, null) === null) {
          el("circle", { cx, cy, r: size * 0.14, fill: "rgba(30, 111, 217, 0.6)", "pointer-events": "none", class: "target" }, g);
        }
      }
    }
  }
  if (hex && b.sides && b.sides.length === 2) {
    hexSides(svg, b, size, rowH, shift);
  }
  if (coords) {
    for (let c = 0; c < b.cols; c++) {
      const t = el("text", { x: c * size + (b.rows - 1) * shift + size / 2, y: (b.rows - 1) * rowH + size + 16 + (hex ? 6 : 0), "text-anchor": "middle", "font-size": 13, fill: "#555", class: "coord" }, svg);
      // Named as the game names its moves where the display says so
      // (connect four's columns 1, 2, 3, ...), else a, b, c, ...
      t.textContent = b.column_names ? b.column_names[c] : columnName(c, style);
    }
    for (let r = 0; r < b.rows; r++) {
      const t = el("text", { x: r * shift - 8 - (hex ? 6 : 0), y: r * rowH + size / 2 + 5, "text-anchor": "end", "font-size": 13, fill: "#555", class: "coord" }, svg);
      t.textContent = String(b.rows - r);
    }
  }
  return svg;
}

// A hexagon with a point at the top, of circumradius `R`, as SVG points.
function hexagon(cx, cy, R) {
  return [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (Math.PI / 3) * k;
    return `${(cx + R * Math.sin(a)).toFixed(1)},${(cy - R * Math.cos(a)).toFixed(1)}`;
  }).join(" ");
}

// The sides of Hex's rhombus in the colours of the players who join them:
// the first player's along the top and bottom rows, the second's along the
// left and right columns.
function hexSides(svg, b, size, rowH, shift) {
  const R = size / Math.sqrt(3);
  const centre = (r, c) => [c * size + r * shift + size / 2, r * rowH + size / 2];
  const vertex = (r, c, k) => {
    const [cx, cy] = centre(r, c);
    const a = (Math.PI / 3) * k;
    return `${(cx + R * Math.sin(a)).toFixed(1)},${(cy - R * Math.cos(a)).toFixed(1)}`;
  };
  const edge = (points, side) => {
    el("polyline", { points: points.join(" "), fill: "none", stroke: side.colour || "#333", "stroke-width": 6, "stroke-linecap": "round", class: "side", "data-player": side.player }, svg);
  };
  const [across, down] = b.sides;
  const last = b.rows - 1;
  const lastCol = b.cols - 1;
  // Vertices: 0 top, 1 upper right, 2 lower right, 3 bottom, 4 lower left, 5 upper left.
  edge([...Array(b.cols).keys()].flatMap((c) => [vertex(0, c, 5), vertex(0, c, 0), vertex(0, c, 1)]), across);
  edge([...Array(b.cols).keys()].flatMap((c) => [vertex(last, c, 4), vertex(last, c, 3), vertex(last, c, 2)]), across);
  edge([...Array(b.rows).keys()].flatMap((r) => [vertex(r, 0, 5), vertex(r, 0, 4)]), down);
  edge([...Array(b.rows).keys()].flatMap((r) => [vertex(r, lastCol, 1), vertex(r, lastCol, 2)]), down);
}

// Dots and boxes: a dot where row and column are even, a line between two
// dots where one is odd (drawn, or faint where it may be), a box where both
// are; a closed box filled.
function drawDotsCell(g, r, c, x, y, size, sym, b, last, owner) {
  const cx = x + size / 2;
  const cy = y + size / 2;
  const evenR = r % 2 === 0;
  const evenC = c % 2 === 0;
  const drawn = sym !== b.empty && sym.trim() !== "";
  if (evenR && evenC) {
    el("circle", { cx, cy, r: 6, fill: "#222", "pointer-events": "none" }, g);
  } else if (evenR || evenC) {
    const [x1, y1, x2, y2] = evenR ? [x - size / 2 + 6, cy, x + size * 1.5 - 6, cy] : [cx, y - size / 2 + 6, cx, y + size * 1.5 - 6];
    // The edge drawn last in orange, as other boards mark the last move.
    const stroke = !drawn ? "#ccc" : last ? "#e67e22" : "#1e3a5f";
    el("line", { x1, y1, x2, y2, stroke, "stroke-width": drawn ? 6 : 2, "stroke-dasharray": drawn ? "" : "4 4", "stroke-linecap": "round", "pointer-events": "none", class: drawn ? (last ? "edge drawn last" : "edge drawn") : "edge" }, g);
  } else if (drawn) {
    // A closed box in the colour of the player who closed it, with their initial.
    const k = owner ? state.players.findIndex((p) => p.name === owner) : -1;
    const fill = k >= 0 ? OWNER_FILLS[k % OWNER_FILLS.length] : "rgba(46, 134, 222, 0.25)";
    el("rect", { x: x - size / 2 + 8, y: y - size / 2 + 8, width: size * 2 - 16, height: size * 2 - 16, fill, "pointer-events": "none", class: "box", "data-owner": owner || "" }, g);
    if (owner) {
      const t = el("text", { x: cx, y: cy + 8, "text-anchor": "middle", "font-size": 22, "font-weight": "bold", fill: "#333", "pointer-events": "none", class: "owner" }, g);
      t.textContent = owner;
    }
  }
}

// The boxes of the first player, the second, ...: light, so the lines read.
const OWNER_FILLS = ["rgba(214, 48, 49, 0.3)", "rgba(46, 134, 222, 0.3)", "rgba(39, 174, 96, 0.3)", "rgba(142, 68, 173, 0.3)"];

// Black or white text, whichever reads on a disc of this colour.
function textOn(fill) {
  return ["#f9c80e", "white", "#fff", "#ffffff", "ivory", "#eee"].includes(String(fill).toLowerCase()) ? "#333" : "#fff";
}

function drawPits(b, clicks) {
  const size = 60;
  const n = b.bottom.length;
  const storeW = size * 0.9;
  const left = b.left !== null ? storeW + 10 : 0;
  const rows = b.top ? 2 : 1;
  const width = left + n * size + (b.right !== null ? storeW + 10 : 0) + 8;
  const height = rows * size + 8;
  // With `sides`: whose row and store is whose, named above and below.
  const named = b.sides && b.sides.length === 2;
  const label = named ? 20 : 0;
  const svg = el("svg", { width, height: height + 2 * label, viewBox: `-4 ${-4 - label} ${width} ${height + 2 * label}` });
  el("rect", { x: -2, y: -2, width: width - 4, height: height - 4, rx: 18, fill: "#c89b5e" }, svg);
  if (named) {
    const [own, other] = b.sides;
    const name = (text, x, y, anchor, cls) => {
      const t = el("text", { x, y, "text-anchor": anchor, "font-size": 14, fill: "#333", class: cls }, svg);
      t.textContent = text;
    };
    name(own.player + "'s pits \u2192 store " + (b.right !== null ? "(right)" : ""), left, height + 10, "start", "side-name");
    if (b.top) {
      name("\u2190 " + other.player + "'s pits" + (b.left !== null ? ", store (left)" : ""), width - 12, -8, "end", "side-name");
    }
  }
  const pit = (x, y, w, h, text, move, row, index) => {
    const shape = el("rect", { x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: (w - 8) / 2.5, fill: "#8d5f2c", stroke: "#5b3a17" }, svg);
    const t = el("text", { x: x + w / 2, y: y + h / 2 + 7, "text-anchor": "middle", "font-size": 20, fill: "#fff", "pointer-events": "none", class: "seeds" }, svg);
    if (row && sown[row] === index) {
      // Marked as other boards mark the last move.
      shape.setAttribute("fill", "#c9a227");
      shape.classList.add("last");
    }
    if (row) {
      shape.classList.add("pit");
      shape.dataset.row = row;
      shape.dataset.index = String(index);
      t.dataset.row = row;
      t.dataset.index = String(index);
    }
    t.textContent = text;
    if (move !== undefined) {
      // A pit the person may sow from is ringed.
      shape.setAttribute("stroke", "#ffd54a");
      shape.setAttribute("stroke-width", "3");
      clickable(shape, move);
    }
  };
  const moveAt = (row, i) => {
    const k = clicks && clicks[row] ? clicks[row][i] : null;
    return k === null || k === undefined ? undefined : state.moves[k];
  };
  // The pit the last move sowed from: of the row of the side that moved,
  // the one pit left with fewer seeds (a capture empties the other row).
  const sown = { bottom: null, top: null };
  const mover = state.history.length ? state.history[state.history.length - 1].who : null;
  const side = named ? b.sides.findIndex((x) => x.player === mover) : -1;
  if (side >= 0 && lastBoard && lastBoard.id === state.id && lastBoard.bottom) {
    const row = side === 0 ? "bottom" : "top";
    const was = lastBoard[row];
    const fewer = b[row] ? b[row].map((v, i) => (was && Number(v) < Number(was[i]) ? i : -1)).filter((i) => i >= 0) : [];
    if (fewer.length === 1) {
      sown[row] = fewer[0];
    }
  }
  if (b.left !== null) {
    pit(0, 0, storeW, height - 8, b.left);
    svg.lastChild.classList.add("store", "left");
  }
  if (b.top) {
    b.top.forEach((v, i) => pit(left + i * size, 0, size, size, v, moveAt("top", i), "top", i));
  }
  b.bottom.forEach((v, i) => pit(left + i * size, (rows - 1) * size, size, size, v, moveAt("bottom", i), "bottom", i));
  if (b.right !== null) {
    pit(left + n * size + 10, 0, storeW, height - 8, b.right);
    svg.lastChild.classList.add("store", "right");
  }
  return svg;
}

// The state's fields, those the display names as cards drawn as cards: a
// number (0 for none: an empty place), a set or list of them, one entry
// per player (another's hidden entry face down); the others as the text
// the server writes (values by their names, a player's entry by the
// player's name).
function drawFields(f) {
  const box = document.createElement("div");
  box.className = "fields";
  const mine = state.person !== null && !state.outcome ? state.person : null;
  // A card's face: the field's own names for its values, else the symbols.
  let faces = f.symbols;
  const name = (v) => (typeof v === "number" && faces[v] ? faces[v] : String(v));
  const card = (v, parent, own) => {
    const c = document.createElement("span");
    c.className = "card";
    if (v === null) {
      c.classList.add("down");
      c.textContent = "?";
    } else if (v === 0) {
      c.classList.add("none");
    } else {
      c.textContent = name(v);
      c.dataset.card = String(v);
      // A card in the hand of the person to move plays the move it names.
      const move = own ? [String(v), name(v)].find((m) => state.moves.includes(m)) : undefined;
      if (move !== undefined) {
        clickable(c, move);
      }
    }
    parent.appendChild(c);
  };
  const cards = (v, parent, own) => {
    if (Array.isArray(v)) {
      const row = document.createElement("span");
      // A list of lists (X Nimmt!'s rows on the table): one row a line.
      row.className = v.length > 0 && v.every(Array.isArray) ? "cards stacked" : "cards";
      if (v.length === 0) {
        row.classList.add("empty");
      }
      for (const x of v) {
        if (Array.isArray(x)) {
          cards(x, row, own);
        } else {
          card(x, row, own);
        }
      }
      parent.appendChild(row);
    } else {
      card(v, parent, own);
    }
  };
  for (const field of f.fields) {
    const line = document.createElement("div");
    line.className = "field";
    line.dataset.field = field.name;
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = field.name;
    line.appendChild(label);
    faces = field.names || f.symbols;
    if (!field.cards) {
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = field.text;
      line.appendChild(text);
    } else if (field.each) {
      const each = document.createElement("div");
      field.value.forEach((x, p) => {
        const who = document.createElement("div");
        who.className = "player";
        who.dataset.player = String(p);
        const n = document.createElement("span");
        n.className = "who";
        n.textContent = f.players[p] + (p === state.viewer ? " (you)" : "");
        who.appendChild(n);
        cards(x, who, p === mine);
        each.appendChild(who);
      });
      line.appendChild(each);
    } else {
      cards(field.value, line, false);
    }
    box.appendChild(line);
  }
  return box;
}

function drawRows(b) {
  const line = 34;
  const widest = Math.max(1, ...b.rows.map((r) => Math.min(r.count, 40)));
  const width = 60 + widest * 18 + 60;
  const svg = el("svg", { width, height: b.rows.length * line + 8 });
  b.rows.forEach((row, k) => {
    const y = k * line + line / 2 + 4;
    const label = el("text", { x: 40, y: y + 6, "text-anchor": "end", "font-size": 16 }, svg);
    label.textContent = row.label;
    for (let i = 0; i < Math.min(row.count, 40); i++) {
      el("rect", { x: 52 + i * 18, y: y - 12, width: 8, height: 24, rx: 3, fill: "#b5651d" }, svg);
    }
    const count = el("text", { x: 60 + Math.min(row.count, 40) * 18, y: y + 6, "font-size": 14, fill: "#666" }, svg);
    count.textContent = "(" + row.count + ")";
  });
  return svg;
}

$("bundled").addEventListener("change", (e) => choose(e.target.value).catch(showError));
$("load").addEventListener("click", () => choose($("path").value.trim()).catch(showError));
$("start").addEventListener("click", () => newGame().catch(showError));
$("play-move").addEventListener("click", () => play($("movelist").value).catch(showError));
$("values").addEventListener("click", () => values().catch(showError));
$("undo").addEventListener("click", () => undo().catch(showError));
$("handover-go").addEventListener("click", () => {
  revealedFor = state.viewer;
  render();
});
$("recover-stand-in").addEventListener("click", () => recover("stand-in").catch(showError));
$("recover-seat-go").addEventListener("click", () => recover("seat").catch(showError));
$("recover-undo").addEventListener("click", () => recover("undo").catch(showError));
loadGames().catch(showError);
