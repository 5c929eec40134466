//! Othello's random playout: one source, compiled for each processor's features.

use game_core::{Game, Playout};
use rand::{Rng, RngExt};

use super::OthelloBoard;
use crate::cpu::Kernel;
use crate::movegen;

/// What a playout reports of its moves: each placement and pass, by the side that made it (0
/// for the player to move at the start, 1 for the other).
pub(super) trait Marks {
    fn place(&mut self, side: u32, cell: u64);
    fn pass(&mut self, side: u32);
}

/// Nothing: the plain playout, where the calls compile away.
impl Marks for () {
    #[inline]
    fn place(&mut self, _: u32, _: u64) {}
    #[inline]
    fn pass(&mut self, _: u32) {}
}

/// The squares each side placed on, as bits, and whether it passed.
#[derive(Default)]
pub(super) struct Placed {
    pub(super) squares: [u64; 2],
    pub(super) passed: [bool; 2],
}

impl Marks for Placed {
    #[inline]
    fn place(&mut self, side: u32, cell: u64) {
        self.squares[side as usize] |= cell;
    }
    #[inline]
    fn pass(&mut self, side: u32) {
        self.passed[side as usize] = true;
    }
}

impl<const N: usize> OthelloBoard<N> {
    /// The random playout, run by one compiled copy of it.
    #[inline]
    pub(super) fn playout_with<R: Rng + ?Sized>(
        &mut self,
        kernel: Kernel,
        rng: &mut R,
        marks: &mut impl Marks,
    ) -> Playout {
        match kernel {
            Kernel::Portable => self.playout(rng, nth_bit, marks),
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: a kernel is only chosen (by `Kernel::best`, or a test from
            // `Kernel::available`) on a processor with its features, checked at run time;
            // nothing else about the call is unsafe.
            kernel @ (Kernel::Avx2 | Kernel::Avx2Pdep) => unsafe {
                self.playout_avx2(rng, kernel == Kernel::Avx2Pdep, marks)
            },
        }
    }

    /// [`OthelloBoard::playout`] compiled for AVX2, BMI2 and POPCNT (see [`Kernel`]), with `pdep` to
    /// pick the `k`-th move if `pdep`.
    ///
    /// # Safety
    ///
    /// The processor must have AVX2, BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    fn playout_avx2<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        pdep: bool,
        marks: &mut impl Marks,
    ) -> Playout {
        use std::arch::x86_64::_pdep_u64;
        if pdep {
            // The `k`-th set bit in one instruction: deposit bit `k` into `bits`.
            self.playout(rng, |bits, k| _pdep_u64(1 << k, bits), marks)
        } else {
            self.playout(rng, nth_bit, marks)
        }
    }

    /// The random playout, written once for every target.
    #[allow(
        clippy::inline_always,
        reason = "compiled into each kernel, with its features"
    )]
    #[inline(always)]
    fn playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        nth_bit: impl Fn(u64, u32) -> u64,
        marks: &mut impl Marks,
    ) -> Playout {
        let (mut me, mut them, mut moves) = (self.me, self.them, self.moves);
        let mut plies = 0u32;
        if !self.over {
            loop {
                if moves == 0 {
                    // Pass, unless the opponent cannot move either.
                    let theirs = movegen::moves(them, me, &Self::GEOMETRY);
                    if theirs == 0 {
                        break;
                    }
                    marks.pass(plies & 1);
                    std::mem::swap(&mut me, &mut them);
                    moves = theirs;
                } else {
                    let cell = nth_bit(moves, rng.random_range(0..moves.count_ones()));
                    marks.place(plies & 1, cell);
                    let flipped = movegen::flips(me, them, cell, &Self::GEOMETRY);
                    let placed = me | cell | flipped;
                    me = them & !flipped;
                    them = placed;
                    moves = movegen::moves(me, them, &Self::GEOMETRY);
                }
                plies += 1;
            }
        }
        if !plies.is_multiple_of(2) {
            self.to_move = self.to_move.opponent();
        }
        self.me = me;
        self.them = them;
        self.moves = 0;
        self.over = true;
        let outcome = self.status().outcome().expect("the game is over");
        Playout { outcome, plies }
    }
}

/// Only the `k`-th lowest set bit of `bits` (counting from 0).
///
/// A plain loop: measured faster here than a branch-free select by byte counts and a table,
/// whose longer chain of dependent steps costs more than the loop's mispredicted exit.
#[inline]
pub(crate) fn nth_bit(mut bits: u64, k: u32) -> u64 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Move;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The game `random_action` and `play` make, one move at a time, with this generator:
    /// its final position, its plies (passes included), and the squares each side placed on
    /// and whether it passed (side 0 moves first).
    fn move_by_move<const N: usize>(
        mut board: OthelloBoard<N>,
        rng: &mut Xoshiro256PlusPlus,
    ) -> (OthelloBoard<N>, u32, Placed) {
        let mut plies = 0;
        let mut placed = Placed::default();
        while let Some(action) = board.random_action(rng) {
            let side = plies as usize % 2;
            match action {
                Move::Place(square) => placed.squares[side] |= square.bit(),
                Move::Pass => placed.passed[side] = true,
            }
            board.play(action);
            plies += 1;
        }
        (board, plies, placed)
    }

    /// Every compiled copy of the playout plays the very game that `random_action` and `play`
    /// make from the same seed (they draw the same numbers and pick the same `k`-th move), so
    /// a fault in the vectorised code shows as a different final position; marking, it marks
    /// that game's moves.
    fn playouts_match_move_by_move<const N: usize>() {
        let mut openings = Xoshiro256PlusPlus::seed_from_u64(N as u64);
        for seed in 0..300 {
            // From the start and from positions some random moves in.
            let mut start = OthelloBoard::<N>::new();
            for _ in 0..seed % 30 {
                if let Some(action) = start.random_action(&mut openings) {
                    start.play(action);
                }
            }
            let (expected, plies, expected_marks) =
                move_by_move(start.clone(), &mut Xoshiro256PlusPlus::seed_from_u64(seed));

            for kernel in Kernel::available() {
                let mut board = start.clone();
                let rng = &mut Xoshiro256PlusPlus::seed_from_u64(seed);
                let result = board.playout_with(kernel, rng, &mut ());
                assert_eq!(
                    (&board, result.plies),
                    (&expected, plies),
                    "{kernel:?}, seed {seed}"
                );
                let mut board = start.clone();
                let mut marks = Placed::default();
                let rng = &mut Xoshiro256PlusPlus::seed_from_u64(seed);
                board.playout_with(kernel, rng, &mut marks);
                assert_eq!(
                    (marks.squares, marks.passed),
                    (expected_marks.squares, expected_marks.passed),
                    "{kernel:?}, seed {seed}: the marks"
                );
            }
        }
    }

    #[test]
    fn every_compiled_playout_plays_the_move_by_move_game_8x8() {
        playouts_match_move_by_move::<8>();
    }

    #[test]
    fn every_compiled_playout_plays_the_move_by_move_game_6x6() {
        playouts_match_move_by_move::<6>();
    }
}
