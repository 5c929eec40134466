//! The bitboard win detection against a depth-first search on a plain 2-D array written for
//! this test, on random partial and full boards of every size; and fill-and-check playouts
//! against the same stones played one by one.

use game_core::{Game, Outcome, Player, Status};
use games_hex::{Cell, Hex, Move};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::Grid;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Stones played one by one: after every move, the incremental win detection agrees with
    /// a fresh depth-first search of the whole board.
    #[test]
    fn play_detects_wins_like_a_depth_first_search(
        size in 1u32..=19,
        swap in any::<bool>(),
        choices in prop::collection::vec(any::<usize>(), 0..=361),
    ) {
        let mut hex = if swap { Hex::with_swap(size as u8) } else { Hex::new(size as u8) }.unwrap();
        for choice in choices {
            prop_assert_eq!(hex.status(), Grid::of(&hex).status(), "after {} plies\n{}", hex.plies(), hex);
            let actions = hex.legal_actions_vec();
            if actions.is_empty() {
                break;
            }
            hex.play(actions[choice % actions.len()]);
        }
        prop_assert_eq!(hex.status(), Grid::of(&hex).status());
    }

    /// A fill-and-check playout leaves a full board whose winner is the reported one, by
    /// depth-first search; and playing the same stones one by one, Black's and White's in
    /// turn, ends the game with the same winner.
    #[test]
    fn fill_and_check_agrees_with_playing_the_stones_one_by_one(
        size in 1u32..=19,
        opening in prop::collection::vec(any::<usize>(), 0..=20),
        seed in any::<u64>(),
    ) {
        let mut start = Hex::new(size as u8).unwrap();
        for choice in opening {
            let actions = start.legal_actions_vec();
            if actions.is_empty() {
                break;
            }
            start.play(actions[choice % actions.len()]);
        }
        prop_assume!(start.status() == Status::Ongoing);
        let mut filled = start.clone();
        let playout = filled.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let grid = Grid::of(&filled);
        prop_assert!(grid.cells.iter().all(Option::is_some), "the board is full");
        prop_assert_eq!(Status::Over(playout.outcome), grid.status());
        prop_assert_eq!(playout.plies as usize, grid.n * grid.n - start.plies() as usize);

        // Replay the filled cells in turn from the start position.
        let n = grid.n;
        let new_stones = |player: Player| -> Vec<Move> {
            (0..n * n)
                .map(|i| Cell::new((i % n) as u8, (i / n) as u8))
                .filter(|&c| start.at(c).is_none() && filled.at(c) == Some(player))
                .map(Move::Place)
                .collect()
        };
        let mover = start.to_move();
        let (mine, theirs) = (new_stones(mover), new_stones(mover.opponent()));
        prop_assert_eq!(mine.len(), theirs.len() + (n * n - start.plies() as usize) % 2);
        let mut replay = start.clone();
        for k in 0..mine.len() {
            for stone in [mine.get(k), theirs.get(k)].into_iter().flatten() {
                if replay.status().is_over() {
                    break;
                }
                replay.play(*stone);
            }
        }
        prop_assert_eq!(replay.status(), Status::Over(playout.outcome));
    }
}

/// Fill-and-check gives each player the winning chances of move-by-move uniform random play.
#[test]
fn fill_and_check_has_the_win_rate_of_move_by_move_random_play() {
    use rand::RngExt;
    const GAMES: u32 = 20_000;
    for size in [3u8, 5] {
        let black_rate = |fast: bool| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(fast) + 10 * u64::from(size));
            let mut black = 0;
            for _ in 0..GAMES {
                let mut hex = Hex::new(size).unwrap();
                let winner = if fast {
                    hex.random_playout(&mut rng).outcome
                } else {
                    loop {
                        if let Status::Over(outcome) = hex.status() {
                            break outcome;
                        }
                        let actions = hex.legal_actions_vec();
                        hex.play(actions[rng.random_range(0..actions.len())]);
                    }
                };
                black += u32::from(winner == Outcome::Win(Player::Black));
            }
            f64::from(black) / f64::from(GAMES)
        };
        let (fast, plain) = (black_rate(true), black_rate(false));
        // Four standard errors of the difference of two rates from 20,000 games each.
        assert!(
            (fast - plain).abs() < 0.02,
            "{size}x{size}: fill {fast}, move by move {plain}"
        );
    }
}
