//! Connect Four's random playout and random moves, compiled for the standard board's shape
//! and for any shape.

use game_core::{Game, Outcome, Playout};
use rand::Rng;

use super::{Connect4Board, connects_four};
use crate::bits::Bits;

impl<B: Bits> Connect4Board<B> {
    /// The board's shape, known only at run time.
    #[inline]
    pub(super) fn shape(&self) -> Runtime {
        Runtime {
            width: u32::from(self.width),
            stride: self.stride(),
        }
    }

    /// The playout loop, for a board of shape `shape`.
    ///
    /// Works on local copies of the two bitboards, written back once at the end: through
    /// `&mut self` the compiler would store them to memory at every stone.
    #[inline]
    pub(super) fn playout_with<S: Shape, R: Rng + ?Sized>(
        &mut self,
        shape: S,
        rng: &mut R,
    ) -> Playout {
        debug_assert_eq!(
            (shape.width(), shape.stride()),
            (self.shape().width, self.stride())
        );
        let (mut current, mut mask, mut won) = (self.current, self.mask, self.won);
        let (bottom, cells) = (self.bottom, self.cells);
        let mut plies: u32 = 0;
        let mut bits = RandomBits::new();
        while !won {
            let playable = mask.wrapping_add(bottom) & cells;
            if playable == B::ZERO {
                break;
            }
            let cell = random_playable_cell(playable, shape, &mut bits, rng);
            current ^= mask;
            mask |= cell;
            won = connects_four(current ^ mask, shape.stride());
            plies += 1;
        }
        self.current = current;
        self.mask = mask;
        self.won = won;
        self.moves = self.moves.wrapping_add(plies as u8);
        let outcome = if won {
            Outcome::Win(self.to_move().opponent())
        } else {
            Outcome::Draw
        };
        Playout { outcome, plies }
    }
}

/// A cell drawn uniformly from the non-empty set `playable`, by rejection: draw a column index
/// below the next power of two of the width, and draw again until its column is playable.
/// Exact, and cheaper than counting and selecting the `k`-th bit, whose loop mispredicts its
/// exit every time.
#[inline]
pub(super) fn random_playable_cell<B: Bits, S: Shape, R: Rng + ?Sized>(
    playable: B,
    shape: S,
    bits: &mut RandomBits,
    rng: &mut R,
) -> B {
    let width_bits = u32::BITS - (shape.width() - 1).leading_zeros();
    let column_cells = (B::ONE << shape.stride()).wrapping_sub(B::ONE);
    loop {
        let column = bits.take(width_bits, rng);
        if shape.may_draw(column) {
            let cell = playable & (column_cells << (column * shape.stride()));
            if cell != B::ZERO {
                return cell;
            }
        }
    }
}

/// The width and column stride of a board, as constants ([`Fixed`]) or values ([`Runtime`]):
/// the hot loops are written once over this trait and compiled for both.
pub(super) trait Shape: Copy {
    fn width(self) -> u32;
    fn stride(self) -> u32;

    /// Whether a column index drawn below the next power of two of the width may be looked
    /// up: always when even the largest one shifts within 64 bits (its cells are empty, so it
    /// is rejected like a full column, and the check costs nothing); otherwise only the real
    /// columns.
    #[inline]
    fn may_draw(self, column: u32) -> bool {
        self.width().next_power_of_two() * self.stride() <= u64::BITS || column < self.width()
    }
}

/// A shape known at compile time.
#[derive(Clone, Copy)]
pub(super) struct Fixed<const WIDTH: u32, const STRIDE: u32>;

impl<const WIDTH: u32, const STRIDE: u32> Shape for Fixed<WIDTH, STRIDE> {
    #[inline]
    fn width(self) -> u32 {
        WIDTH
    }
    #[inline]
    fn stride(self) -> u32 {
        STRIDE
    }
}

/// A shape known at run time.
#[derive(Clone, Copy)]
pub(super) struct Runtime {
    width: u32,
    stride: u32,
}

impl Shape for Runtime {
    #[inline]
    fn width(self) -> u32 {
        self.width
    }
    #[inline]
    fn stride(self) -> u32 {
        self.stride
    }
}

/// Random bits drawn 64 at a time from a generator and handed out a few at a time.
pub(super) struct RandomBits {
    bits: u64,
    left: u32,
}

impl RandomBits {
    #[inline]
    pub(super) fn new() -> Self {
        RandomBits { bits: 0, left: 0 }
    }

    /// The next `n` random bits (`n <= 32`) as a number below `2^n`.
    #[inline]
    pub(super) fn take<R: Rng + ?Sized>(&mut self, n: u32, rng: &mut R) -> u32 {
        if self.left < n {
            self.bits = rng.next_u64();
            self.left = u64::BITS;
        }
        let value = (self.bits & ((1 << n) - 1)) as u32;
        self.bits >>= n;
        self.left -= n;
        value
    }
}
