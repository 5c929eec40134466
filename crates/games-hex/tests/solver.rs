//! The exact solver against a brute-force reference and the published small-board results.

use std::collections::HashMap;

use game_core::{Game, Player};
use games_hex::{Hex, Move, SolveError, Solver};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::random_position;

/// Whether the player to move wins: plain minimax over every legal move, with a table keyed by
/// the drawn board (the side to move follows from the number of plies). Knows nothing of Hex.
fn reference_wins(position: &Hex, memo: &mut HashMap<String, bool>) -> bool {
    let key = format!("{} {position}", position.plies());
    if let Some(&wins) = memo.get(&key) {
        return wins;
    }
    let wins = position.legal_actions_vec().into_iter().any(|action| {
        let next = position.after(action);
        // A move can only win the game for the player who makes it.
        next.status().is_over() || !reference_wins(&next, memo)
    });
    memo.insert(key, wins);
    wins
}

fn reference_winner(position: &Hex, memo: &mut HashMap<String, bool>) -> Player {
    let mover = position.to_move();
    if reference_wins(position, memo) {
        mover
    } else {
        mover.opponent()
    }
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

#[test]
fn black_wins_3x3_from_five_cells_and_4x4_from_the_short_diagonal() {
    let mut solver = Solver::with_table_bytes(1 << 20);
    let winning_first_moves = |solver: &mut Solver, size| {
        let start = Hex::new(size as u8).unwrap();
        // The first moves after which White, to move, loses.
        let mut wins: Vec<String> = start
            .legal_actions_vec()
            .into_iter()
            .filter(|&first| solver.winner(&start.after(first)) == Player::Black)
            .map(|first| first.to_string())
            .collect();
        wins.sort();
        wins
    };
    // The known results (4x4: the short diagonal, as surveyed by Hayward and van Rijswijck,
    // "Hex and combinatorics", 2006), which `hex_solve --method alphabeta` also finds.
    assert_eq!(
        winning_first_moves(&mut solver, 3),
        ["a2", "a3", "b2", "c1", "c2"]
    );
    assert_eq!(
        winning_first_moves(&mut solver, 4),
        ["a4", "b3", "c2", "d1"]
    );
    // And the same results as `winning_moves` on the empty board.
    let mut moves = names(&solver.winning_moves(&Hex::new(4).unwrap()));
    moves.sort();
    assert_eq!(moves, ["a4", "b3", "c2", "d1"]);
}

#[test]
fn with_the_swap_rule_the_second_player_wins_every_opening() {
    // Strategy stealing: if the first move wins, White swaps and owns it; if not, White plays
    // on. So every opening loses for Black once the swap is allowed.
    let mut solver = Solver::with_table_bytes(1 << 20);
    for size in [2, 3, 4] {
        let start = Hex::with_swap(size as u8).unwrap();
        for first in start.legal_actions_vec() {
            let after = start.after(first);
            assert_eq!(
                solver.winner(&after),
                Player::White,
                "{size}x{size} {first}"
            );
            // The swap is White's winning move exactly when the opening wins without it.
            let swap_wins = solver.winning_moves(&after).contains(&Move::Swap);
            let opening_wins =
                solver.winner(&Hex::new(size as u8).unwrap().after(first)) == Player::Black;
            assert_eq!(swap_wins, opening_wins, "{size}x{size} {first}");
        }
    }
}

#[test]
fn agrees_with_brute_force_on_random_positions_of_every_board_width() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut solver = Solver::with_table_bytes(1 << 22);
    // 5x5 and 7x7 fit one word per bitboard, 11x11 two, 19x19 six.
    for (size, empty, count) in [
        (3, 9, 1),
        (4, 11, 20),
        (5, 11, 40),
        (7, 10, 20),
        (11, 9, 10),
        (19, 8, 5),
    ] {
        for _ in 0..count {
            let position = random_position(size, empty, &mut rng);
            let memo = &mut HashMap::new();
            let expected = reference_winner(&position, memo);
            assert_eq!(solver.winner(&position), expected, "\n{position}");
            // Every move `winning_moves` names wins by the reference, and every other loses.
            let winning = solver.winning_moves(&position);
            for action in position.legal_actions_vec() {
                let next = position.after(action);
                let wins =
                    next.status().is_over() || reference_winner(&next, memo) == position.to_move();
                assert_eq!(winning.contains(&action), wins, "{action} in\n{position}");
            }
        }
    }
}

#[test]
fn answers_finished_games_and_a_tiny_table() {
    // Black has connected: White, to move, has lost and has no winning move.
    let over = Hex::new(2).unwrap().after_moves("a1 b1 a2").unwrap();
    assert!(over.status().is_over());
    let mut solver = Solver::with_table_bytes(0);
    assert_eq!(solver.winner(&over), Player::Black);
    assert!(solver.winning_moves(&over).is_empty());
    assert_eq!(solver.best_move(&over), Err(SolveError::GameOver));
    // A one-entry table still gives exact answers, only slower.
    let start = Hex::new(3).unwrap();
    assert_eq!(solver.winner(&start), Player::Black);
    assert!(solver.nodes() > 0);
    // `clear` empties the table and the count.
    solver.clear();
    assert_eq!(solver.nodes(), 0);
    assert_eq!(
        solver.winner(&start.after_moves("a1").unwrap()),
        Player::White
    );
    assert!(solver.nodes() > 0);
}

/// The best move is the first winning move with score 1, or, in a lost position, the first
/// legal move with score -1: on every position of 3x3 after one or two stones.
#[test]
fn the_best_move_is_the_first_winning_one_or_admits_the_loss() {
    let mut solver = Solver::with_table_bytes(1 << 20);
    let start = Hex::new(3).unwrap();
    let mut positions = vec![start.clone()];
    for first in start.legal_actions_vec() {
        let after = start.after(first);
        positions.extend(
            after
                .legal_actions_vec()
                .into_iter()
                .map(|m| after.after(m)),
        );
        positions.push(after);
    }
    for position in positions.iter().filter(|p| !p.status().is_over()) {
        let winning = solver.winning_moves(position);
        let expected = match winning.first() {
            Some(&best) => (best, 1),
            None => (position.legal_actions_vec()[0], -1),
        };
        assert_eq!(solver.best_move(position), Ok(expected), "{position}");
    }
}

/// The size rule for the tools: this solver up to 5x5, df-pn beyond; and it does solve every
/// size it handles, at least from the empty board of the smallest ones here.
#[test]
fn the_solver_handles_boards_up_to_5x5() {
    assert!(!Solver::handles(0));
    for size in 1..=5 {
        assert!(Solver::handles(size), "{size}x{size}");
    }
    for size in 6..=games_hex::MAX_SIDE {
        assert!(!Solver::handles(size), "{size}x{size}");
    }
    let mut solver = Solver::with_table_bytes(1 << 20);
    for size in (1..=4).filter(|&s| Solver::handles(s)) {
        // The first player wins every empty board (the strategy-stealing argument).
        assert_eq!(solver.winner(&Hex::new(size).unwrap()), Player::Black);
    }
}
