//! What Othello knows, for Monte-Carlo search: a prior and a leaf evaluation from the
//! [`Heuristic`], and playouts that take corners. [`knowledge`] bundles them.

use game_core::{
    Evaluator, Game, Outcome, Status,
    knowledge::{Knowledge, PlayoutPolicy, Prior},
};
use rand::{Rng, RngExt};

use crate::board::{OthelloBoard, nth_bit};
use crate::heuristic::Heuristic;
use crate::notation::{Move, Square};

/// The heuristic's value that means a 73% chance of winning for the player to move in
/// [`knowledge`]'s evaluation: about a corner's worth (500) or a dozen moves of mobility.
pub const SCALE: f32 = 500.0;

/// Othello's knowledge: [`HeuristicPrior`] as the prior, [`Corners`] as the playout policy and
/// the [`Heuristic`] as the evaluator (its value `SCALE` a 73% chance of winning).
///
/// ```
/// use game_core::{Evaluator, Game, knowledge::Guide};
/// use games_othello::{Heuristic, Othello};
///
/// let knowledge = games_othello::knowledge();
/// let position = Othello::new().after_moves("f5 d6 c3")?;
/// let actions = position.legal_actions_vec();
/// let mut weights = Vec::new();
/// knowledge.weigh(&position, &actions, &mut weights);
/// // The move the heuristic likes best weighs most (1, the others less).
/// let value = |i: usize| -Heuristic::default().evaluate(&position.after(actions[i]));
/// let best = (0..actions.len()).max_by_key(|&i| value(i)).unwrap();
/// assert_eq!(weights[best], 1.0);
/// assert!(weights.iter().all(|&w| w > 0.0 && w <= 1.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn knowledge() -> Knowledge<HeuristicPrior, Corners, Heuristic> {
    Knowledge::NONE
        .with_prior(HeuristicPrior::default())
        .with_policy(Corners)
        .with_evaluator(Heuristic::default(), SCALE)
}

/// A prior from the [`Heuristic`]: each move weighs `exp(v / temperature)`, `v` the heuristic's
/// value of the position after it for the player who moves (a move that wins the game at once
/// counts as the best possible, one that loses as the worst).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HeuristicPrior {
    /// The evaluator.
    pub heuristic: Heuristic,
    /// How much a difference in value counts: 250 makes a corner (500) worth e² ≈ 7.4 times
    /// an ordinary square.
    pub temperature: i32,
}

impl Default for HeuristicPrior {
    fn default() -> Self {
        HeuristicPrior {
            heuristic: Heuristic::default(),
            temperature: 250,
        }
    }
}

impl<const N: usize> Prior<OthelloBoard<N>> for HeuristicPrior {
    fn weigh(&self, position: &OthelloBoard<N>, actions: &[Move], weights: &mut Vec<f32>) {
        let start = weights.len();
        let mover = position.to_move();
        weights.extend(actions.iter().map(|&action| {
            let after = position.after(action);
            let value = match after.status() {
                Status::Over(Outcome::Win(winner)) if winner == mover => 100_000,
                Status::Over(Outcome::Win(_)) => -100_000,
                Status::Over(Outcome::Draw) => 0,
                Status::Ongoing => -self.heuristic.evaluate(&after),
            };
            value as f32
        }));
        let values = &mut weights[start..];
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let temperature = self.temperature.max(1) as f32;
        for value in values {
            *value = ((*value - best) / temperature).exp();
        }
    }
}

/// A playout policy that knows the corners: take a corner when one can be taken; otherwise a
/// uniformly random move among those that are not an X-square (diagonally next to an empty
/// corner, which hands the corner over), or among all moves when every one is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Corners;

impl Corners {
    /// The corners of an `n`x`n` board, and the X-square of each, as bitboards.
    const fn squares(n: u8) -> ([u64; 4], [u64; 4]) {
        let last = n - 1;
        (
            [
                Square::new(0, 0).bit(),
                Square::new(last, 0).bit(),
                Square::new(0, last).bit(),
                Square::new(last, last).bit(),
            ],
            [
                Square::new(1, 1).bit(),
                Square::new(last - 1, 1).bit(),
                Square::new(1, last - 1).bit(),
                Square::new(last - 1, last - 1).bit(),
            ],
        )
    }
}

impl<const N: usize> PlayoutPolicy<OthelloBoard<N>> for Corners {
    fn action<R: Rng + ?Sized>(&self, position: &OthelloBoard<N>, rng: &mut R) -> Move {
        let moves = position.mobility();
        if moves == 0 {
            return Move::Pass;
        }
        let (corners, x_squares) = Self::squares(N as u8);
        let all_corners = corners.iter().fold(0, |all, c| all | c);
        let occupied =
            position.bits(game_core::Player::Black) | position.bits(game_core::Player::White);
        let pool = if moves & all_corners != 0 {
            moves & all_corners
        } else {
            let dangerous = corners
                .iter()
                .zip(x_squares)
                .filter(|&(corner, _)| occupied & corner == 0)
                .fold(0, |all, (_, x)| all | x);
            match moves & !dangerous {
                0 => moves,
                safe => safe,
            }
        };
        let cell = nth_bit(pool, rng.random_range(0..pool.count_ones()));
        Move::Place(Square::from_index(cell.trailing_zeros() as u8))
    }
}
