//! Heuristic evaluation of positions, for depth-limited search.

use crate::Game;

/// A heuristic value of a position, from the point of view of the player to move: positive is
/// good for the player to move, negative good for the opponent, 0 balanced.
///
/// Depth-limited searches (minimax, NegaMax, alpha-beta) call it at the positions where they
/// stop looking ahead. They score finished games themselves, from the game's outcome, so an
/// evaluator is only asked about ongoing positions; one that returns 0 everywhere turns
/// alpha-beta into an exact solver of whatever it can search to the end.
///
/// Lives in `game-core` so that a game crate can ship its heuristic (Othello's disc, mobility
/// and square weights) without depending on a search crate. Implemented for closures
/// `Fn(&G) -> i32`:
///
/// ```
/// use game_core::{Evaluator, Game, testing::TicTacToe};
///
/// // Tic-tac-toe: the centre is worth having.
/// let centre = |position: &TicTacToe| {
///     let centre = "b2".parse().unwrap();
///     match position.at(centre) {
///         Some(p) if p == position.to_move() => 1,
///         Some(_) => -1,
///         None => 0,
///     }
/// };
/// let position: TicTacToe = "...\n.x.\n...".parse().unwrap();
/// assert_eq!(centre.evaluate(&position), -1); // White to move, Black holds the centre
/// ```
pub trait Evaluator<G: Game> {
    /// The value of `position` (not finished) for the player to move.
    fn evaluate(&self, position: &G) -> i32;
}

impl<G: Game, F: Fn(&G) -> i32> Evaluator<G> for F {
    #[inline]
    fn evaluate(&self, position: &G) -> i32 {
        self(position)
    }
}
