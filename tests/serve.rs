//! `gdl serve`, run as the binary on a free port, driven through its JSON
//! API as the page drives it: a whole game of tic-tac-toe against `optimal`,
//! played by the cells a click maps to, and the requests it must refuse,
//! with the messages the command line prints for the same mistakes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A server on a port of its own, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gdl"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gdl starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // `gdl serve: http://127.0.0.1:PORT/  (Ctrl-C stops it)`
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        Server { child, port }
    }

    /// One request; the status and the body as JSON (or as a JSON string).
    fn request(&self, method: &str, path: &str, body: Option<&Value>, host: Option<&str>) -> (u16, Value) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let host = host.map_or_else(|| format!("127.0.0.1:{}", self.port), str::to_string);
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
        let value = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string()));
        (status, value)
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.request("POST", path, Some(&body), None)
    }

    fn ok(&self, path: &str, body: Value) -> Value {
        let (status, value) = self.post(path, body);
        assert_eq!(status, 200, "{path}: {value}");
        value
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the command line prints on standard error for these arguments.
fn cli_error(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gdl")).args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?} is bad input");
    String::from_utf8(out.stderr).unwrap().trim_end().to_string()
}

fn error(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_else(|| panic!("no error in {v}"))
}

/// The three-in-a-row of a tic-tac-toe board, found here rather than by the
/// game's rules.
fn line_of(cells: &[String], mark: &str) -> bool {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    LINES.iter().any(|l| l.iter().all(|&i| cells[i] == mark))
}

fn cells(state: &Value) -> Vec<String> {
    serde_json::from_value(state["board"]["cells"].clone()).unwrap()
}

#[test]
fn a_person_plays_tic_tac_toe_against_optimal_by_clicking_cells() {
    let server = Server::start(&["--seed", "3"]);
    let mut state = server.ok("/api/new", json!({"game": "tictactoe", "players": "human,optimal"}));
    assert_eq!(state["board"]["layout"], "grid");
    // Every first move of tic-tac-toe draws with best play on both sides.
    let values = server.ok("/api/values", json!({"id": state["id"]}));
    assert_eq!(values["kind"], "exact");
    assert_eq!(values["moves"].as_array().unwrap().len(), 9);
    assert!(
        values["moves"].as_array().unwrap().iter().all(|m| m["value"] == 0.0),
        "{values}"
    );
    let id = state["id"].clone();
    // The person clicks the last cell a click plays, which is not best play.
    for _ in 0..9 {
        if !state["outcome"].is_null() {
            break;
        }
        if state["person"].is_null() {
            state = server.ok("/api/step", json!({"id": id}));
            continue;
        }
        let targets: Vec<Option<usize>> = serde_json::from_value(state["clicks"]["cells"].clone()).unwrap();
        let before = cells(&state);
        let (cell, target) = targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .next_back()
            .expect("a click plays a move on a board with an empty cell");
        // A click maps only to an empty cell, and a legal move.
        assert_eq!(before[cell], ".");
        let mv = state["moves"][target].as_str().unwrap().to_string();
        state = server.ok("/api/move", json!({"id": id, "move": mv}));
        let after = cells(&state);
        assert_eq!(after[cell], "X", "the click on cell {cell} put X there");
        let changed = (0..9).filter(|&i| after[i] != before[i]).count();
        assert_eq!(changed, 1);
    }
    let board = cells(&state);
    let outcome = state["outcome"].as_str().expect("the game ended");
    assert!(!line_of(&board, "X"), "optimal never loses: {board:?}");
    if line_of(&board, "O") {
        assert_eq!(outcome, "O won the game");
    } else {
        assert!(board.iter().all(|c| c != "."), "{board:?}");
        assert_eq!(outcome, "the game is a draw");
    }
    // Eight or nine moves are listed, one per turn, X first.
    let history = state["history"].as_array().unwrap();
    assert_eq!(history.len(), board.iter().filter(|c| *c != ".").count());
    assert_eq!(history[0]["who"], "X");
    // Over: no more moves, steps or values.
    let (status, v) = server.post("/api/step", json!({"id": id}));
    assert_eq!((status, error(&v)), (409, "error: the game is over"));
    let (status, _) = server.post("/api/move", json!({"id": id, "move": "1"}));
    assert_eq!(status, 409);
}

#[test]
fn bad_requests_are_refused_with_the_command_lines_messages() {
    let server = Server::start(&[]);
    // An unknown game, as `gdl check` says it.
    let (status, v) = server.post("/api/new", json!({"game": "nope", "players": "human,optimal"}));
    assert_eq!(status, 400);
    assert_eq!(error(&v), cli_error(&["check", "nope"]));
    // A parameter out of range, as the compiler renders it.
    let (status, v) = server.post(
        "/api/new",
        json!({"game": "connect4", "players": "human,random", "params": {"rows": "0"}}),
    );
    assert_eq!(status, 400);
    assert_eq!(error(&v), cli_error(&["check", "connect4", "--rows", "0"]));
    // A parameter the game does not have.
    let (status, v) = server.post(
        "/api/new",
        json!({"game": "tictactoe", "players": "human,random", "params": {"rows": "3"}}),
    );
    assert_eq!(status, 400);
    assert!(error(&v).contains("no parameter `rows`"), "{v}");
    // Too few players, and an agent that does not exist.
    for players in ["human", "human,wizard"] {
        let (status, v) = server.post("/api/new", json!({"game": "tictactoe", "players": players}));
        assert_eq!(status, 400);
        assert_eq!(
            error(&v),
            cli_error(&["play", "tictactoe", "--players", players]),
            "{players}"
        );
    }
    // An illegal move, then a move out of turn and a step out of turn.
    let state = server.ok("/api/new", json!({"game": "tictactoe", "players": "human,optimal"}));
    let id = state["id"].clone();
    let (status, v) = server.post("/api/move", json!({"id": id, "move": "10"}));
    assert_eq!(status, 400);
    assert_eq!(
        error(&v),
        "error: `10` is not a legal move here; the legal moves are 1, 2, 3, 4, 5, 6, 7, 8, 9"
    );
    let (status, v) = server.post("/api/step", json!({"id": id}));
    assert_eq!(status, 409);
    assert_eq!(error(&v), "error: it is X's move, made at the page: send it");
    server.ok("/api/move", json!({"id": id, "move": "5"}));
    let (status, v) = server.post("/api/move", json!({"id": id, "move": "1"}));
    assert_eq!(status, 409);
    assert_eq!(
        error(&v),
        "error: it is O's move, and optimal plays it: ask for the next step"
    );
    // A game that is not there, and requests that are not JSON.
    let (status, _) = server.post("/api/step", json!({"id": 999}));
    assert_eq!(status, 404);
    let (status, v) = server.request("POST", "/api/new", None, None);
    assert_eq!(status, 400);
    assert!(error(&v).starts_with("error: the request is not JSON"), "{v}");
    // Another site's name for this server (DNS rebinding) is refused.
    let (status, _) = server.request("GET", "/api/games", None, Some("evil.example:80"));
    assert_eq!(status, 403);
    // A program is run only when the server was told it may.
    let (status, v) = server.post("/api/new", json!({"game": "tictactoe", "players": "human,exec:true"}));
    assert_eq!(status, 403);
    assert!(error(&v).contains("--allow-exec"), "{v}");
}

#[test]
fn an_agent_that_fails_stops_the_game_with_the_command_lines_message() {
    // optimal cannot solve connect four in 1,000 nodes.
    let server = Server::start(&["--max-nodes", "1000"]);
    let state = server.ok("/api/new", json!({"game": "connect4", "players": "optimal,human"}));
    let (status, v) = server.post("/api/step", json!({"id": state["id"]}));
    assert_eq!(status, 422);
    let out = Command::new(env!("CARGO_BIN_EXE_gdl"))
        .args([
            "trace",
            "connect4",
            "--players",
            "optimal,random",
            "--max-nodes",
            "1000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(error(&v), String::from_utf8(out.stderr).unwrap().trim_end());
    // The move that could not be made was not made.
    let (status, now) = server.request("GET", &format!("/api/state?id={}", state["id"]), None, None);
    assert_eq!(status, 200);
    assert_eq!(now["history"], json!([]));
    assert_eq!(now["board"], state["board"]);
}

#[test]
fn a_kalah_pit_clicked_is_the_pit_sown() {
    let server = Server::start(&["--seed", "1"]);
    let state = server.ok("/api/new", json!({"game": "kalah", "players": "human,random"}));
    let targets: Vec<Option<usize>> = serde_json::from_value(state["clicks"]["bottom"].clone()).unwrap();
    assert_eq!(targets.len(), 6);
    for (pit, target) in targets.iter().enumerate() {
        let game = server.ok("/api/new", json!({"game": "kalah", "players": "human,random"}));
        let mv = game["moves"][target.expect("every pit of the mover plays")].clone();
        let after = server.ok("/api/move", json!({"id": game["id"], "move": mv}));
        let bottom: Vec<String> = serde_json::from_value(after["board"]["bottom"].clone()).unwrap();
        assert_eq!(bottom[pit], "0", "pit {pit} was sown by {mv}: {bottom:?}");
    }
}

#[test]
fn the_page_and_its_script_come_from_the_binary_and_fetch_nothing_else() {
    let server = Server::start(&[]);
    for path in ["/", "/app.js", "/style.css"] {
        let (status, body) = server.request("GET", path, None, None);
        assert_eq!(status, 200, "{path}");
        let text = body.as_str().unwrap_or_default().to_string();
        assert!(!text.is_empty(), "{path}");
        // The only URL is SVG's namespace, a name and not a place.
        let urls: Vec<&str> = text
            .match_indices("http")
            .map(|(i, _)| &text[i..(i + 30).min(text.len())])
            .filter(|u| !u.starts_with("http://www.w3.org/2000/svg"))
            .collect();
        assert!(urls.is_empty(), "{path} names {urls:?}");
    }
    let (_, page) = server.request("GET", "/", None, None);
    assert!(page.as_str().unwrap().contains("<script src=\"/app.js\">"));
    let (status, _) = server.request("GET", "/nothing", None, None);
    assert_eq!(status, 404);
}

#[test]
fn every_bundled_game_is_played_to_its_end_on_the_page() {
    let server = Server::start(&["--seed", "3"]);
    let (status, list) = server.request("GET", "/api/games", None, None);
    assert_eq!(status, 200);
    let names: Vec<String> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    for name in &names {
        let about = server.ok("/api/game", json!({"game": name}));
        let seats = about["players"].as_array().unwrap().len();
        assert!(seats >= 1, "{name}: {about}");
        let players = vec!["random"; seats].join(",");
        let mut state = server.ok("/api/new", json!({"game": name, "players": players}));
        let drawn = !state["board"].is_null();
        let mut steps = 0;
        while state["turn"] != "terminal" {
            // Every position of a game with a display is drawn from it.
            assert_eq!(!state["board"].is_null(), drawn, "{name}: {state}");
            state = server.ok("/api/step", json!({"id": state["id"]}));
            steps += 1;
            assert!(steps < 5000, "{name} does not end");
        }
        assert!(!state["outcome"].is_null(), "{name}: {state}");
        assert!(steps > 0, "{name}");
        assert_eq!(state["history"].as_array().unwrap().len(), steps, "{name}: {state}");
    }
}

#[test]
fn the_page_seats_the_computer_each_game_plays_best_against() {
    let server = Server::start(&[]);
    for (game, seats) in [
        ("tictactoe", "human,optimal"),
        // Card games decided by scores: information-set MCTS beat `search`.
        ("xnimmt", "human,mcts"),
        // Other hidden cards: `search`.
        ("kuhn-poker", "human,search"),
        ("connect4", "human,mcts"),
    ] {
        let about = server.ok("/api/game", json!({"game": game}));
        assert_eq!(about["seats"], seats, "{game}: {about}");
    }
}
