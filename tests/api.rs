//! The library's front door (`gdl::load`, `gdl::agent`): a game by path or
//! bundled name, typed parameter values, and errors that name parameters,
//! where the command line names its flags.

use gdl::{Game, LoadError, ParamValue, Turn};

use crate::common;

/// The one message a load's error gives for nim with `piles`.
fn nim_error(piles: ParamValue) -> String {
    let error = gdl::load("nim", &[("piles", piles)]).expect_err("must be refused");
    assert!(matches!(error, LoadError::Compile(_)), "{error:?}");
    error.to_string()
}

#[test]
fn a_bundled_game_loads_by_name_with_typed_parameters() {
    let game = gdl::load("nimcala", &[("pits", 3.into()), ("tokens", 2.into())]).unwrap();
    assert_eq!(game.title(), "Nimcala (pits = 3, tokens = 2)");
    assert_eq!(game.players(), ["MAX", "MIN"]);
    assert_eq!(
        game.params(),
        [
            ("pits".to_string(), "3".to_string()),
            ("tokens".to_string(), "2".to_string())
        ]
    );
    // The same game as the command line's `--pits 3 --tokens 2`.
    let text = std::fs::read_to_string(common::crate_dir().join("games/nimcala.game")).unwrap();
    let flags = [
        ("pits".to_string(), "3".to_string()),
        ("tokens".to_string(), "2".to_string()),
    ];
    let by_flags = gdl::compile::load("nimcala", &text, &flags).unwrap();
    assert_eq!(game.program().initial, by_flags.initial);
}

#[test]
fn a_path_loads_the_file_and_solves_as_the_command_line_does() {
    let path = common::crate_dir().join("games/nim.game");
    let game = gdl::load(&path, &[("piles", vec![1, 2, 3].into())]).unwrap();
    let start = game.initial_state().unwrap();
    let solution = gdl::solve(&game, &start, &Default::default()).unwrap();
    // Misère Nim [1, 2, 3]: the nim-sum is 0 and a pile is above 1, so the first player loses.
    assert_eq!(solution.value, -1.0);
    let cli = common::gdl(&["solve", "games/nim.game", "--piles", "1,2,3"]);
    assert!(cli.stdout.contains("value       -1 (for MAX"), "{}", cli.stdout);
}

#[test]
fn every_kind_of_parameter_value_is_read_by_its_type() {
    let dir = common::scratch("api", "kinds", &[]);
    let path = dir.join("kinds.game");
    std::fs::write(
        &path,
        "game Kinds\nplayers MAX, MIN\n\
         param n: int = 1 in 0..9\nparam fast: bool = false\nparam starter: player = MAX\n\
         param rows: list<list<int>> = []\nparam free: set<0..9> = {}\n\
         state x: int = n\nmove m() { x -= 1 }\nend when x <= 0 { winner previous }\n",
    )
    .unwrap();
    let params = [
        ("n", ParamValue::from(4)),
        ("fast", true.into()),
        ("starter", "MIN".into()),
        ("rows", vec![vec![1, 2], vec![]].into()),
        ("free", ParamValue::Set([5, 1].into())),
    ];
    let game = gdl::load(&path, &params).unwrap();
    let shown: Vec<String> = game.params().iter().map(|(k, v)| format!("{k} = {v}")).collect();
    assert_eq!(
        shown,
        [
            "n = 4",
            "fast = true",
            "starter = MIN",
            "rows = [[1, 2], []]",
            "free = {1, 5}"
        ]
    );
    assert_eq!(game.turn(&game.initial_state().unwrap()).unwrap(), Turn::Player(0));
}

#[test]
fn errors_name_the_parameter_not_a_flag() {
    let message = nim_error(vec![3, 30].into());
    assert!(
        message.contains("piles = [3, 30]: 30 is out of range; each element must be in 0..20"),
        "{message}"
    );
    assert!(!message.contains("--piles 3"), "{message}");

    let pits = gdl::load("nimcala", &[("pits", 99.into())]).unwrap_err().to_string();
    assert!(
        pits.contains("pits = 99 is out of range: `pits` must be in 1..16"),
        "{pits}"
    );
    // The diagnostic keeps its code and its place in the file.
    assert!(
        pits.contains("gdl::compile::param_range") && pits.contains("nimcala:10:24"),
        "{pits}"
    );

    let typed = nim_error(true.into());
    assert!(
        typed.contains("piles = true: expected a list<int>, found a bool"),
        "{typed}"
    );
    let text = nim_error("3,x".into());
    assert!(text.contains("piles = \"3,x\": `x` is not a whole number"), "{text}");
}

#[test]
fn a_missing_parameter_is_asked_for_by_name() {
    let path = common::crate_dir().join("tests/inputs/err/missing_param.game");
    let message = gdl::load(&path, &[]).unwrap_err().to_string();
    assert!(
        message.contains("the parameter `size` has no default and was not given"),
        "{message}"
    );
    assert!(message.contains("give it a value: size = VALUE"), "{message}");
    assert!(!message.contains("command line"), "{message}");
    // The command line asks for its flag.
    let cli = common::gdl(&["check", "tests/inputs/err/missing_param.game"]);
    assert!(
        cli.stderr.contains("give it on the command line: --size VALUE"),
        "{}",
        cli.stderr
    );
}

#[test]
fn the_command_line_names_its_flags() {
    let cli = common::gdl(&["solve", "games/nim.game", "--piles", "3,30"]);
    assert_eq!(cli.code, 2);
    assert!(
        cli.stderr
            .contains("--piles [3, 30]: 30 is out of range; each element must be in 0..20"),
        "{}",
        cli.stderr
    );
    let cli = common::gdl(&["solve", "games/nim.game", "--piles", "3,x"]);
    assert!(
        cli.stderr.contains("--piles 3,x: `x` is not a whole number"),
        "{}",
        cli.stderr
    );
}

#[test]
fn a_name_that_is_no_file_and_no_bundled_game_is_refused() {
    let error = gdl::load("no-such-game", &[]).unwrap_err();
    assert!(matches!(error, LoadError::NotFound { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.starts_with("cannot read no-such-game: there is no such file"),
        "{message}"
    );
    assert!(
        message.contains("nim, nim-normal") && message.contains("tictactoe"),
        "{message}"
    );
    assert_eq!(error.exit_code(), 2);
    assert!(gdl::bundled_games().any(|name| name == "nim"));
}

#[test]
fn an_agent_is_seated_by_its_spec() {
    let game = gdl::load("nim", &[("piles", vec![1, 2].into())]).unwrap();
    let start = game.initial_state().unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&start, &mut moves).unwrap();
    let mut optimal = gdl::agent(&game, "optimal:first", 0).unwrap();
    let choice = optimal.choose(&game, &start, 0, &moves).unwrap();
    // The only winning move of misère [1, 2]: take both of the second pile.
    let mut after = start.clone();
    game.apply(&mut after, &choice.mv).unwrap();
    let solution = gdl::solve(&game, &after, &Default::default()).unwrap();
    assert_eq!(solution.value, 1.0, "{}", game.move_text(&choice.mv));
    let error = gdl::agent(&game, "minimax", 0).err().expect("no such agent");
    assert!(matches!(error, gdl::AgentBuildError::Spec(_)), "{error:?}");
}
