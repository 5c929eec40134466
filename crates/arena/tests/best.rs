//! `best` finds the only winning or saving move in positions where plain UCT, with the same
//! iterations, does not. The positions come from the public Connect Four test set
//! Middle-Easy (`Test_L2_R1`), from a random Othello game 13 empties from the end and from
//! random Hex games on 5x5 and 7x7; each move's value is computed here by an exact search, not
//! written down.

use arena::TextGame;
use game_core::{Game, Outcome, Status};
use games_connect4::{Connect4, Solver};
use games_hex::{Hex, Solver as HexSolver};
use games_othello::Othello;
use search::{Agent, AgentSpec, AlphaBeta, AlphaBetaConfig, Budget};

/// How many of seeds 0 to 4 the agent of `spec` plays `expected` with in `position`.
fn hits<G: TextGame>(spec: &str, position: &G, expected: G::Action) -> usize {
    let spec: AgentSpec = spec.parse().unwrap();
    (0..5)
        .filter(|&seed| {
            let mut agent = G::agent(&spec, seed).unwrap();
            agent.choose(position, &spec.budget()) == Some(expected)
        })
        .count()
}

/// The only move of `position` with the best exact score, by the Connect Four solver.
fn only_best_connect4_move(position: &Connect4) -> games_connect4::Column {
    let mut solver = Solver::new();
    let scores: Vec<_> = position
        .legal_actions_vec()
        .into_iter()
        .map(|action| {
            let after = position.after(action);
            let score = match after.status() {
                Status::Over(_) => 100,
                Status::Ongoing => -solver.score(&after, false).unwrap(),
            };
            (action, score)
        })
        .collect();
    let best = scores.iter().map(|s| s.1).max().unwrap();
    let optimal: Vec<_> = scores.iter().filter(|s| s.1 == best).collect();
    assert_eq!(optimal.len(), 1, "one best move in\n{position}");
    optimal[0].0
}

#[test]
fn best_finds_the_only_winning_connect_four_move_that_plain_uct_misses() {
    for moves in ["5127773675347376151", "2541731227572364"] {
        let position: Connect4 = moves.parse().unwrap();
        let winning = only_best_connect4_move(&position);
        assert_eq!(
            hits("best:iterations=2000", &position, winning),
            5,
            "{moves}"
        );
        assert_eq!(
            hits("uct:iterations=2000", &position, winning),
            0,
            "{moves}"
        );
    }
}

/// The exact result for the player to move, by alpha-beta to the end.
fn othello_result(position: &Othello) -> i32 {
    match position.status() {
        Status::Over(Outcome::Draw) => 0,
        Status::Over(Outcome::Win(winner)) if winner == position.to_move() => 1,
        Status::Over(Outcome::Win(_)) => -1,
        Status::Ongoing => {
            let config = AlphaBetaConfig {
                max_depth: 64,
                ..AlphaBetaConfig::default()
            };
            let mut exact = AlphaBeta::with_config(config, |_: &Othello| 0);
            exact.choose(position, &Budget::default());
            exact.report().unwrap().score.unwrap().signum()
        }
    }
}

#[test]
fn best_finds_the_only_winning_othello_move_that_plain_uct_mostly_misses() {
    let position: Othello = "--OOOOO---OOOOO-OOOXOXO-OOOOOXO-O-OOOOXXOXOXOXXXOOOOXXXXOOO-X--X X"
        .parse()
        .unwrap();
    let winning: Vec<_> = position
        .legal_actions_vec()
        .into_iter()
        .filter(|&action| -othello_result(&position.after(action)) == 1)
        .collect();
    assert_eq!(winning.len(), 1, "one winning move");
    assert_eq!(hits("best:iterations=300", &position, winning[0]), 5);
    assert!(hits("uct:iterations=300", &position, winning[0]) <= 1);
}

#[test]
fn best_finds_the_only_winning_hex_move_that_plain_uct_misses() {
    // Positions of random games on 5x5 and 7x7, 12 to 18 empty cells left, with one winning
    // move for the player to move, by the exact solver.
    for (size, moves) in [
        (5, "b1 a1 e4 a5 a3 d5 c3 c2 d1"),
        (5, "a4 c3 c4 a3 b2 a2 c1 b3 e4 a1 b4 d5"),
        (
            7,
            "a4 g2 c4 b1 e2 a1 b3 b4 b2 g7 d2 b5 a3 e3 e7 e1 f6 e6 a5 c7 d1 d6 c1 e5 f7 d7 c5 \
             d3 g4 c6 f4 g5 e4 a2 f1",
        ),
        (
            7,
            "d4 d7 c1 f6 c4 e1 b2 e5 f2 d2 f7 g4 f1 e6 a6 c3 a2 b5 f3 d1 f5 d6 a5 a7 b7 d3 e7 \
             a4 a1 e2 c7",
        ),
    ] {
        let position = Hex::new(size).unwrap().after_moves(moves).unwrap();
        let winning = HexSolver::with_table_bytes(1 << 22).winning_moves(&position);
        assert_eq!(winning.len(), 1, "one winning move in\n{position}");
        assert_eq!(
            hits("best:iterations=1000", &position, winning[0]),
            5,
            "{moves}"
        );
        assert!(
            hits("uct:iterations=1000", &position, winning[0]) <= 1,
            "{moves}"
        );
    }
}

/// `best:book=true` on 9x9 Hex plays the shipped opening book's moves at once while the game
/// is in it (along the book's own line from the empty board, and after edge openings), then
/// searches; `book=false` searches from the first move.
#[test]
fn best_plays_the_hex_book_then_searches() {
    let book = games_hex::Book::standard(9).expect("the 9x9 book");
    let spec: AgentSpec = "best:iterations=300,book=true".parse().unwrap();
    for start in ["", "a1", "e1"] {
        let mut position = Hex::new(9).unwrap().after_moves(start).unwrap();
        let mut agent = Hex::agent(&spec, 1).unwrap();
        let mut from_book = 0;
        loop {
            let action = agent.choose(&position, &spec.budget()).unwrap();
            let report = agent.report().unwrap();
            match book.best(&position) {
                Some(expected) => {
                    assert_eq!(
                        action, expected,
                        "after {start:?} and {from_book} book moves"
                    );
                    assert!(report.book && report.iterations == 0);
                    from_book += 1;
                }
                None => {
                    assert!(!report.book && report.iterations > 0);
                    break;
                }
            }
            agent.played(&position, action);
            position.play(action);
        }
        assert!(from_book >= 2, "{start:?}: {from_book} book moves");
    }
    let plain: AgentSpec = "best:iterations=300,book=false".parse().unwrap();
    let mut agent = Hex::agent(&plain, 1).unwrap();
    agent
        .choose(&Hex::new(9).unwrap(), &plain.budget())
        .unwrap();
    assert!(!agent.report().unwrap().book);
}
