//! The weights of a pattern-weighted playout ([`Weights`]), kept up to date move by move.

use game_core::Player;
use rand::{Rng, RngExt};

use super::geometry::{Colours, MAX_CELLS, ring_colour, rings};
use super::pattern_codes::{Near, RING_COLOURINGS};
use super::{HexBoard, NO_CELL};
use crate::patterns::Patterns;

impl<const W: usize> HexBoard<W> {
    /// The cell a pattern-weighted playout ([`Style::weighted`](super::policy::Style::weighted), global weights capped at
    /// `cap`) draws for the player to move when no bridge is saved; `None` on a full board.
    pub(crate) fn weighted_move<R: Rng + ?Sized>(
        &self,
        cap: f32,
        patterns: &Patterns,
        rng: &mut R,
    ) -> Option<usize> {
        let colour = self.colours();
        let mut pool = [0u16; MAX_CELLS];
        let mut free = 0;
        for i in self.empty().iter() {
            pool[free] = i as u16;
            free += 1;
        }
        if free == 0 {
            return None;
        }
        let weights = Weights::new(self, &colour, &pool[..free], patterns, cap);
        Some(weights.draw(self, &pool[..free], self.last, self.to_move, rng))
    }
}

/// The weights of a pattern-weighted playout (MoHex 2.0's softmax policy): every empty cell
/// has, for each mover, the weight of its six neighbours' colouring ([`ring_weights`](super::pattern_codes::ring_weights)) capped
/// at `cap` (global), and the cells around the last stone add that weight times how much more
/// their [`Near`] class weighs (local). A stone changes one digit of the colourings of its six
/// neighbours only, so a move weighs six cells again; a draw reads the twelve cells around the
/// last stone and, when it falls outside them, walks the empty cells.
pub(super) struct Weights<'a> {
    /// Each empty cell's six-neighbour colouring.
    colouring: [u16; MAX_CELLS],
    /// Each cell's weight for each mover (0 when taken); its global weight is this capped at
    /// `cap`.
    raw: [[f32; 2]; MAX_CELLS],
    /// The sum of the global weights of the empty cells, for each mover.
    total: [f64; 2],
    /// The most a cell's global weight may be.
    cap: f32,
    /// What a cell next to the last stone, and a bridge away from it, adds per unit of its
    /// weight.
    extra: [f32; 2],
    /// The weight of each colouring for each mover.
    table: &'a [[f32; RING_COLOURINGS]; 2],
}

impl<'a> Weights<'a> {
    /// The weights of the empty cells `pool` on the board coloured `colour`.
    pub(super) fn new<const W: usize>(
        board: &HexBoard<W>,
        colour: &Colours,
        pool: &[u16],
        patterns: &'a Patterns,
        cap: f32,
    ) -> Weights<'a> {
        let far = patterns.near_weight(Near::Far);
        let mut weights = Weights {
            colouring: [0; MAX_CELLS],
            raw: [[0.0; 2]; MAX_CELLS],
            total: [0.0; 2],
            cap,
            extra: [Near::Adjacent, Near::Bridge]
                .map(|near| (patterns.near_weight(near) / far - 1.0).max(0.0)),
            table: patterns.ring_weights(),
        };
        let rings = rings(board.n);
        for &i in pool {
            let i = usize::from(i);
            let colouring = rings[i].iter().enumerate().fold(0, |code, (k, &cell)| {
                code | u16::from(ring_colour(colour, cell)) << (2 * k)
            });
            weights.colouring[i] = colouring;
            weights.weigh(i);
        }
        weights
    }

    /// A weight capped at `cap` (weights are never NaN: a plain comparison).
    #[inline]
    fn capped(&self, raw: f32) -> f32 {
        if raw < self.cap { raw } else { self.cap }
    }

    /// Weighs the empty cell `i` by its colouring, for both movers.
    #[inline]
    fn weigh(&mut self, i: usize) {
        let colouring = usize::from(self.colouring[i]);
        for m in 0..2 {
            let raw = self.table[m][colouring];
            self.total[m] += f64::from(self.capped(raw) - self.capped(self.raw[i][m]));
            self.raw[i][m] = raw;
        }
    }

    /// After a stone on `cell` (coloured in `colour`): it weighs nothing, and its empty
    /// neighbours are weighed again.
    #[inline]
    pub(super) fn update<const W: usize>(
        &mut self,
        board: &HexBoard<W>,
        colour: &Colours,
        cell: usize,
    ) {
        for m in 0..2 {
            self.total[m] -= f64::from(self.capped(self.raw[cell][m]));
            self.raw[cell][m] = 0.0;
        }
        let stone = u16::from(colour[cell]);
        for (k, &j) in rings(board.n)[cell].iter().enumerate() {
            let j = usize::from(j);
            if j < MAX_CELLS && colour[j] == 0 {
                // `cell` is neighbour `k + 3` of its neighbour `k`.
                self.colouring[j] += stone << (2 * ((k + 3) % 6));
                self.weigh(j);
            }
        }
    }

    /// One of the empty cells `pool` for `mover`, drawn in proportion to its global weight
    /// plus, around the `last` stone, its local one.
    #[inline]
    pub(super) fn draw<const W: usize, R: Rng + ?Sized>(
        &self,
        board: &HexBoard<W>,
        pool: &[u16],
        last: u16,
        mover: Player,
        rng: &mut R,
    ) -> usize {
        let m = mover.index();
        let mut near = [(0u16, 0f64); 12];
        let mut found = 0;
        let mut local = 0.0;
        if last != NO_CELL {
            for (k, &j) in board.around(usize::from(last)).iter().enumerate() {
                let raw = self.raw.get(usize::from(j)).map_or(0.0, |w| w[m]);
                if raw > 0.0 {
                    local += f64::from(raw * self.extra[usize::from(k >= 6)]);
                    near[found] = (j, local);
                    found += 1;
                }
            }
        }
        let mut r = rng.random::<f64>() * (self.total[m].max(0.0) + local);
        if r < local {
            let pick = near[..found].iter().find(|&&(_, upto)| r < upto);
            return usize::from(pick.map_or(near[found - 1].0, |&(j, _)| j));
        }
        r -= local;
        for &i in pool {
            let w = f64::from(self.capped(self.raw[usize::from(i)][m]));
            if r < w {
                return usize::from(i);
            }
            r -= w;
        }
        usize::from(pool[pool.len() - 1])
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    /// The empty cells of a colour array on a board of side `n`.
    fn empties(n: u8, colour: &Colours) -> Vec<u16> {
        (0..usize::from(n).pow(2))
            .filter(|&i| colour[i] == 0)
            .map(|i| i as u16)
            .collect()
    }

    /// Weighing only the six neighbours of each new stone keeps every weight, and both
    /// totals, what weighing the whole board afresh gives.
    fn check_updates<const W: usize>(n: u8, seed: u64) {
        let board = HexBoard::<W>::new(n, false);
        let patterns = Patterns::learned();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut colour = board.colours();
        let cap = [0.5, 1.0, f32::MAX][(seed % 3) as usize];
        let mut weights = Weights::new(&board, &colour, &empties(n, &colour), patterns, cap);
        loop {
            let empty = empties(n, &colour);
            let fresh = Weights::new(&board, &colour, &empty, patterns, cap);
            for &i in &empty {
                let i = usize::from(i);
                assert_eq!(
                    weights.colouring[i], fresh.colouring[i],
                    "cell {i}, seed {seed}"
                );
            }
            for i in 0..usize::from(n).pow(2) {
                assert_eq!(weights.raw[i], fresh.raw[i], "cell {i}, seed {seed}");
            }
            for m in 0..2 {
                let drift = (weights.total[m] - fresh.total[m]).abs();
                assert!(
                    drift < 1e-3 * fresh.total[m].max(1.0),
                    "total {m}, seed {seed}"
                );
            }
            let Some(&cell) = empty.get(rng.random_range(0..empty.len().max(1))) else {
                break;
            };
            colour[usize::from(cell)] = rng.random_range(1..=2);
            weights.update(&board, &colour, usize::from(cell));
        }
    }

    /// A table whose weights depend on the six neighbours only (as `Patterns::balance`
    /// fits one): a random weight for each ring, half turns alike.
    fn six_neighbour_table(seed: u64) -> Patterns {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let ring: Vec<f32> = (0..729).map(|_| rng.random_range(0.01..10.0)).collect();
        let weights = (0..crate::board::PATTERN_CODES)
            .map(|code| {
                let c = code % 729;
                ring[c.min(c / 27 + 27 * (c % 27))]
            })
            .collect();
        let mut table = Patterns::default();
        table.set_weights(weights, [1.0, 3.0, 2.0]);
        table
    }

    /// The playout's reading of the six neighbours (one colouring for both movers, the
    /// board's own frame) weighs each empty cell as the prior's reading of its pattern does
    /// (each mover's frame, the edges as their owner's stones): every cell of random
    /// positions, corners and edges included, both movers. For a table of twelve cells, it
    /// reads the pattern with the outer six empty.
    fn check_ring_weights<const W: usize>(n: u8, seed: u64) {
        let board = HexBoard::<W>::new(n, false);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let six = six_neighbour_table(seed);
        for _ in 0..20 {
            let mut colour = board.colours();
            let stones = rng.random_range(0..usize::from(n).pow(2));
            for _ in 0..stones {
                colour[rng.random_range(0..usize::from(n).pow(2))] = rng.random_range(1..=2);
            }
            let empty = empties(n, &colour);
            for (patterns, six_only) in [(&six, true), (Patterns::learned(), false)] {
                let weights = Weights::new(&board, &colour, &empty, patterns, f32::MAX);
                for &i in &empty {
                    let i = usize::from(i);
                    for mover in Player::BOTH {
                        let code = board.pattern_code(&colour, i, mover);
                        let read = if six_only { code } else { code % 729 };
                        assert_eq!(
                            weights.raw[i][mover.index()],
                            patterns.pattern_weight(read),
                            "cell {i} of {n}x{n}, {mover:?}, seed {seed}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_six_neighbours_weigh_what_the_movers_pattern_weighs() {
        for seed in 0..4 {
            check_ring_weights::<1>(3, seed);
            check_ring_weights::<1>(5, seed);
            check_ring_weights::<2>(9, seed);
            check_ring_weights::<6>(19, seed);
        }
    }

    #[test]
    fn updated_weights_are_the_fresh_ones() {
        for seed in 0..6 {
            check_updates::<1>(5, seed);
            check_updates::<2>(9, seed);
            check_updates::<6>(19, seed);
        }
    }
}
