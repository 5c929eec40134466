//! Alpha-beta against the reference minimax: every variant must return the same value.

use game_core::testing::TicTacToe;
use game_core::{Evaluator, Game, mix64};
use games_connect4::Connect4;
use games_hex::Hex;
use games_othello::{Heuristic, Othello, Othello6};
use proptest::prelude::*;
use search::{Agent, AlphaBeta, AlphaBetaConfig, Budget, reference, score};

/// An arbitrary but fixed value per position: any mistake in pruning or in the table shows.
fn noise<G: Game>(position: &G) -> i32 {
    (mix64(position.position_hash()) % 2001) as i32 - 1000
}

/// A position reached by the random walk `choices` from `start`, stopped early at the end.
fn walk<G: Game>(start: &G, choices: &[usize]) -> G {
    let mut position = start.clone();
    for &c in choices {
        let actions = position.legal_actions_vec();
        if actions.is_empty() {
            break;
        }
        position.play(actions[c % actions.len()]);
    }
    position
}

/// Every variant of alpha-beta at every depth up to `max_depth` agrees with minimax; and
/// iterative deepening to depth `d` agrees with a fixed-depth search to `d`.
fn check<G: Game, E: Evaluator<G> + Copy>(
    position: &G,
    max_depth: u32,
    evaluator: E,
) -> Result<(), TestCaseError> {
    for depth in 1..=max_depth {
        let expected = reference::minimax(position, depth, &evaluator);
        prop_assert_eq!(
            reference::negamax(position, depth, &evaluator),
            expected,
            "negamax, depth {}",
            depth
        );
        prop_assert_eq!(
            reference::alphabeta(position, depth, &evaluator),
            expected,
            "alphabeta, depth {}",
            depth
        );
        for table_bytes in [0, 1 << 16] {
            for ordering in [false, true] {
                for pvs in [false, true] {
                    let config = AlphaBetaConfig {
                        max_depth: depth,
                        table_bytes,
                        ordering,
                        pvs,
                    };
                    let mut agent = AlphaBeta::with_config(config, evaluator);
                    prop_assert_eq!(agent.value(position, depth), expected, "{:?}", config);
                    if !position.status().is_over() {
                        let mut deepening = AlphaBeta::with_config(config, evaluator);
                        deepening.choose(position, &Budget::default());
                        let report = deepening.report().unwrap();
                        // A forced result may stop the deepening early; its value is final.
                        prop_assert!(report.depth == depth || score::is_decisive(expected));
                        prop_assert_eq!(report.score, Some(expected), "{:?}", config);
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tictactoe(choices in prop::collection::vec(any::<usize>(), 0..6)) {
        check(&walk(&TicTacToe::new(), &choices), 5, noise::<TicTacToe>)?;
    }

    #[test]
    fn connect4(choices in prop::collection::vec(any::<usize>(), 0..30)) {
        check(&walk(&Connect4::new(), &choices), 4, noise::<Connect4>)?;
    }

    #[test]
    fn othello_with_its_heuristic(choices in prop::collection::vec(any::<usize>(), 0..50)) {
        let h = Heuristic::new();
        check(&walk(&Othello::new(), &choices), 3, move |p: &Othello| h.evaluate(p))?;
        check(&walk(&Othello6::new(), &choices), 4, noise::<Othello6>)?;
    }

    #[test]
    fn hex(choices in prop::collection::vec(any::<usize>(), 0..20)) {
        check(&walk(&Hex::with_swap(4).unwrap(), &choices), 4, noise::<Hex>)?;
    }
}

#[test]
fn the_zero_evaluator_solves_tic_tac_toe_as_a_draw() {
    let mut agent = AlphaBeta::new(|_: &TicTacToe| 0);
    assert_eq!(agent.value(&TicTacToe::new(), 9), 0);
    agent.choose(&TicTacToe::new(), &Budget::default());
    assert_eq!(agent.report().unwrap().score, Some(0));
}

#[test]
fn wins_are_taken_quickly_and_losses_put_off() {
    // Black wins in one (column 4) but also later in many ways: the score says "win in one".
    let position: Connect4 = "414141".parse().unwrap();
    let mut agent = AlphaBeta::new(|_: &Connect4| 0);
    agent.set_depth(5);
    assert_eq!(
        agent.choose(&position, &Budget::default()),
        Some("4".parse().unwrap())
    );
    assert_eq!(agent.report().unwrap().score, Some(score::WIN - 1));
    // White, to move after Black's three, blocks; a position lost anyway is lost as late as
    // possible: the score of "lost in k" is -(WIN - k).
    let lost: TicTacToe = "xx.\no..\n...".parse().unwrap();
    let mut agent = AlphaBeta::new(|_: &TicTacToe| 0);
    agent.choose(&lost, &Budget::default());
    assert_eq!(agent.report().unwrap().score, Some(-(score::WIN - 4)));
}

#[test]
fn a_time_budget_is_honoured_with_an_answer() {
    // Deterministic: with no time at all, the search stops at its first look at the clock,
    // which comes after 1024 positions (depth 1 on Othello takes 5, so it is complete and the
    // answer is its best move).
    let mut agent = AlphaBeta::new(|_: &Othello| 0);
    let action = agent.choose(&Othello::new(), &Budget::time(std::time::Duration::ZERO));
    assert!(Othello::new().is_legal(action.unwrap()));
    let report = agent.report().unwrap();
    assert!(report.depth >= 1, "{report:?}");
    assert!(
        report.iterations <= 2 * 1024,
        "{} positions",
        report.iterations
    );
    // On the clock, with a margin for a loaded machine: a search that ignored its budget would
    // go on to depth 64 on Othello, far beyond 5 s.
    let clock = std::time::Instant::now();
    let action = agent.choose(
        &Othello::new(),
        &Budget::time(std::time::Duration::from_millis(50)),
    );
    assert!(Othello::new().is_legal(action.unwrap()));
    assert!(clock.elapsed() < std::time::Duration::from_secs(5));
}

/// Solving small Hex boards with the zero evaluator: the winning first moves are known. On
/// 3x3, the centre, the two obtuse corners and the two side cells next to the centre row; on
/// 4x4, exactly the short diagonal.
#[test]
fn solves_the_first_moves_of_small_hex_boards() {
    let black_wins = |size: u8, cell: &str| {
        let after = Hex::new(size).unwrap().after_moves(cell).unwrap();
        let mut solver = AlphaBeta::new(|_: &Hex| 0);
        solver.set_depth(u32::from(size).pow(2));
        solver.choose(&after, &Budget::default());
        let value = solver.report().unwrap().score.unwrap();
        assert!(score::is_decisive(value), "{cell}: {value}");
        value < 0 // White, to move, is lost
    };
    let winning: Vec<&str> = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
        .into_iter()
        .filter(|c| black_wins(3, c))
        .collect();
    assert_eq!(winning, ["c1", "a2", "b2", "c2", "a3"]);
    assert!(black_wins(4, "d1"));
    assert!(black_wins(4, "b3"));
    assert!(!black_wins(4, "a1"));
    assert!(!black_wins(4, "b2"));
}

#[test]
fn reference_agents_report_the_positions_they_evaluate() {
    // Depth 2 from the empty tic-tac-toe board: 9 * 8 positions, none of them finished.
    for name in ["minimax", "negamax"] {
        let spec: search::AgentSpec = format!("{name}:depth=2").parse().unwrap();
        let mut agent = spec.build::<TicTacToe>(1).unwrap();
        agent.choose(&TicTacToe::new(), &spec.budget());
        assert_eq!(agent.report().unwrap().iterations, 72, "{name}");
    }
}
