//! Values of depth-limited search: evaluator units, and wins and losses by distance.

use game_core::{Outcome, Player, Wdl};

/// The value of a win on the spot, for the player to move. A win `p` plies from the root is
/// worth `WIN - p`, so a search prefers the quickest win and the slowest loss. Evaluators must
/// stay well inside `±MAX_EVAL`.
pub const WIN: i32 = 1_000_000;

/// The largest magnitude an evaluator may return; anything beyond is a win or a loss.
pub const MAX_EVAL: i32 = WIN / 2;

/// The value of a finished game, `ply` plies from the root, for `player` (the player to move
/// there).
#[must_use]
pub fn terminal(outcome: Outcome, player: Player, ply: u32) -> i32 {
    match outcome.winner() {
        None => 0,
        Some(w) if w == player => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
    }
}

/// `true` for the value of a forced win or loss.
#[must_use]
pub fn is_decisive(value: i32) -> bool {
    value.abs() > MAX_EVAL
}

/// The result a decisive value proves for the side it belongs to: a forced win or loss;
/// `None` for any other value (a draw is not told apart from an even evaluation).
#[must_use]
pub fn proof(value: i32) -> Option<Wdl> {
    match value {
        v if v > MAX_EVAL => Some(Wdl::Win),
        v if v < -MAX_EVAL => Some(Wdl::Loss),
        _ => None,
    }
}
