//! The one list of agent kinds (`AGENT_KINDS`, in src/solve/agents/agent_kinds.rs
//! beside the agent builder)
//! against what reads and documents them: every kind it names is a spec
//! that `--players` reads, and the table of agents in docs/CLI.md names every
//! kind, and no other. A kind added to the list but not to that table fails
//! here.

use crate::common;

use gdl::solve::agents::agent::AgentSpec;
use gdl::solve::agents::agent_kinds::AGENT_KINDS;

/// A kind as a user would write it: `search:N` as `search:3`.
fn example(spec: &str) -> String {
    spec.replace(":N", ":3")
        .replace(":D", ":2")
        .replace(":FILE", ":table.json")
        .replace(":COMMAND", ":python3 agent.py")
}

#[test]
fn every_kind_is_a_spec_that_players_reads() {
    for kind in AGENT_KINDS {
        let text = example(kind.spec);
        let spec: AgentSpec = text.parse().unwrap_or_else(|e| panic!("{}: {e}", kind.spec));
        assert_eq!(spec.to_string(), text);
        assert!(!kind.plays.is_empty());
    }
}

/// The agents the table of docs/CLI.md names: every `code` in the first cell of
/// each row of the table under "| agent | plays |".
fn documented_agents() -> Vec<String> {
    let doc = std::fs::read_to_string(common::crate_dir().join("docs/CLI.md")).unwrap();
    let table = doc
        .split("\n| agent | plays |\n")
        .nth(1)
        .expect("docs/CLI.md has a table of agents");
    let mut names = Vec::new();
    for row in table.lines().skip(1).take_while(|l| l.starts_with('|')) {
        let first = row.split('|').nth(1).unwrap();
        names.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names
}

#[test]
fn the_docs_name_every_kind_of_agent() {
    let named = documented_agents();
    let kinds: Vec<&str> = AGENT_KINDS.iter().map(|k| k.spec).collect();
    let missing: Vec<&&str> = kinds.iter().filter(|k| !named.iter().any(|n| n == *k)).collect();
    assert!(missing.is_empty(), "docs/CLI.md's table of agents lacks {missing:?}");
    let unknown: Vec<&String> = named.iter().filter(|n| !kinds.contains(&n.as_str())).collect();
    assert!(
        unknown.is_empty(),
        "docs/CLI.md's table names agents that are not kinds: {unknown:?}"
    );
}

/// What the `gdl` binary prints for `args`.
fn gdl_out(args: &[&str]) -> String {
    let run = common::gdl_in(common::crate_dir(), args, None);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn every_place_that_lists_the_agents_lists_every_kind() {
    let places = [
        ("gdl list --agents", gdl_out(&["list", "--agents"])),
        ("gdl play --help", gdl_out(&["play", "nim", "--help"])),
        ("gdl trace --help", gdl_out(&["trace", "nim", "--help"])),
        ("gdl match --help", gdl_out(&["match", "nim", "--help"])),
        ("gdl completions bash", gdl_out(&["completions", "bash"])),
        ("gdl completions fish", gdl_out(&["completions", "fish"])),
    ];
    for (place, text) in &places {
        for kind in AGENT_KINDS {
            assert!(text.contains(kind.spec), "{place} does not name {}", kind.spec);
        }
    }
}
