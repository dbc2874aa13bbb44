//! The one list of the kinds of agents that `--players` takes, beside the
//! registry that builds them (`agent_builder`): every command's help, the
//! shell completions, `gdl list --agents`, the messages of a bad spec and
//! the test of docs/CLI.md's table read it.

/// A kind of agent: how `--players` writes it, and what it plays.
#[derive(Clone, Copy, Debug)]
pub struct AgentKind {
    pub spec: &'static str,
    pub plays: &'static str,
}

/// Every kind of agent that `AgentSpec` reads, in the order the help lists
/// them: the one list that every command's `--players` help, the shell
/// completions, `gdl list --agents`, the messages of a bad spec and the
/// test of docs/CLI.md read. A new kind is one line here (and a row in the
/// table of agents in docs/CLI.md, which tests/agent_kinds.rs checks). `AgentSpec`
/// reads them and `agent_builder` builds them.
#[rustfmt::skip]
pub const AGENT_KINDS: &[AgentKind] = &[
    AgentKind { spec: "optimal", plays: "a move of the exact solution, ties drawn with the seed (two players, perfect information; expectiminimax with chance or simultaneous moves)" },
    AgentKind { spec: "optimal:first", plays: "the same, ties to the first move the game lists" },
    AgentKind { spec: "optimal:fast", plays: "the fastest win or the slowest loss, then the first listed" },
    AgentKind { spec: "random", plays: "a uniformly random legal move" },
    AgentKind { spec: "human", plays: "you, at the terminal (play and trace)" },
    AgentKind { spec: "search", plays: "determinized Monte Carlo search, 200 worlds a move" },
    AgentKind { spec: "search:N", plays: "the same, N worlds a move" },
    AgentKind { spec: "dsearch", plays: "determinized search with an exact endgame, for simultaneous moves (X Nimmt!)" },
    AgentKind { spec: "dsearch:N", plays: "the same, at most N worlds a move" },
    AgentKind { spec: "mcts", plays: "Monte Carlo tree search (UCT, MCTS-Solver), 2000 simulations a move" },
    AgentKind { spec: "mcts:N", plays: "the same, N simulations a move" },
    AgentKind { spec: "alphabeta:D", plays: "alpha-beta D moves deep, the game's `evaluate` at the limit" },
    AgentKind { spec: "greedy", plays: "the move with the lowest expected immediate penalty" },
    AgentKind { spec: "q:FILE", plays: "the greedy move of a Q-table saved by `gdl train`" },
    AgentKind { spec: "az:FILE", plays: "PUCT search guided by a network saved by `gdl train --algorithm alphazero` (400 simulations a move)" },
    AgentKind { spec: "policy:FILE", plays: "a strategy saved by `gdl train --algorithm cfr`" },
    AgentKind { spec: "exec:COMMAND", plays: "a program in any language, speaking JSON lines (docs/AGENTS.md)" },
];

/// The kinds as a list for a sentence: `optimal, optimal:first, ...`.
pub fn kinds_text() -> String {
    AGENT_KINDS.iter().map(|k| k.spec).collect::<Vec<_>>().join(", ")
}
