//! The course algorithms, small and plain: minimax, NegaMax and alpha-beta (in NegaMax form).
//!
//! Each searches `depth` plies, scores finished games with [`score::terminal`] (quicker wins
//! are worth more), and asks the evaluator about the positions where it stops. They return the
//! value for the player to move at `position`, and serve as the reference the production
//! [`AlphaBeta`](crate::AlphaBeta) is tested against.

use game_core::{Evaluator, Game, Player, Status};

use crate::score;

/// Minimax: Black maximises, White minimises, values from Black's point of view inside; the
/// result is turned to the point of view of the player to move.
///
/// # Complexity
///
/// Visits every position up to `depth`: `b^depth` for `b` moves per position.
pub fn minimax<G: Game, E: Evaluator<G>>(position: &G, depth: u32, evaluator: &E) -> i32 {
    let black_view = min_max(position, depth, 0, evaluator);
    if position.to_move() == Player::Black {
        black_view
    } else {
        -black_view
    }
}

fn min_max<G: Game, E: Evaluator<G>>(position: &G, depth: u32, ply: u32, evaluator: &E) -> i32 {
    let to_move = position.to_move();
    let black_view = |v: i32| if to_move == Player::Black { v } else { -v };
    if let Status::Over(outcome) = position.status() {
        return black_view(score::terminal(outcome, to_move, ply));
    }
    if depth == 0 {
        return black_view(evaluator.evaluate(position));
    }
    let values = position
        .legal_actions_vec()
        .into_iter()
        .map(|a| min_max(&position.after(a), depth - 1, ply + 1, evaluator));
    if to_move == Player::Black {
        values.max()
    } else {
        values.min()
    }
    .expect("an ongoing game has moves")
}

/// NegaMax: minimax written once for both players, using `max(a, b) = -min(-a, -b)`: every
/// value is for the player to move, and a child's value is negated.
pub fn negamax<G: Game, E: Evaluator<G>>(position: &G, depth: u32, evaluator: &E) -> i32 {
    nega(position, depth, 0, evaluator)
}

fn nega<G: Game, E: Evaluator<G>>(position: &G, depth: u32, ply: u32, evaluator: &E) -> i32 {
    if let Status::Over(outcome) = position.status() {
        return score::terminal(outcome, position.to_move(), ply);
    }
    if depth == 0 {
        return evaluator.evaluate(position);
    }
    position
        .legal_actions_vec()
        .into_iter()
        .map(|a| -nega(&position.after(a), depth - 1, ply + 1, evaluator))
        .max()
        .expect("an ongoing game has moves")
}

/// Alpha-beta in NegaMax form: NegaMax that stops looking at a position's moves once one is
/// so good (`>= beta`) that the opponent would never allow the position. With the full window
/// it returns exactly the NegaMax value.
///
/// # Complexity
///
/// Between `b^(depth/2)` positions, with the best move always first, and `b^depth`.
pub fn alphabeta<G: Game, E: Evaluator<G>>(position: &G, depth: u32, evaluator: &E) -> i32 {
    ab(
        position,
        depth,
        0,
        -score::WIN - 1,
        score::WIN + 1,
        evaluator,
    )
}

fn ab<G: Game, E: Evaluator<G>>(
    position: &G,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
    evaluator: &E,
) -> i32 {
    if let Status::Over(outcome) = position.status() {
        return score::terminal(outcome, position.to_move(), ply);
    }
    if depth == 0 {
        return evaluator.evaluate(position);
    }
    let mut best = -score::WIN - 1;
    for action in position.legal_actions_vec() {
        let value = -ab(
            &position.after(action),
            depth - 1,
            ply + 1,
            -beta,
            -alpha,
            evaluator,
        );
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}
