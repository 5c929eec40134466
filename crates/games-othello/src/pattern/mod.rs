//! [`Patterns`]: the learned evaluation of Othello positions, in the style of Logistello,
//! Zebra, Edax and Egaroucid (written anew): a weight for each configuration of each of 11
//! patterns of squares, one set of weights per phase of the game, trained on self-play games
//! with exact endgames (`examples/othello_train.rs`, `docs/othello.md`).

mod features;
mod file;
pub mod train;

use std::sync::OnceLock;

use game_core::{Evaluator, Game};

pub(crate) use features::{FEATURES, PHASE_LEN};
pub use file::WeightsError;

use crate::Othello;
use crate::movegen::{self, Geometry};

/// The phases of the game, by discs on the board: 4 to 8 discs, 9 to 13, ..., 59 to 64.
pub const PHASES: usize = 12;

/// Evaluation units per disc: [`Patterns::evaluate`] returns the final disc difference it
/// expects, times this.
pub const UNIT: i32 = 32;

/// The weights the crate is built with (`weights/patterns.bin`, made by
/// `examples/othello_train.rs`).
static STANDARD: &[u8] = include_bytes!("../../weights/patterns.bin");

const GEOMETRY: Geometry = Othello::GEOMETRY;

/// The phase of a position with `discs` discs on the 8x8 board.
#[must_use]
pub fn phase(discs: u32) -> usize {
    (discs.saturating_sub(4) as usize / 5).min(PHASES - 1)
}

/// A learned evaluation of 8x8 Othello positions: the final disc difference that the player to
/// move can expect, as a sum of weights.
///
/// The features, in each of the board's eight symmetries (46 pattern instances in all):
///
/// | pattern | squares | instances |
/// |---|---|---|
/// | an edge with its two X-squares | 10 | 4 |
/// | a 3x3 corner | 9 | 4 |
/// | a 2x5 corner | 10 | 8 |
/// | the second, third and fourth rows and columns | 8 | 4 each |
/// | the diagonals of 8, 7, 6, 5 and 4 squares | 8 to 4 | 2, then 4 each |
///
/// Each instance's squares (empty, the mover's, the opponent's) make a base-3 index into its
/// pattern's table; mirrored configurations of a symmetric pattern share a weight. Three
/// more features: the mover's number of legal moves, the opponent's, and the parity of the
/// discs. There is one table per [`phase`] ([`PHASES`] of them, by discs on the board).
///
/// Evaluating a position reads 49 weights after transforming the board eight ways; it does
/// not allocate (`benches/knowledge.rs` measures it).
///
/// ```
/// use games_othello::{Othello, Patterns};
/// use game_core::Evaluator;
///
/// let position = Othello::new().after_moves("f5d6c3d3c4f4")?;
/// let value = Patterns::standard().evaluate(&position);
/// // Units of 1/32 disc, for the player to move: a small edge, this early.
/// assert!(value.abs() < 20 * games_othello::pattern::UNIT);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Patterns {
    /// `PHASES` tables of `PHASE_LEN` weights, in [`UNIT`]s, mirrored entries repeated.
    weights: Vec<i16>,
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.weights.iter().filter(|&&w| w != 0).count();
        f.debug_struct("Patterns")
            .field("phases", &PHASES)
            .field("nonzero_weights", &nonzero)
            .finish_non_exhaustive()
    }
}

impl Patterns {
    /// The evaluation the crate ships, trained by `examples/othello_train.rs` (loaded once, at
    /// the first call).
    ///
    /// # Panics
    ///
    /// Never in a released crate: the built-in file is checked by the crate's tests.
    #[must_use]
    pub fn standard() -> &'static Patterns {
        static LOADED: OnceLock<Patterns> = OnceLock::new();
        LOADED.get_or_init(|| {
            Patterns::from_bytes(STANDARD).expect("the built-in weights file is well formed")
        })
    }

    /// An evaluation whose weights are all zero (it scores every position 0 but the
    /// parity-free finished ones): where training starts.
    #[must_use]
    pub fn zero() -> Patterns {
        Patterns {
            weights: vec![0; PHASES * PHASE_LEN],
        }
    }

    /// The value of the position `me` (to move) against `them`, in [`UNIT`]s per disc, for
    /// `me`.
    #[inline]
    #[must_use]
    pub fn value(&self, me: u64, them: u64) -> i32 {
        let moves = movegen::moves(me, them, &GEOMETRY);
        self.value_with_moves(me, them, moves)
    }

    /// As [`value`](Patterns::value), given the mover's legal moves.
    #[inline]
    pub(crate) fn value_with_moves(&self, me: u64, them: u64, moves: u64) -> i32 {
        let replies = movegen::moves(them, me, &GEOMETRY);
        let table = &self.weights[phase((me | them).count_ones()) * PHASE_LEN..][..PHASE_LEN];
        let features = features::features(me, them, moves, replies);
        let sum: i32 = features.iter().map(|&f| i32::from(table[f as usize])).sum();
        sum.clamp(-64 * UNIT, 64 * UNIT)
    }
}

/// For the player to move, in [`UNIT`]s (32 per disc): its expected final disc difference.
impl Evaluator<Othello> for Patterns {
    fn evaluate(&self, position: &Othello) -> i32 {
        let mover = position.to_move();
        self.value(position.bits(mover), position.bits(mover.opponent()))
    }
}

impl Evaluator<Othello> for &Patterns {
    fn evaluate(&self, position: &Othello) -> i32 {
        (**self).evaluate(position)
    }
}

/// The layout of the weights: which indices of a phase's table are distinct weights (the
/// others are mirror images of one of them).
pub(crate) struct Layout {
    /// For each index of a phase's table, its weight among the distinct ones.
    pub(crate) packed: Vec<u32>,
    /// How many distinct weights a phase has.
    pub(crate) len: usize,
}

impl Layout {
    /// The layout of the pattern set (computed once).
    pub(crate) fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(|| {
            let canonical = features::canonical();
            let mut rank = vec![u32::MAX; PHASE_LEN];
            let mut len = 0u32;
            for (i, &c) in canonical.iter().enumerate() {
                if c as usize == i {
                    rank[i] = len;
                    len += 1;
                }
            }
            let packed = canonical.iter().map(|&c| rank[c as usize]).collect();
            Layout {
                packed,
                len: len as usize,
            }
        })
    }
}

/// The features of the position `me` (to move) against `them` as the trainer sees them: its
/// phase and, for each feature, its distinct weight within the phase (see [`Layout`]).
pub(crate) fn packed_features_of(me: u64, them: u64) -> (usize, [u32; FEATURES]) {
    let layout = Layout::get();
    let moves = movegen::moves(me, them, &GEOMETRY);
    let replies = movegen::moves(them, me, &GEOMETRY);
    let features = features::features(me, them, moves, replies);
    (
        phase((me | them).count_ones()),
        features.map(|f| layout.packed[f as usize]),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Weights drawn at random, mirrored entries alike, as a trained table has them.
    pub(crate) fn random_patterns(seed: u64) -> Patterns {
        let layout = Layout::get();
        let mut patterns = Patterns::zero();
        for (i, w) in patterns.weights.iter_mut().enumerate() {
            let (phase, index) = (i / PHASE_LEN, i % PHASE_LEN);
            let key = (phase * layout.len + layout.packed[index] as usize) as u64;
            *w = (game_core::mix64(key ^ seed) % 401) as i16 - 200;
        }
        patterns
    }

    #[test]
    fn the_built_in_weights_load() {
        let standard = Patterns::standard();
        assert_eq!(standard.weights.len(), PHASES * PHASE_LEN);
    }

    #[test]
    fn phases_cover_the_game() {
        assert_eq!(phase(4), 0);
        assert_eq!(phase(8), 0);
        assert_eq!(phase(9), 1);
        assert_eq!(phase(64), PHASES - 1);
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let patterns = random_patterns(11);
        for _ in 0..100 {
            let mut position = Othello::new();
            let plies = 10 + rng.next_u64() as u32 % 40;
            while position.plies() < plies && !position.status().is_over() {
                let action = position.random_action(&mut rng).unwrap();
                position.play(action);
            }
            let mover = position.to_move();
            let (me, them) = (position.bits(mover), position.bits(mover.opponent()));
            let value = patterns.value(me, them);
            let (mine, theirs) = (features::symmetries(me), features::symmetries(them));
            for s in 1..8 {
                assert_eq!(patterns.value(mine[s], theirs[s]), value, "symmetry {s}");
            }
        }
    }
}
