//! Counting the leaves of a game tree.

use crate::Game;

/// The number of leaves of the game tree below `position`, cut at `depth` plies.
///
/// A finished game reached before `depth` counts as one leaf, so `perft(p, 0)` is 1 and
/// `perft(p, 1)` is the number of legal actions (or 1 if the game is over). The counts for a
/// game's start position are published for many games and catch move-generation bugs that
/// nothing else does.
///
/// # Complexity
///
/// Visits every node of the tree once: time grows with the branching factor to the power
/// `depth`. Memory is one action buffer per ply, allocated once.
///
/// # Examples
///
/// ```
/// use game_core::{perft, testing::TicTacToe};
///
/// let start = TicTacToe::new();
/// assert_eq!(perft(&start, 2), 72);
/// // Every game of tic-tac-toe ends by the ninth mark: the whole tree has 255,168 games.
/// assert_eq!(perft(&start, 9), 255_168);
/// ```
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth.saturating_sub(1) as usize];
    leaves(position, depth, &mut buffers)
}

fn leaves<G: Game>(position: &G, depth: u32, buffers: &mut [Vec<G::Action>]) -> u64 {
    if depth == 0 || position.status().is_over() {
        return 1;
    }
    if depth == 1 {
        return position.num_legal_actions() as u64;
    }
    let Some((actions, deeper)) = buffers.split_first_mut() else {
        unreachable!("one buffer per ply above the last");
    };
    actions.clear();
    position.legal_actions(actions);
    actions
        .iter()
        .map(|&action| leaves(&position.after(action), depth - 1, deeper))
        .sum()
}
