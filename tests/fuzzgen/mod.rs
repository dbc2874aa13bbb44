//! Random `.game` files for the fuzzer: programs written from the grammar
//! (mostly well typed, so that many compile and run), and mutations of the
//! files in games/ and of generated programs (tokens deleted, duplicated,
//! swapped or replaced; numbers changed, huge numbers; deep nesting; cut
//! short; stray bytes), and the hostile shapes a person writes: constants
//! near the limits of a 64-bit integer, nested repeats (`[[0; 1000]; 1000]`),
//! wide states, simultaneous games of many players, and files saved with a
//! byte-order mark, CR or CRLF line endings, or NUL bytes in them.

pub mod agree;

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// One fuzz input: a file's text, parameter values as given on the command
/// line, and the seed of its playouts.
pub struct Case {
    pub text: String,
    pub bindings: Vec<(String, String)>,
    pub seed: u64,
}

/// The game files to mutate.
pub fn corpus() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
}

/// Case `i` of the sequence `seed`: the same every time.
pub fn make_case(seed: u64, i: u64, corpus: &[String]) -> Case {
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
    let (text, params) = match rng.random_range(0..10) {
        0..=4 => Program::new(&mut rng).write(),
        5..=6 => {
            let (t, p) = Program::new(&mut rng).write();
            (mutate(&mut rng, &t), p)
        }
        _ => {
            let base = corpus.choose(&mut rng).unwrap();
            (mutate(&mut rng, base), Vec::new())
        }
    };
    // How an editor on another system saves a file.
    let text = if rng.random_bool(0.06) {
        encode(&mut rng, &text)
    } else {
        text
    };
    let mut bindings = Vec::new();
    for p in params {
        if rng.random_bool(0.2) {
            bindings.push((p, random_value(&mut rng)));
        }
    }
    if rng.random_bool(0.05) {
        bindings.push(("nosuchparam".into(), "1".into()));
    }
    Case {
        text,
        bindings,
        seed: rng.random(),
    }
}

/// `text` as another editor would save it: with a byte-order mark, CR or
/// CRLF line endings, or NUL bytes.
pub fn encode(rng: &mut StdRng, text: &str) -> String {
    match rng.random_range(0..6) {
        0 => format!("\u{feff}{text}"),
        1 => text.replace('\n', "\r\n"),
        2 => text.replace('\n', "\r"),
        3 => format!("\u{feff}{}", text.replace('\n', "\r\n")),
        4 => {
            // Some lines CRLF, some LF: a file edited on two systems.
            text.split('\n')
                .map(|l| {
                    if rng.random_bool(0.5) {
                        format!("{l}\r")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
        _ => {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..rng.random_range(1..=3) {
                let at = rng.random_range(0..=chars.len());
                chars.insert(at, '\0');
            }
            chars.into_iter().collect()
        }
    }
}

/// Integers at the edges of i64, as a file writes them (the smallest has
/// no literal of its own).
const EDGES: &[&str] = &[
    "9223372036854775807",
    "(-9223372036854775807 - 1)",
    "-9223372036854775807",
    "4611686018427387904",
    "3037000500",
    "-1",
];

fn random_value(rng: &mut StdRng) -> String {
    [
        "0",
        "1",
        "3",
        "-1",
        "100000",
        "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999",
        "true",
        "A",
        "1,2,3",
        "[1, 2]",
        "{1, 3}",
        "",
        "x",
        "[[1]]",
        "1,,2",
    ]
    .choose(rng)
    .unwrap()
    .to_string()
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "64",
    "4096",
    "4097",
    "65536",
    "1048576",
    "1048577",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999999",
];

const VOCABULARY: &[&str] = &[
    "game",
    "param",
    "require",
    "requires",
    "state",
    "fn",
    "move",
    "end",
    "when",
    "winner",
    "loser",
    "draw",
    "payoff",
    "let",
    "if",
    "then",
    "else",
    "for",
    "in",
    "and",
    "or",
    "not",
    "implies",
    "true",
    "false",
    "players",
    "count",
    "hidden",
    "private",
    "chance",
    "simultaneous",
    "per",
    "player",
    "int",
    "bool",
    "list",
    "set",
    "no",
    "moves",
    "lowest",
    "highest",
    "wins",
    "current",
    "previous",
    "me",
    "len",
    "sum",
    "min",
    "max",
    "any",
    "all",
    "abs",
    "next",
    "last",
    "again",
    "turn",
    "weight",
    "const",
    "while",
    "return",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ";",
    ":",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "..",
    "..<",
    "++",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<=",
    ">=",
    ".",
    "->",
    "\"",
    "//",
    "///",
    "\n",
    "0",
    "-1",
];

/// A mutation of `text`: a few random edits at the level of tokens.
pub fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut toks = tokens(text);
    let edits = rng.random_range(1..=4);
    for _ in 0..edits {
        if toks.is_empty() {
            toks.push("game".into());
        }
        let i = rng.random_range(0..toks.len());
        match rng.random_range(0..14) {
            0 | 1 => {
                toks.remove(i);
            }
            2 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            3 => {
                let j = rng.random_range(0..toks.len());
                toks.swap(i, j);
            }
            4 | 5 => {
                // A number changed.
                let nums: Vec<usize> = (0..toks.len())
                    .filter(|&k| toks[k].chars().all(|c| c.is_ascii_digit()))
                    .collect();
                if let Some(&k) = nums.choose(rng) {
                    toks[k] = NUMBERS.choose(rng).unwrap().to_string();
                }
            }
            6 | 7 => toks.insert(i, format!(" {} ", VOCABULARY.choose(rng).unwrap())),
            8 => {
                // Deep nesting of one kind or another.
                let n = *[10, 100, 300, 1000, 5000, 50_000].choose(rng).unwrap();
                let (open, close) = *[
                    ("(", ")"),
                    ("[", "]"),
                    ("{", "}"),
                    ("-", ""),
                    ("not ", ""),
                    ("1 + ", ""),
                    ("if true then 1 else ", ""),
                    ("true implies ", ""),
                    ("list<", ">"),
                    ("per player ", ""),
                    ("if true { ", "}"),
                ]
                .choose(rng)
                .unwrap();
                let j = rng.random_range(i..=toks.len());
                toks.insert(j, close.repeat(if rng.random_bool(0.8) { n } else { n / 2 }));
                toks.insert(i, open.repeat(n));
            }
            9 => {
                let cut = rng.random_range(0..=toks.len());
                toks.truncate(cut);
            }
            10 => {
                let b = *[
                    "\u{0}", "\u{feff}", "é", "\u{202e}", "\t", "\r", "🂡", "\u{7f}", "\\", "'", "@", "#", "$",
                ]
                .choose(rng)
                .unwrap();
                toks.insert(i, b.to_string());
            }
            11 => {
                // A stretch copied elsewhere.
                let j = rng.random_range(i..toks.len().min(i + 30));
                let piece: Vec<String> = toks[i..=j].to_vec();
                let at = rng.random_range(0..=toks.len());
                for (k, t) in piece.into_iter().enumerate() {
                    toks.insert(at + k, t);
                }
            }
            12 => {
                // An identifier renamed.
                let ids: Vec<usize> = (0..toks.len())
                    .filter(|&k| toks[k].chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
                    .collect();
                if let Some(&k) = ids.choose(rng) {
                    toks[k] = VOCABULARY.choose(rng).unwrap().to_string();
                }
            }
            _ => {
                // A number made huge or negative.
                let nums: Vec<usize> = (0..toks.len())
                    .filter(|&k| toks[k].chars().all(|c| c.is_ascii_digit()))
                    .collect();
                if let Some(&k) = nums.choose(rng) {
                    toks[k] = format!("-{}", NUMBERS.choose(rng).unwrap());
                }
            }
        }
    }
    toks.concat()
}

/// Splits text into tokens that concatenate back to it.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut kind = 0;
    for c in text.chars() {
        let k = if c.is_alphanumeric() || c == '_' {
            1
        } else if c.is_whitespace() {
            2
        } else {
            3
        };
        if k != kind || k == 3 {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            kind = k;
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

// ------------------------------------------------------------ programs

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Int,
    Bool,
    ListInt,
    Set,
    PerInt,
    PerSet,
    ListList,
}

struct Var {
    name: String,
    ty: Ty,
}

/// A random program, built from the grammar with rough type tracking.
struct Program {
    rng: StdRng,
    out: String,
    players: Vec<String>,
    params: Vec<(String, Ty)>,
    vars: Vec<Var>,
    /// Constants: lists of ints, and lists of lists of ints.
    const_lists: Vec<String>,
    const_tables: Vec<String>,
    fns: Vec<String>,
    /// Functions of a player and an int: `h(current, x)` inlined in a rule
    /// binds `current` to a local, and a call of one inside another nests
    /// those bindings (the shape that once read the wrong local).
    player_fns: Vec<String>,
    /// The player parameter of the function being written.
    player_param: Option<String>,
    procs: Vec<String>,
    /// Int names in scope (move arguments, lets, loop variables).
    locals: Vec<String>,
    depth: usize,
    fresh: usize,
    in_sim: bool,
    /// Where the statements being written run: who may say who moves next.
    says_turn: Says,
}

/// Which of `again` and `turn = p` the statements being written may use.
#[derive(Clone, Copy, PartialEq)]
enum Says {
    Nothing,
    /// A player's move: `again` and `turn = p`.
    Both,
    /// Chance, or a `then` block: `turn = p`.
    TurnOnly,
}

impl Program {
    fn new(rng: &mut StdRng) -> Self {
        Program {
            rng: StdRng::seed_from_u64(rng.random()),
            out: String::new(),
            players: Vec::new(),
            params: Vec::new(),
            vars: Vec::new(),
            const_lists: Vec::new(),
            const_tables: Vec::new(),
            fns: Vec::new(),
            player_fns: Vec::new(),
            player_param: None,
            procs: Vec::new(),
            locals: Vec::new(),
            depth: 0,
            fresh: 0,
            in_sim: false,
            says_turn: Says::Nothing,
        }
    }

    fn p(&mut self, prob: f64) -> bool {
        self.rng.random_bool(prob)
    }

    fn n(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.random_range(lo..=hi)
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// The file's text and the names of its parameters.
    fn write(mut self) -> (String, Vec<String>) {
        let name = self.name("G");
        self.out.push_str(&format!("game {name}\n"));
        if self.p(0.15) {
            // Now and then many players: with a simultaneous move, joint
            // moves multiply (10 players of 10 choices: 10^10).
            let n = if self.p(0.2) { self.n(5, 10) } else { self.n(1, 4) };
            self.out.push_str(&format!("players count {n}\n"));
            self.players = (1..=n).map(|i| format!("P{i}")).collect();
        } else {
            self.players = vec!["A".into(), "B".into()];
            if self.p(0.1) {
                self.players.push("C".into());
            }
            self.out.push_str(&format!("players {}\n", self.players.join(", ")));
        }
        for _ in 0..self.n(0, 3) {
            self.param();
        }
        for _ in 0..self.n(0, 2) {
            self.constant();
        }
        if self.p(0.2) {
            let e = self.bool_expr();
            self.out.push_str(&format!("require {e} else \"no\"\n"));
        }
        // A clock makes most games end.
        let clock = self.p(0.85);
        if clock {
            let t = self.n(0, 12);
            self.out.push_str(&format!("state clock: int = {t}\n"));
            self.vars.push(Var {
                name: "clock".into(),
                ty: Ty::Int,
            });
        }
        for _ in 0..self.n(1, 5) {
            self.state();
        }
        for _ in 0..self.n(0, 2) {
            self.player_function();
        }
        for _ in 0..self.n(0, 2) {
            self.function();
        }
        if self.p(0.3) {
            self.procedure();
        }
        if self.p(0.2) {
            self.canonical();
        }
        let kinds = self.n(1, 3);
        for k in 0..kinds {
            self.move_decl(clock, k == 0);
        }
        for _ in 0..self.n(1, 3) {
            self.end(clock);
        }
        let params = self.params.iter().map(|(n, _)| n.clone()).collect();
        (self.out, params)
    }

    fn param(&mut self) {
        let name = self.name("p");
        let (ty, text) = match self.n(0, 3) {
            0 | 1 => {
                let d = self.n(0, 6);
                (Ty::Int, format!("param {name}: int = {d} in 0..{}\n", d + self.n(0, 5)))
            }
            2 => (Ty::Bool, format!("param {name}: bool = {}\n", self.p(0.5))),
            _ => {
                let len = self.n(0, 4);
                let items: Vec<String> = (0..len).map(|_| self.n(0, 4).to_string()).collect();
                (
                    Ty::ListInt,
                    format!("param {name}: list<int> = [{}] in 0..9\n", items.join(", ")),
                )
            }
        };
        self.out.push_str(&text);
        self.params.push((name, ty));
    }

    /// A `const`: a list of ints, a table (a list of lists), or an int.
    fn constant(&mut self) {
        let name = self.name("k");
        let row = |rng: &mut StdRng| -> String {
            let len = rng.random_range(0..=4);
            let items: Vec<String> = (0..len).map(|_| rng.random_range(-2..=9).to_string()).collect();
            format!("[{}]", items.join(", "))
        };
        let text = match self.n(0, 3) {
            3 => {
                // Arithmetic at the edges of i64: overflow must be an error, never a panic.
                let a = *EDGES.choose(&mut self.rng).unwrap();
                let b = *EDGES.choose(&mut self.rng).unwrap();
                let op = *["+", "-", "*", "/", "%"].choose(&mut self.rng).unwrap();
                format!("const {name}: int = {a} {op} {b}\n")
            }
            0 => {
                let r = row(&mut self.rng);
                self.const_lists.push(name.clone());
                format!("const {name}: list<int> = {r}\n")
            }
            1 => {
                let rows: Vec<String> = (0..self.n(0, 4)).map(|_| row(&mut self.rng)).collect();
                self.const_tables.push(name.clone());
                format!("const {name}: list<list<int>> = [{}]\n", rows.join(", "))
            }
            _ => {
                let e = self.int_expr();
                format!("const {name}: int = {e}\n")
            }
        };
        self.out.push_str(&text);
    }

    /// A constant list of ints: a list constant, or a row of a table.
    fn const_list(&mut self) -> Option<String> {
        if !self.const_tables.is_empty() && self.p(0.5) {
            let t = self.const_tables.choose(&mut self.rng).unwrap().clone();
            let i = self.int_expr();
            return Some(format!("{t}[{i}]"));
        }
        self.const_lists.choose(&mut self.rng).cloned()
    }

    fn visibility(&mut self, ty: Ty) -> &'static str {
        match ty {
            Ty::Set | Ty::ListInt if self.p(0.2) => "hidden ",
            Ty::PerSet | Ty::PerInt if self.p(0.3) => "private ",
            _ => "",
        }
    }

    fn state(&mut self) {
        let name = self.name("s");
        let ty = *[
            Ty::Int,
            Ty::Int,
            Ty::Bool,
            Ty::ListInt,
            Ty::Set,
            Ty::PerInt,
            Ty::PerSet,
            Ty::ListList,
        ]
        .choose(&mut self.rng)
        .unwrap();
        let vis = self.visibility(ty);
        let decl = match ty {
            Ty::Int => format!("int = {}", self.n(-3, 9)),
            Ty::Bool => format!("bool = {}", self.p(0.5)),
            Ty::ListInt => {
                let len = self.n(0, 5);
                if self.p(0.05) {
                    // A wide state: every position holds thousands of cells.
                    let wide = *[1000, 4096, 20000, 100000].choose(&mut self.rng).unwrap();
                    format!("list<int> = [{}; {wide}]", self.n(0, 9))
                } else if self.p(0.3) {
                    format!("list<int, {}> = []", self.n(0, 6))
                } else {
                    let items: Vec<String> = (0..len).map(|_| self.n(0, 5).to_string()).collect();
                    format!("list<int> = [{}]", items.join(", "))
                }
            }
            Ty::Set => {
                let hi = self.n(1, 9);
                format!("set<1..{hi}> = {{{}..{}}}", self.n(1, hi), hi)
            }
            Ty::PerInt => format!("per player int = {}", self.n(0, 3)),
            Ty::PerSet => format!("per player set<1..{}> = {{}}", self.n(1, 9)),
            Ty::ListList if self.p(0.1) => format!("list<list<int>> = {}", self.nested()),
            Ty::ListList => format!("list<list<int, {}>> = [[]; {}]", self.n(1, 4), self.n(1, 3)),
        };
        self.out.push_str(&format!("{vis}state {name}: {decl}\n"));
        self.vars.push(Var { name, ty });
    }

    fn function(&mut self) {
        let name = self.name("f");
        self.fns.push(name.clone());
        self.locals.push("x".into());
        if self.p(0.25) {
            // Statements: a loop, a return inside it, a return at the end.
            self.locals.push("acc".into());
            let guard = self.bool_expr();
            let step = self.int_expr();
            let early = self.bool_expr();
            self.locals.truncate(self.locals.len() - 2);
            let bound = if self.p(0.9) { "i < 20 and " } else { "" };
            // Now and then a local set that the function fills as it goes
            // (though a function changes nothing of the state).
            let (seen, add) = if self.p(0.3) {
                (
                    format!("let seen: set<0..{}> = {{}}\n    ", self.n(0, 12)),
                    "        seen.add(i)\n        acc += len(seen)\n".to_string(),
                )
            } else {
                (String::new(), String::new())
            };
            self.out.push_str(&format!(
                "fn {name}(x: int) -> int {{\n    let acc = 0\n    let i = 0\n    {seen}\
                 while {bound}{guard} {{\n        acc += {step}\n{add}        if {early} {{ return acc }}\n        i += 1\n    }}\n    \
                 return acc\n}}\n"
            ));
            return;
        }
        let body = if self.p(0.3) {
            // Recursion, sometimes without a base case.
            let base = if self.p(0.7) { "x <= 0" } else { "false" };
            format!("if {base} then 0 else 1 + {name}(x - 1)")
        } else {
            self.int_expr()
        };
        self.locals.pop();
        self.out.push_str(&format!("fn {name}(x: int) -> int = {body}\n"));
    }

    /// A function of a player and an int, written as one expression, that
    /// compares its player and may call the functions before it with
    /// `current`, its own parameters, or any int.
    fn player_function(&mut self) {
        let name = self.name("h");
        self.locals.push("x".into());
        self.player_param = Some("p".into());
        let test = format!("p == {}", self.player_expr());
        let (a, b) = (self.int_expr(), self.int_expr());
        let call = match self.player_fns.choose(&mut self.rng).cloned() {
            Some(h) if self.p(0.7) => {
                let p = if self.p(0.5) {
                    "current".into()
                } else {
                    self.player_expr()
                };
                format!(" + {h}({p}, {})", self.int_expr())
            }
            _ => String::new(),
        };
        self.player_param = None;
        self.locals.pop();
        self.out.push_str(&format!(
            "fn {name}(p: player, x: int) -> int = (if {test} then {a} else {b}){call}
"
        ));
        self.player_fns.push(name);
    }

    /// A procedure of one int: statements that change the state.
    fn procedure(&mut self) {
        let name = self.name("q");
        self.locals.push("x".into());
        let n = self.n(1, 3) as usize;
        let body = self.stmts(1, n);
        self.locals.pop();
        let ret = if self.p(0.2) { "    return\n" } else { "" };
        self.out.push_str(&format!("fn {name}(x: int) {{\n{body}{ret}}}\n"));
        self.procs.push(name);
    }

    /// A `canonical` block. It only reads the position (and may fail at
    /// run time): a block that changed it would merge positions of
    /// different values, which the solver rightly reports as inconsistent.
    /// Now and then it says `again`, which the compiler refuses.
    fn canonical(&mut self) {
        let mut body = String::new();
        for _ in 0..self.n(1, 3) {
            let l = self.name("c");
            let line = match self.n(0, 3) {
                0 => format!("let {l} = {}", self.int_expr()),
                1 => format!("if {} {{ let {l} = {} }}", self.bool_expr(), self.int_expr()),
                2 => format!("let {l} = sum(v for v in {})", self.collection()),
                _ if self.p(0.1) => "again".into(),
                _ => format!("for v in {} {{ let {l} = v }}", self.collection()),
            };
            body.push_str(&format!("    {line}\n"));
        }
        self.out.push_str(&format!("canonical {{\n{body}}}\n"));
    }

    fn vars_of(&self, ty: Ty) -> Vec<String> {
        self.vars
            .iter()
            .filter(|v| v.ty == ty)
            .map(|v| v.name.clone())
            .collect()
    }

    fn pick(&mut self, ty: Ty) -> Option<String> {
        let v = self.vars_of(ty);
        v.choose(&mut self.rng).cloned()
    }

    fn player_expr(&mut self) -> String {
        if self.player_param.is_some() && self.p(0.3) {
            return self.player_param.clone().unwrap_or_default();
        }
        match self.n(0, 3) {
            0 => "current".into(),
            1 if !self.in_sim => "previous".into(),
            1 => "me".into(),
            2 => self.players.choose(&mut self.rng).unwrap().clone(),
            _ => "next(current)".into(),
        }
    }

    fn leaf_int(&mut self) -> String {
        // A call of a player's function with `current` or another player
        // and a local (a move's argument, a loop variable) or a number.
        if !self.player_fns.is_empty() && self.p(0.08) {
            let h = self.player_fns.choose(&mut self.rng).unwrap().clone();
            let p = if self.p(0.5) {
                "current".into()
            } else {
                self.player_expr()
            };
            let x = match self.locals.choose(&mut self.rng).cloned() {
                Some(l) if self.p(0.7) => l,
                _ => self.n(0, 3).to_string(),
            };
            return format!("{h}({p}, {x})");
        }
        // Huge numbers are rare: a range of a million numbers in a rule is
        // legal, and makes every step slow.
        match self.n(0, 5) {
            5 if self.p(0.9) => self.n(0, 3).to_string(),
            0 | 1 => self.n(0, 9).to_string(),
            2 if !self.locals.is_empty() => self.locals.choose(&mut self.rng).unwrap().clone(),
            3 => self.pick(Ty::Int).unwrap_or_else(|| "1".into()),
            4 => {
                let ints: Vec<String> = self
                    .params
                    .iter()
                    .filter(|p| p.1 == Ty::Int)
                    .map(|p| p.0.clone())
                    .collect();
                ints.choose(&mut self.rng).cloned().unwrap_or_else(|| "2".into())
            }
            _ if self.p(0.1) => EDGES.choose(&mut self.rng).unwrap().to_string(),
            _ => NUMBERS.choose(&mut self.rng).unwrap().to_string(),
        }
    }

    /// A nested constructor whose size is the product of its parts: lists
    /// of lists, repeats of repeats, joined lists.
    fn nested(&mut self) -> String {
        let size = |me: &mut Self| -> String {
            match me.n(0, 4) {
                0 => me.n(0, 3).to_string(),
                1 => me.n(100, 1000).to_string(),
                2 => ["100000", "100001", "65536", "1000000"]
                    .choose(&mut me.rng)
                    .unwrap()
                    .to_string(),
                3 => me.leaf_int(),
                _ => me.n(1, 20).to_string(),
            }
        };
        let (a, b) = (size(self), size(self));
        match self.n(0, 3) {
            0 => format!("[[{}; {a}]; {b}]", self.n(0, 3)),
            1 => format!("[0; {a}] ++ [1; {b}]"),
            2 => format!("[[0; {a}], [1; {b}]]"),
            _ => format!("[[[0; {a}]; {b}]; {}]", size(self)),
        }
    }

    /// A collection of ints to go through.
    fn collection(&mut self) -> String {
        match self.n(0, 5) {
            0 | 1 => {
                let lo = self.leaf_int();
                let hi = self.leaf_int();
                let op = if self.p(0.5) { ".." } else { "..<" };
                format!("{lo}{op}{hi}")
            }
            2 => match self.const_list() {
                Some(c) if self.p(0.3) => c,
                _ => self.pick(Ty::ListInt).unwrap_or_else(|| "[1, 2]".into()),
            },
            3 => self.pick(Ty::Set).unwrap_or_else(|| "0..3".into()),
            4 => match self.pick(Ty::PerSet) {
                Some(v) => format!("{v}[{}]", self.player_expr()),
                None => "[3, 1, 2]".into(),
            },
            _ => format!("[{}, {}]", self.leaf_int(), self.leaf_int()),
        }
    }

    fn int_expr(&mut self) -> String {
        if self.depth > 3 || self.p(0.35) {
            return self.leaf_int();
        }
        self.depth += 1;
        let e = match self.n(0, 13) {
            0 => format!("{} + {}", self.int_expr(), self.int_expr()),
            1 => format!("{} - {}", self.int_expr(), self.int_expr()),
            2 => format!("{} * {}", self.int_expr(), self.int_expr()),
            3 => format!("{} / {}", self.int_expr(), self.int_expr()),
            4 => format!("{} % {}", self.int_expr(), self.int_expr()),
            5 => format!("-({})", self.int_expr()),
            6 => format!(
                "if {} then {} else {}",
                self.bool_expr(),
                self.int_expr(),
                self.int_expr()
            ),
            7 => match self.pick(Ty::ListInt) {
                Some(l) if self.p(0.7) => format!("{l}[{}]", self.int_expr()),
                _ => match self.const_list() {
                    Some(c) => format!("{c}[{}]", self.int_expr()),
                    None => self.leaf_int(),
                },
            },
            8 if self.p(0.15) => format!("len({})", self.nested()),
            8 => {
                let f = *["len", "sum", "max", "min", "count"].choose(&mut self.rng).unwrap();
                format!("{f}({})", self.collection())
            }
            9 => {
                let f = *["sum", "max", "min", "count"].choose(&mut self.rng).unwrap();
                let v = self.name("g");
                let c = self.collection();
                self.locals.push(v.clone());
                let body = self.int_expr();
                let cond = if self.p(0.5) {
                    format!(" if {}", self.bool_expr())
                } else {
                    String::new()
                };
                self.locals.pop();
                format!("{f}({body} for {v} in {c}{cond})")
            }
            10 if !self.player_fns.is_empty() && self.p(0.4) => {
                let h = self.player_fns.choose(&mut self.rng).unwrap().clone();
                format!("{h}({}, {})", self.player_expr(), self.int_expr())
            }
            10 => match self.fns.choose(&mut self.rng).cloned() {
                Some(f) => format!("{f}({})", self.int_expr()),
                None => format!("abs({})", self.int_expr()),
            },
            11 => match self.pick(Ty::PerInt) {
                Some(v) => format!("{v}[{}]", self.player_expr()),
                None => format!("min({}, {})", self.int_expr(), self.int_expr()),
            },
            12 => match self.pick(Ty::ListList) {
                Some(v) => {
                    if self.p(0.5) {
                        format!("len({v}[{}])", self.int_expr())
                    } else {
                        format!("last({v}[{}])", self.int_expr())
                    }
                }
                None => format!("max({}, {})", self.int_expr(), self.int_expr()),
            },
            _ => match self.pick(Ty::ListInt) {
                Some(l) => format!("last({l})"),
                None => format!("({})", self.int_expr()),
            },
        };
        self.depth -= 1;
        e
    }

    fn bool_expr(&mut self) -> String {
        if self.depth > 3 || self.p(0.2) {
            return match self.pick(Ty::Bool) {
                Some(b) if self.p(0.5) => b,
                _ => self.p(0.5).to_string(),
            };
        }
        self.depth += 1;
        let e = match self.n(0, 10) {
            0..=2 => {
                let op = *["<", "<=", ">", ">=", "==", "!="].choose(&mut self.rng).unwrap();
                format!("{} {op} {}", self.int_expr(), self.int_expr())
            }
            3 => format!("{} in {}", self.int_expr(), self.collection()),
            4 => format!("not ({})", self.bool_expr()),
            5 => format!("{} and {}", self.bool_expr(), self.bool_expr()),
            6 => format!("{} or {}", self.bool_expr(), self.bool_expr()),
            7 => format!("({} implies {})", self.bool_expr(), self.bool_expr()),
            8 => format!("{} == {}", self.player_expr(), self.player_expr()),
            9 => {
                let f = if self.p(0.5) { "any" } else { "all" };
                let v = self.name("g");
                let c = self.collection();
                self.locals.push(v.clone());
                let body = self.bool_expr();
                self.locals.pop();
                format!("{f}({body} for {v} in {c})")
            }
            10 if self.p(0.3) => {
                // Whole lists and sets compared.
                let op = *["==", "!=", "<", ">="].choose(&mut self.rng).unwrap();
                match (self.pick(Ty::ListInt), self.pick(Ty::Set)) {
                    (Some(l), _) if self.p(0.6) => format!("{l} {op} [{}, {}]", self.int_expr(), self.int_expr()),
                    (_, Some(v)) => format!("{v} {op} {{{}}}", self.leaf_int()),
                    _ => format!("{} {op} {}", self.collection(), self.collection()),
                }
            }
            _ => format!("{} not in {}", self.int_expr(), self.collection()),
        };
        self.depth -= 1;
        e
    }

    fn stmts(&mut self, indent: usize, n: usize) -> String {
        let mut s = String::new();
        let scope = (self.locals.len(), self.vars.len());
        for _ in 0..n {
            s.push_str(&"    ".repeat(indent));
            s.push_str(&self.stmt(indent));
            s.push('\n');
        }
        self.locals.truncate(scope.0);
        // Local lists and sets end with their block (state variables are
        // all declared before any statement).
        self.vars.truncate(scope.1);
        s
    }

    /// A local list or set (`let s3: set<1..5> = {}`): the statements after
    /// it in its block use it as they use the state's, changing it even
    /// where the state is only read.
    fn local_collection(&mut self) -> String {
        let v = self.name("s");
        if self.p(0.5) {
            let hi = self.n(1, 9);
            let init = if self.p(0.5) {
                "{}".to_string()
            } else {
                format!("{{{}..{}}}", self.leaf_int(), self.leaf_int())
            };
            self.vars.push(Var {
                name: v.clone(),
                ty: Ty::Set,
            });
            format!("let {v}: set<1..{hi}> = {init}")
        } else {
            let cap = self.n(0, 6);
            let init = match self.pick(Ty::ListInt) {
                Some(l) if self.p(0.3) => l,
                _ if self.p(0.5) => format!("[{}, {}]", self.int_expr(), self.int_expr()),
                _ => "[]".to_string(),
            };
            self.vars.push(Var {
                name: v.clone(),
                ty: Ty::ListInt,
            });
            format!("let {v}: list<int, {cap}> = {init}")
        }
    }

    fn stmt(&mut self, indent: usize) -> String {
        let op = *["=", "+=", "-=", "*=", "/=", "%="].choose(&mut self.rng).unwrap();
        // Who moves next, now and then, sometimes where it is not allowed.
        if self.p(0.06) {
            let says = self.says_turn;
            return match says {
                Says::Both if self.p(0.5) => "again".into(),
                Says::Nothing if self.p(0.9) => "let z = 8".into(),
                _ if self.p(0.05) => "again".into(),
                _ => format!("turn = {}", self.player_expr()),
            };
        }
        if self.p(0.05) {
            return self.local_collection();
        }
        match self.n(0, 15) {
            0 | 1 => match self.pick(Ty::Int) {
                Some(v) => format!("{v} {op} {}", self.int_expr()),
                None => self.stmt(indent),
            },
            2 => match self.pick(Ty::ListInt) {
                Some(v) => format!("{v}[{}] {op} {}", self.int_expr(), self.int_expr()),
                None => "let z = 0".into(),
            },
            3 => match self.pick(Ty::Set) {
                Some(v) => {
                    let m = *["add", "remove", "remove", "clear"].choose(&mut self.rng).unwrap();
                    let arg = if m == "clear" { String::new() } else { self.int_expr() };
                    format!("{v}.{m}({arg})")
                }
                None => "let z = 1".into(),
            },
            4 => match self.pick(Ty::ListInt) {
                Some(v) => {
                    if self.p(0.8) {
                        format!("{v}.push({})", self.int_expr())
                    } else {
                        format!("{v}.clear()")
                    }
                }
                None => "let z = 2".into(),
            },
            5 => match self.pick(Ty::Bool) {
                Some(v) => format!("{v} = {}", self.bool_expr()),
                None => "let z = 3".into(),
            },
            6 => {
                let v = self.name("l");
                let e = self.int_expr();
                self.locals.push(v.clone());
                format!("let {v} = {e}")
            }
            7 if indent < 4 => {
                let c = self.bool_expr();
                let n = self.n(1, 2) as usize;
                let a = self.stmts(indent + 1, n);
                let pad = "    ".repeat(indent);
                if self.p(0.5) {
                    let b = self.stmts(indent + 1, 1);
                    format!("if {c} {{\n{a}{pad}}} else {{\n{b}{pad}}}")
                } else {
                    format!("if {c} {{\n{a}{pad}}}")
                }
            }
            8 if indent < 4 => {
                let v = self.name("i");
                let c = self.collection();
                self.locals.push(v.clone());
                let n = self.n(1, 2) as usize;
                let body = self.stmts(indent + 1, n);
                self.locals.pop();
                format!("for {v} in {c} {{\n{body}{}}}", "    ".repeat(indent))
            }
            9 => match self.pick(Ty::PerInt) {
                Some(v) => format!("{v}[{}] {op} {}", self.player_expr(), self.int_expr()),
                None => "let z = 4".into(),
            },
            10 => match self.pick(Ty::PerSet) {
                Some(v) => format!("{v}[{}].add({})", self.player_expr(), self.int_expr()),
                None => "let z = 5".into(),
            },
            11 => match self.pick(Ty::ListList) {
                Some(v) => format!("{v}[{}].push({})", self.int_expr(), self.int_expr()),
                None => "let z = 6".into(),
            },
            12 => match self.pick(Ty::ListList) {
                Some(v) => format!("for r in {v} {{ r.clear() }}"),
                None => "let z = 7".into(),
            },
            13 if indent < 4 && self.p(0.5) => {
                // A loop, mostly bounded.
                let w = self.name("w");
                let c = self.bool_expr();
                let bound = if self.p(0.95) {
                    format!("{w} < 8 and ")
                } else {
                    String::new()
                };
                self.locals.push(w.clone());
                let body = self.stmts(indent + 1, 1);
                let pad = "    ".repeat(indent);
                format!("let {w} = 0\n{pad}while {bound}{c} {{\n{body}{pad}    {w} += 1\n{pad}}}")
            }
            14 => self.whole_collection(),
            13 => match self.procs.choose(&mut self.rng).cloned() {
                Some(q) => format!("{q}({})", self.int_expr()),
                None => "let z = 10".into(),
            },
            // Through a table of constants; now and then, a constant changed.
            _ => match self.const_tables.choose(&mut self.rng).cloned() {
                Some(t) if self.p(0.95) => match self.pick(Ty::Int) {
                    Some(v) => format!("for row in {t} {{ {v} += sum(row) }}"),
                    None => format!("for row in {t} {{ let z = len(row) }}"),
                },
                Some(t) => format!("{t}[0] = 1"),
                None => "let z = 9".into(),
            },
        }
    }

    /// A list or set built, assigned whole or changed by a list method.
    fn whole_collection(&mut self) -> String {
        if let Some(v) = self.pick(Ty::Set).filter(|_| self.p(0.4)) {
            return if self.p(0.5) {
                format!(
                    "{v} = {{{}, {}..{}}}",
                    self.leaf_int(),
                    self.leaf_int(),
                    self.leaf_int()
                )
            } else {
                let g = self.name("g");
                let c = self.collection();
                self.locals.push(g.clone());
                let body = self.int_expr();
                self.locals.pop();
                format!("{v} = {{{body} for {g} in {c}}}")
            };
        }
        let Some(v) = self.pick(Ty::ListInt) else {
            return "let z = 11".into();
        };
        match self.n(0, 7) {
            0 => format!("{v} = [{}, {}]", self.int_expr(), self.int_expr()),
            1 => format!("{v} = [{}; {}] ++ {v}", self.leaf_int(), self.leaf_int()),
            2 => {
                let g = self.name("g");
                let c = self.collection();
                self.locals.push(g.clone());
                let body = self.int_expr();
                let cond = self.bool_expr();
                self.locals.pop();
                format!("{v} = [{body} for {g} in {c} if {cond}]")
            }
            3 => format!("{v}.pop()"),
            4 => format!("{v}.insert({}, {})", self.int_expr(), self.int_expr()),
            5 => format!("{v}.remove({})", self.int_expr()),
            6 => format!("{v}.sort()"),
            _ => format!("{v}.pop({})", self.int_expr()),
        }
    }

    fn move_decl(&mut self, clock: bool, first: bool) {
        let name = self.name("m");
        let kind = match self.n(0, 9) {
            0 if !first => "chance ",
            1 | 2 if !first && !self.out.contains("simultaneous") && (self.players.len() > 4 || self.p(0.5)) => {
                "simultaneous "
            }
            _ => "",
        };
        self.in_sim = kind == "simultaneous ";
        let nargs = self.n(0, 3);
        let mut args = Vec::new();
        let scope = self.locals.len();
        for _ in 0..nargs {
            let a = self.name("a");
            let c = if self.in_sim && self.p(0.3) {
                format!("0..{}", self.n(3, 9))
            } else if self.p(0.5) {
                format!("{}..{}", self.n(0, 2), self.n(0, 4))
            } else {
                self.collection()
            };
            args.push(format!("{a} in {c}"));
            self.locals.push(a);
        }
        let mut head = format!("{kind}move {name}({})", args.join(", "));
        for _ in 0..self.n(0, 2) {
            let r = self.bool_expr();
            head.push_str(&format!(" requires {r}"));
        }
        if clock && kind == "chance " {
            head.push_str(" requires clock % 2 == 1");
        }
        // Weights, mostly on chance moves; sometimes 0 or negative.
        if (kind == "chance " && self.p(0.4)) || self.p(0.02) {
            let w = self.int_expr();
            head.push_str(&format!(" weight {w}"));
        }
        let n = self.n(0, 4) as usize;
        self.says_turn = match kind {
            "" => Says::Both,
            "chance " => Says::TurnOnly,
            _ => Says::Nothing,
        };
        let mut body = self.stmts(1, n);
        self.says_turn = Says::TurnOnly;
        if clock && (kind != "simultaneous " || self.p(0.5)) && self.p(0.95) {
            body.push_str("    clock -= 1\n");
        }
        self.out.push_str(&format!("{head} {{\n{body}}}"));
        if kind == "simultaneous " {
            let then = if clock {
                "    clock -= 1\n".to_string()
            } else {
                self.stmts(1, 1)
            };
            self.out.push_str(&format!(" then {{\n{then}}}"));
        }
        self.out.push('\n');
        self.locals.truncate(scope);
        self.in_sim = false;
        self.says_turn = Says::Nothing;
    }

    fn end(&mut self, clock: bool) {
        let cond = match self.n(0, 4) {
            0 | 1 if clock => "clock <= 0".to_string(),
            2 => "no moves".to_string(),
            _ => self.bool_expr(),
        };
        let outcome = match self.n(0, 5) {
            0 | 1 => format!("winner {}", self.player_expr()),
            2 => format!("loser {} payoff {}", self.player_expr(), self.int_expr()),
            3 => "draw".to_string(),
            4 => match self.pick(Ty::PerInt) {
                Some(v) => format!("{} {v} wins", if self.p(0.5) { "lowest" } else { "highest" }),
                None => "draw".into(),
            },
            _ => format!("winner {}\n    payoff {}", self.player_expr(), self.int_expr()),
        };
        self.out.push_str(&format!("end when {cond} {{ {outcome} }}\n"));
    }
}
