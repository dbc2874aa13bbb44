// gdl serve's page: picks a game, seats agents, plays through the JSON API
// (src/cli/serve/api.rs), and draws the board from the game's display.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let info = null;   // the game chosen: its parameters and players
let state = null;  // the game being played, as the server last told it
let busy = false;  // a request of ours is on its way
let generation = 0; // bumped by each new game, so an old game's steps stop

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
    label.appendChild(input);
    params.appendChild(label);
  }
  const seats = $("seats");
  seats.innerHTML = "<h2>Players</h2>";
  const suggested = info.seats ? info.seats.split(",") : [];
  info.players.forEach((name, i) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const input = document.createElement("input");
    input.setAttribute("list", "agentkinds");
    input.className = "seat";
    input.value = suggested[i] || "human";
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
  const params = {};
  for (const input of $("params").querySelectorAll("input")) {
    if (input.value !== input.dataset.default) {
      params[input.name] = input.value;
    }
  }
  const players = [...document.querySelectorAll(".seat")].map((i) => i.value.trim()).join(",");
  const body = { game: info.game, params, players };
  if ($("seed").value !== "") {
    body.seed = Number($("seed").value);
  }
  generation += 1;
  state = await api("POST", "/api/new", body);
  $("play").hidden = false;
  $("history-box").hidden = false;
  render();
  await advance();
}

let advancing = false; // one loop of steps at a time, or two would race

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
      next = await api("POST", "/api/step", { id: state.id });
    } catch (e) {
      if (mine === generation) {
        throw e;
      }
    } finally {
      busy = false;
    }
    // A new game started meanwhile: this step was the old one's.
    if (mine !== generation) {
      continue;
    }
    state = next;
    render();
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function play(move) {
  if (busy || !state || state.person === null) {
    return;
  }
  showError(null);
  busy = true;
  try {
    state = await api("POST", "/api/move", { id: state.id, move });
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
  if (v.kind === "exact") {
    head.innerHTML = "<th>move</th><th>value for " + v.for + "</th><th>line after it</th>";
    for (const m of v.moves) {
      const row = table.insertRow();
      row.className = m.best ? "best" : "";
      row.insertCell().textContent = m.move;
      row.insertCell().textContent = String(m.value);
      row.insertCell().textContent = m.line.join(" ");
    }
    $("valuenote").textContent = "exact values, both sides playing perfectly; best for " + v.player + " in bold";
  } else {
    head.innerHTML = "<th>move</th><th>visits</th><th>mean for " + v.player + "</th><th>proven</th>";
    for (const m of v.moves) {
      const row = table.insertRow();
      row.insertCell().textContent = m.move;
      row.insertCell().textContent = String(m.visits);
      row.insertCell().textContent = m.mean.toFixed(3);
      row.insertCell().textContent = m.proven === null ? "" : String(m.proven);
    }
    $("valuenote").textContent = (v.note ? v.note + ". " : "") + "MCTS, " + v.simulations + " simulations";
  }
  table.hidden = false;
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
  }
  $("outcome").textContent = s.outcome || "";
  $("outcome").dataset.done = s.outcome ? "yes" : "no";
  const board = $("board");
  board.innerHTML = "";
  if (s.board) {
    board.appendChild(drawBoard(s.board, s.clicks));
  }
  $("text").textContent = s.board ? "" : s.text;
  const list = $("movelist");
  list.innerHTML = "";
  for (const m of s.moves) {
    const option = document.createElement("option");
    option.value = m;
    option.textContent = m;
    list.appendChild(option);
  }
  $("choose").hidden = s.person === null || !!s.outcome;
  const history = $("history");
  history.innerHTML = "";
  for (const h of s.history) {
    const item = document.createElement("li");
    item.textContent = h.who + ": " + h.move;
    history.appendChild(item);
  }
  history.scrollTop = history.scrollHeight;
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
    return drawGrid(b, clicks ? clicks.cells : null);
  }
  if (b.layout === "pits") {
    return drawPits(b, clicks);
  }
  return drawRows(b);
}

function clickable(node, move) {
  node.classList.add("legal");
  node.dataset.move = move;
  node.addEventListener("click", () => play(move).catch(showError));
}

function drawGrid(b, targets) {
  const size = 56;
  const shift = b.shift ? size / 2 : 0;
  const width = b.cols * size + (b.rows - 1) * shift + 8;
  const svg = el("svg", { width, height: b.rows * size + 8, viewBox: `-4 -4 ${width} ${b.rows * size + 8}` });
  const colour = colours(b.cells);
  for (let r = 0; r < b.rows; r++) {
    for (let c = 0; c < b.cols; c++) {
      const i = r * b.cols + c;
      const x = c * size + r * shift;
      const y = r * size;
      const g = el("g", { "data-cell": i }, svg);
      const cell = el("rect", { x, y, width: size, height: size, fill: "#f3efe4", stroke: "#8a7f66" }, g);
      const sym = b.cells[i];
      const cx = x + size / 2;
      const cy = y + size / 2;
      if (sym === "+") {
        el("circle", { cx, cy, r: 5, fill: "#333" }, g);
      } else if (sym === "-") {
        el("rect", { x: x + 4, y: cy - 4, width: size - 8, height: 8, rx: 3, fill: "#2e86de" }, g);
      } else if (sym === "|") {
        el("rect", { x: cx - 4, y: y + 4, width: 8, height: size - 8, rx: 3, fill: "#2e86de" }, g);
      } else if (!BLANK.has(sym)) {
        el("circle", { cx, cy, r: size * 0.38, fill: colour[sym], stroke: "#333" }, g);
        const t = el("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 18, "font-weight": "bold", fill: colour[sym] === "#f9c80e" ? "#333" : "#fff" }, g);
        t.textContent = sym;
      }
      const target = targets ? targets[i] : null;
      if (target !== null && target !== undefined && state.moves[target] !== undefined) {
        clickable(cell, state.moves[target]);
        g.setAttribute("data-move", state.moves[target]);
        for (const child of g.children) {
          if (child !== cell) {
            child.setAttribute("pointer-events", "none");
          }
        }
      }
    }
  }
  return svg;
}

function drawPits(b, clicks) {
  const size = 60;
  const n = b.bottom.length;
  const storeW = size * 0.9;
  const left = b.left !== null ? storeW + 10 : 0;
  const rows = b.top ? 2 : 1;
  const width = left + n * size + (b.right !== null ? storeW + 10 : 0) + 8;
  const height = rows * size + 8;
  const svg = el("svg", { width, height, viewBox: `-4 -4 ${width} ${height}` });
  el("rect", { x: -2, y: -2, width: width - 4, height: height - 4, rx: 18, fill: "#c89b5e" }, svg);
  const pit = (x, y, w, h, text, move) => {
    const shape = el("rect", { x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: (w - 8) / 2.5, fill: "#8d5f2c", stroke: "#5b3a17" }, svg);
    const t = el("text", { x: x + w / 2, y: y + h / 2 + 7, "text-anchor": "middle", "font-size": 20, fill: "#fff", "pointer-events": "none" }, svg);
    t.textContent = text;
    if (move !== undefined) {
      clickable(shape, move);
    }
  };
  const moveAt = (row, i) => {
    const k = clicks && clicks[row] ? clicks[row][i] : null;
    return k === null || k === undefined ? undefined : state.moves[k];
  };
  if (b.left !== null) {
    pit(0, 0, storeW, height - 8, b.left);
  }
  if (b.top) {
    b.top.forEach((v, i) => pit(left + i * size, 0, size, size, v, moveAt("top", i)));
  }
  b.bottom.forEach((v, i) => pit(left + i * size, (rows - 1) * size, size, size, v, moveAt("bottom", i)));
  if (b.right !== null) {
    pit(left + n * size + 10, 0, storeW, height - 8, b.right);
  }
  return svg;
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
loadGames().catch(showError);
