//! The local pattern around a cell, for the learned prior ([`crate::patterns`]): its twelve
//! nearest cells, seen by the player to move.

use game_core::Game;

use super::HexBoard;
use super::playout::RING;
use crate::patterns::{LocalShape, Near};

/// The cells a bridge away, `BRIDGE[i] = RING[i] + RING[i + 1]`, in the same order around.
pub(super) const BRIDGE: [(i32, i32); 6] = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)];

/// A pattern cell's state, for the player to move: the cell is empty, the mover's (a stone, or
/// beyond one of the mover's edges), or the opponent's.
pub(super) const EMPTY: u32 = 0;
pub(super) const MINE: u32 = 1;
pub(super) const THEIRS: u32 = 2;

impl<const W: usize> HexBoard<W> {
    /// The pattern around the empty cell `(x, y)` for the player to move, in the frame where
    /// the mover connects rows (White's board is read transposed, which maps the hex grid onto
    /// itself and White's edges onto Black's), canonical under the half turn, and how close the
    /// cell is to the last stone.
    pub(crate) fn local_shape(&self, x: u8, y: u8) -> LocalShape {
        let mover = self.to_move();
        let mine = &self.stones[mover.index()];
        let theirs = &self.stones[mover.opponent().index()];
        let (x, y) = (i32::from(x), i32::from(y));
        let pattern = shape_code(self.n, x, y, mover == game_core::Player::White, |i| {
            if mine.contains(i) {
                MINE
            } else if theirs.contains(i) {
                THEIRS
            } else {
                EMPTY
            }
        });
        let near = self.last_stone().map_or(Near::Far, |last| {
            let (lx, ly) = (
                (last % self.n as usize) as i32,
                (last / self.n as usize) as i32,
            );
            let d = (lx - x, ly - y);
            if RING.contains(&d) {
                Near::Adjacent
            } else if BRIDGE.contains(&d) {
                Near::Bridge
            } else {
                Near::Far
            }
        });
        LocalShape { pattern, near }
    }
}

/// The canonical pattern code ([`LocalShape::pattern`]) of the empty cell `(x, y)` on a board
/// of side `n`, for the mover (`white`: White, whose board is read transposed), given each
/// board cell's `state` ([`EMPTY`], [`MINE`] or [`THEIRS`] for the mover).
#[inline]
pub(crate) fn shape_code(n: u8, x: i32, y: i32, white: bool, state: impl Fn(usize) -> u32) -> u32 {
    let n = i32::from(n);
    let at = |(dx, dy): (i32, i32)| {
        // The mover's frame: `dy` runs towards the mover's edges.
        let (rx, ry) = if white {
            (x + dy, y + dx)
        } else {
            (x + dx, y + dy)
        };
        let (along, across) = if white { (rx, ry) } else { (ry, rx) };
        let inside = |v: i32| (0..n).contains(&v);
        match (inside(along), inside(across)) {
            (true, true) => state((ry * n + rx) as usize),
            (false, true) => MINE,
            _ => THEIRS,
        }
    };
    let mut digits = [0u32; 12];
    for i in 0..6 {
        digits[i] = at(RING[i]);
        digits[6 + i] = at(BRIDGE[i]);
    }
    canonical_pattern(&digits)
}

/// The smaller code of the pattern and its half turn (which maps position `i` of each ring to
/// `i + 3`); digit `k` counts `3^k`.
pub(crate) fn canonical_pattern(digits: &[u32; 12]) -> u32 {
    let (mut code, mut turned) = (0, 0);
    for k in (0..12).rev() {
        code = code * 3 + digits[k];
        turned = turned * 3 + digits[k - k % 6 + (k % 6 + 3) % 6];
    }
    code.min(turned)
}
