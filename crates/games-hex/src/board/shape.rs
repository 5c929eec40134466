//! Local shape, for the prior of Hex's knowledge: stones next to a cell and stones a bridge
//! away from it.

use game_core::Game;

use super::HexBoard;
use super::geometry::RING;
use crate::notation::Move;

impl<const W: usize> HexBoard<W> {
    /// Appends a weight for each of `actions` (legal here) from the shape around its cell, for
    /// the player to move: 1, plus `bridge` for each of the mover's stones a bridge away with
    /// both cells between empty, plus `adjacent` for each stone next to it (either colour: a
    /// move next to stones is where the fight is); halved on the board's outer ring when
    /// nothing is next to it. The swap weighs 1.
    pub(crate) fn shape_weights(
        &self,
        actions: &[Move],
        bridge: f32,
        adjacent: f32,
        weights: &mut Vec<f32>,
    ) {
        let n = i32::from(self.n);
        let mine = &self.stones[self.to_move().index()];
        let any = self.stones[0] | self.stones[1];
        let at = |x: i32, y: i32| {
            ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (y * n + x) as usize)
        };
        weights.extend(actions.iter().map(|&action| {
            let Move::Place(cell) = action else {
                return 1.0;
            };
            let (x, y) = (i32::from(cell.column()), i32::from(cell.row()));
            let mut weight = 1.0;
            let mut touching = 0;
            for (i, &(dx, dy)) in RING.iter().enumerate() {
                if at(x + dx, y + dy).is_some_and(|c| any.contains(c)) {
                    touching += 1;
                }
                let (ex, ey) = RING[(i + 1) % 6];
                let partner = at(x + dx + ex, y + dy + ey);
                let carriers = [at(x + dx, y + dy), at(x + ex, y + ey)];
                if partner.is_some_and(|p| mine.contains(p))
                    && carriers.iter().all(|c| c.is_some_and(|c| !any.contains(c)))
                {
                    weight += bridge;
                }
            }
            weight += adjacent * touching as f32;
            let outer = x == 0 || y == 0 || x == n - 1 || y == n - 1;
            if outer && touching == 0 {
                weight *= 0.5;
            }
            weight
        }));
    }
}
