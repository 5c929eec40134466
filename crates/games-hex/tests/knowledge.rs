//! Hex's knowledge: the bridge-saving playout policy against a reference written from the
//! definition (a cell saves a bridge when both cells it shares with the intruding stone belong
//! to the mover), and through the conformance kit.

use game_core::testing::Conformance;
use game_core::{
    Game, Player,
    knowledge::{PlayoutPolicy, Prior},
};
use games_hex::patterns::{LocalShape, Near, Patterns};
use games_hex::{Bridges, Cell, Hex, Move, Shape};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::Grid;

const OFFSETS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// Whether `(x, y)`, on the board or just beyond it, belongs to `player`: its stone, or its
/// edge (Black beyond the first and last rows, White beyond the first and last columns).
fn owns(hex: &Hex, player: Player, x: i32, y: i32) -> bool {
    let n = i32::from(hex.size());
    let inside = |v: i32| (0..n).contains(&v);
    match (inside(x), inside(y)) {
        (true, true) => hex.at(Cell::new(x as u8, y as u8)) == Some(player),
        (true, false) => player == Player::Black,
        (false, true) => player == Player::White,
        (false, false) => false,
    }
}

/// The cells that save one of the mover's bridges broken by the stone on `last`: empty
/// neighbours of `last` whose two common neighbours with it are the mover's.
fn saving_cells(hex: &Hex, last: Cell) -> Vec<Cell> {
    let n = i32::from(hex.size());
    let mover = hex.to_move();
    let (cx, cy) = (i32::from(last.column()), i32::from(last.row()));
    let neighbours = |x: i32, y: i32| OFFSETS.map(|(dx, dy)| (x + dx, y + dy));
    neighbours(cx, cy)
        .into_iter()
        .filter(|&(x, y)| (0..n).contains(&x) && (0..n).contains(&y))
        .filter(|&(x, y)| hex.at(Cell::new(x as u8, y as u8)).is_none())
        .filter(|&(x, y)| {
            let around_m = neighbours(x, y);
            let common: Vec<_> = neighbours(cx, cy)
                .into_iter()
                .filter(|c| around_m.contains(c))
                .collect();
            common.len() == 2 && common.iter().all(|&(a, b)| owns(hex, mover, a, b))
        })
        .map(|(x, y)| Cell::new(x as u8, y as u8))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// On the positions of random games, the policy saves a broken bridge exactly when the
    /// reference finds one, with one of the cells it finds.
    #[test]
    fn the_policy_saves_exactly_the_bridges_the_definition_finds(size in 2u32..=13, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Hex::new(size as u8).unwrap();
        let policy = Bridges::default();
        let mut last = None;
        while !position.status().is_over() {
            if let Some(last) = last {
                let saving = saving_cells(&position, last);
                let chosen = policy.action(&position, &mut rng);
                match chosen {
                    Move::Place(cell) if !saving.is_empty() => prop_assert!(saving.contains(&cell), "{position}\nlast {last}: {cell} not in {saving:?}"),
                    _ => prop_assert!(saving.is_empty() || matches!(chosen, Move::Swap), "{position}\nlast {last}: {chosen} misses {saving:?}"),
                }
            }
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
            last = match action {
                Move::Place(cell) => Some(cell),
                Move::Swap => None,
            };
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// A playout with the fill-in of inferior cells first (or with local moves, or drawn by
    /// pattern weight) ends on a full board whose winner,
    /// by a depth-first search, is the one it reports, and keeps every stone it started with.
    #[test]
    fn playouts_with_fill_in_report_the_winner_of_their_full_board(size in 1u32..=13, plies in 0u32..60, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Hex::new(size as u8).unwrap();
        while position.plies() < plies.min(size * size) && !position.status().is_over() {
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
        }
        prop_assume!(!position.status().is_over());
        let policy = match seed % 3 {
            0 => Bridges { fill_in: true, ..Bridges::default() },
            1 => Bridges { local: 0.5, ..Bridges::default() },
            _ => Bridges { weighted: Some(1.0), fill_in: seed % 2 == 0, ..Bridges::default() },
        };
        let mut played = position.clone();
        let playout = policy.play_out(&mut played, &mut rng);
        let grid = Grid::of(&played);
        prop_assert!(grid.cells.iter().all(Option::is_some), "the board is full");
        prop_assert_eq!(played.status(), grid.status());
        prop_assert_eq!(game_core::Status::Over(playout.outcome), grid.status());
        let n = grid.n;
        for i in 0..n * n {
            let cell = Cell::new((i % n) as u8, (i / n) as u8);
            if let Some(stone) = position.at(cell) {
                prop_assert_eq!(played.at(cell), Some(stone));
            }
        }
    }
}

/// The empty cells next to `last` or a bridge away from it, each with its learned pattern
/// weight for the player to move: the reference for the policy's local moves, from the public
/// `Hex::local_shape` (which reads the bitboards) rather than the playout's cell colours.
fn local_weights(hex: &Hex, last: Cell) -> Vec<(Cell, f32)> {
    let n = i32::from(hex.size());
    let (cx, cy) = (i32::from(last.column()), i32::from(last.row()));
    let bridges = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)];
    OFFSETS
        .iter()
        .chain(&bridges)
        .map(|(dx, dy)| (cx + dx, cy + dy))
        .filter(|&(x, y)| (0..n).contains(&x) && (0..n).contains(&y))
        .filter_map(|(x, y)| {
            let cell = Cell::new(x as u8, y as u8);
            hex.local_shape(cell)
                .map(|shape| (cell, Patterns::learned().weight(shape)))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, failure_persistence: None, ..ProptestConfig::default() })]

    /// With local moves always on, a move that saves no bridge is one of the empty cells around
    /// the last stone whenever there is one.
    #[test]
    fn local_moves_stay_around_the_last_stone(size in 2u32..=13, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Hex::new(size as u8).unwrap();
        // Ziggurats off: an answer to an intrusion into one can lie further away.
        let policy = Bridges { local: 1.0, ziggurats: false, ..Bridges::default() };
        let mut last = None;
        while !position.status().is_over() {
            if let Some(last) = last
                && saving_cells(&position, last).is_empty()
            {
                let around = local_weights(&position, last);
                let chosen = policy.action(&position, &mut rng);
                if !around.is_empty() {
                    prop_assert!(around.iter().any(|&(c, _)| Move::Place(c) == chosen), "{position}\nlast {last}: {chosen} not around it");
                }
            }
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
            last = match action {
                Move::Place(cell) => Some(cell),
                Move::Swap => None,
            };
        }
    }
}

/// Draws `draws` moves of `policy` at `position` and checks that each of `cells` comes up in
/// proportion to its weight (within five standard deviations of a binomial count), that no
/// other move comes up, and that the weights spread by more than `spread` (the draw is not
/// uniform).
fn assert_drawn_by_weight(
    policy: &Bridges,
    position: &Hex,
    cells: &[(Cell, f64)],
    draws: u32,
    spread: f64,
) {
    let total: f64 = cells.iter().map(|&(_, w)| w).sum();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut counts = vec![0u32; cells.len()];
    for _ in 0..draws {
        let Move::Place(cell) = policy.action(position, &mut rng) else {
            panic!("a cell")
        };
        let k = cells.iter().position(|&(c, _)| c == cell);
        counts[k.unwrap_or_else(|| panic!("{cell} is not among {cells:?}"))] += 1;
    }
    for (&(cell, weight), &count) in cells.iter().zip(&counts) {
        let expected = weight / total * f64::from(draws);
        let sd = (expected * (1.0 - expected / f64::from(draws))).sqrt();
        assert!(
            (f64::from(count) - expected).abs() <= 5.0 * sd + 1.0,
            "{cell}: {count} draws, {expected:.0} expected"
        );
    }
    let (lo, hi) = cells.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &(_, w)| {
        (lo.min(w), hi.max(w))
    });
    assert!(hi > spread * lo, "{cells:?}");
}

/// 9x9 mid-game, White just played f4 and breaks no bridge of Black's.
fn after_f4() -> Hex {
    let position = Hex::new(9)
        .unwrap()
        .after_moves("e5 d6 c7 e4 d4 f4")
        .unwrap();
    assert!(saving_cells(&position, "f4".parse().unwrap()).is_empty());
    position
}

#[test]
fn local_moves_are_drawn_by_their_pattern_weights() {
    // Black's local moves are drawn in proportion to their learned weights (the reference
    // reads them through the public API).
    let position = after_f4();
    let around: Vec<(Cell, f64)> = local_weights(&position, "f4".parse().unwrap())
        .into_iter()
        .map(|(cell, w)| (cell, f64::from(w)))
        .collect();
    let policy = Bridges {
        local: 1.0,
        ..Bridges::default()
    };
    assert_drawn_by_weight(&policy, &position, &around, 40_000, 2.0);
}

#[test]
fn weighted_moves_are_drawn_by_capped_and_local_pattern_weights() {
    // With `weighted`, every empty cell may be drawn, in proportion to its pattern's weight
    // (the six neighbours read, the cells a bridge away as if empty: the code's low six
    // digits; the shape as if far from the last stone) capped at `cap`, plus, around f4,
    // what the closeness adds uncapped.
    let position = after_f4();
    let patterns = Patterns::learned();
    let cap = 1.0;
    let cells: Vec<(Cell, f64)> = (0..81)
        .map(|i| Cell::new(i % 9, i / 9))
        .filter_map(|cell| {
            let shape = position.local_shape(cell)?;
            let shape = LocalShape {
                pattern: shape.pattern % 729,
                ..shape
            };
            let near = patterns.weight(shape);
            let far = patterns.weight(LocalShape {
                near: Near::Far,
                ..shape
            });
            Some((cell, f64::from(far.min(cap) + (near - far))))
        })
        .collect();
    assert_eq!(cells.len(), 75);
    let policy = Bridges {
        weighted: Some(cap),
        ..Bridges::default()
    };
    assert_drawn_by_weight(&policy, &position, &cells, 200_000, 5.0);
}

#[test]
fn weighted_moves_follow_the_table_the_policy_is_given() {
    // A table of its own (as `Patterns::balance` fits one): every pattern weighs 1 and a cell
    // next to the last stone 50 times as much, so the four empty neighbours of f4 (e4 and e5
    // are taken) weigh 50, every other empty cell 1.
    let table: &'static Patterns =
        Box::leak(Box::new(Patterns::from_text("near adjacent 50\n").unwrap()));
    let position = after_f4();
    let cells: Vec<(Cell, f64)> = (0..81)
        .map(|i| Cell::new(i % 9, i / 9))
        .filter_map(|cell| {
            let shape = position.local_shape(cell)?;
            Some((
                cell,
                if shape.near == Near::Adjacent {
                    50.0
                } else {
                    1.0
                },
            ))
        })
        .collect();
    assert_eq!(cells.iter().filter(|(_, w)| *w > 1.0).count(), 4);
    let policy = Bridges {
        weighted: Some(f32::MAX),
        patterns: table,
        ..Bridges::default()
    };
    assert_drawn_by_weight(&policy, &position, &cells, 200_000, 5.0);
}

/// [`Shape`]'s weights without its `examine` (H-search, tens of milliseconds a position on
/// 19x19 in a test build), for the kit's many positions of large boards.
struct WeighOnly(Shape);

impl Prior<Hex> for WeighOnly {
    fn weigh(&self, position: &Hex, actions: &[Move], weights: &mut Vec<f32>) {
        self.0.weigh(position, actions, weights);
    }
}

#[test]
fn the_knowledge_passes_the_kit() {
    let knowledge = games_hex::knowledge();
    let filling = game_core::knowledge::Knowledge::NONE.with_policy(Bridges {
        fill_in: true,
        ..Bridges::default()
    });
    let weighing = knowledge.with_prior(WeighOnly(Shape::default()));
    // The whole knowledge, examine included, on the smaller boards; the weights and the
    // playouts on every board.
    for (hex, cases) in [(Hex::with_swap(9).unwrap(), 12), (Hex::new(7).unwrap(), 24)] {
        Conformance::new()
            .cases(cases)
            .check_knowledge(&hex, &knowledge)
            .unwrap();
    }
    for hex in [
        Hex::new(11).unwrap(),
        Hex::with_swap(9).unwrap(),
        Hex::new(19).unwrap(),
        Hex::new(1).unwrap(),
    ] {
        Conformance::new()
            .cases(32)
            .check_knowledge(&hex, &weighing)
            .unwrap();
        Conformance::new()
            .cases(32)
            .check_knowledge(&hex, &filling)
            .unwrap();
    }
}

#[test]
fn playouts_that_save_bridges_keep_a_chain_of_bridges_connected() {
    // Black's d2, c4 and b6 on 7x7: an edge template to the top (d1, e1), bridges over c3-d3
    // and b5-c5, an edge template to the bottom (a7, b7). White to move. Saving every broken
    // bridge, Black wins every playout; playing at random, it loses some.
    let position = Hex::new(7).unwrap().after_moves("d2 g1 c4 g2 b6").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut black_wins = |policy: Bridges| {
        (0..2_000)
            .filter(|_| {
                let mut p = position.clone();
                policy.play_out(&mut p, &mut rng).outcome == game_core::Outcome::Win(Player::Black)
            })
            .count()
    };
    let saved = black_wins(Bridges {
        reply: 1.0,
        ..Bridges::default()
    });
    let random = black_wins(Bridges {
        reply: 0.0,
        ..Bridges::default()
    });
    // Not always 100%: a stone can break two bridges at once (b5 breaks c4-b6 and, with a
    // black a5, c4-a5), and the policy saves one.
    assert!(saved >= 1_960, "{saved}");
    assert!(random < 1_800, "{random}");
    // The move-by-move policy agrees: after White breaks into the c3-d3 bridge, Black saves it.
    let broken = position.after_moves("d3").unwrap();
    let policy = Bridges::default();
    assert_eq!(policy.action(&broken, &mut rng), "c3".parse().unwrap());
}

#[test]
fn playouts_that_keep_ziggurats_connect_a_third_row_stone_to_both_edges() {
    // A lone stone in the middle of 5x5 has one ziggurat towards each of its edges, and the
    // two carriers are apart: Black's c3 (b3 b2 c2 d2 b1 c1 d1 e1 up, d3 d4 c4 b4 d5 c5 b5 a5
    // down), White to move after a1; White's c3 (c2 b2 b3 b4 a2 a3 a4 a5 left, c4 d4 d3 d2
    // e4 e3 e2 e1 right), Black to move after c1 and c5. Keeping the ziggurats, the stone's
    // owner wins nearly every playout; saving bridges only, far fewer.
    for (moves, owner) in [("c3 a1", Player::Black), ("c1 c3 c5", Player::White)] {
        let position = Hex::new(5).unwrap().after_moves(moves).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut wins = |policy: Bridges| {
            (0..2_000)
                .filter(|_| {
                    let mut p = position.clone();
                    policy.play_out(&mut p, &mut rng).outcome == game_core::Outcome::Win(owner)
                })
                .count()
        };
        let kept = wins(Bridges::default());
        let bridges_only = wins(Bridges {
            ziggurats: false,
            ..Bridges::default()
        });
        assert!(kept >= 1_900, "{moves}: {kept}");
        assert!(bridges_only < 1_600, "{moves}: {bridges_only}");
    }
    // The move-by-move policy agrees: after White's d1 (breaking into the top ziggurat where
    // its two ways to the second row meet) Black answers b2, a bridge over b3 and c2 with b1
    // and c1 below.
    let broken = Hex::new(5).unwrap().after_moves("c3 d1").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    assert_eq!(
        Bridges::default().action(&broken, &mut rng),
        "b2".parse().unwrap()
    );
}

#[test]
fn the_hand_set_prior_likes_bridges_and_contact_and_dislikes_the_empty_edge() {
    use game_core::knowledge::Prior;
    // Black's d2 and White's g1 on 7x7, Black to move.
    let position = Hex::new(7).unwrap().after_moves("d2 g1").unwrap();
    let cells = ["c4", "e3", "d3", "f2", "a7", "d5"];
    let actions: Vec<Move> = cells.iter().map(|c| c.parse().unwrap()).collect();
    let mut weights = Vec::new();
    let hand_set = Shape {
        learned: false,
        ..Shape::default()
    };
    hand_set.weigh(&position, &actions, &mut weights);
    // A bridge from d2 (c4, e3), next to d2 (d3), next to White's g1 (f2), an empty corner
    // (a7), and nothing near (d5).
    assert_eq!(weights, [2.5, 2.5, 2.0, 2.0, 0.5, 1.0]);
}
