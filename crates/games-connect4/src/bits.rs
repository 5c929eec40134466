//! The integer types a board can live in.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

/// An unsigned integer used as a bitboard: `u64` (boards with `width * (height + 1) <= 64`,
/// the fast default) or `u128` (up to 128 bits, such as 9x7 and 10x10).
///
/// Sealed: the two implementations are all the board code is written and tested for.
pub trait Bits:
    sealed::Sealed
    + Copy
    + Eq
    + Hash
    + Debug
    + Default
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The number of bits.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit set.
    const ONE: Self;

    /// Addition modulo `2^BITS`.
    fn wrapping_add(self, other: Self) -> Self;
    /// Subtraction modulo `2^BITS`.
    fn wrapping_sub(self, other: Self) -> Self;
    /// The number of set bits.
    fn count_ones(self) -> u32;
    /// The index of the lowest set bit (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// A 64-bit digest: the value itself when it fits, a mix of both halves otherwise.
    fn fold64(self) -> u64;

    /// Only the lowest set bit (zero for zero).
    #[inline]
    fn lowest_bit(self) -> Self {
        self & Self::ZERO.wrapping_sub(self)
    }
}

/// The methods both widths forward to the integer's own.
macro_rules! forward {
    ($t:ty) => {
        const BITS: u32 = <$t>::BITS;
        const ZERO: Self = 0;
        const ONE: Self = 1;

        #[inline]
        fn wrapping_add(self, other: Self) -> Self {
            <$t>::wrapping_add(self, other)
        }
        #[inline]
        fn wrapping_sub(self, other: Self) -> Self {
            <$t>::wrapping_sub(self, other)
        }
        #[inline]
        fn count_ones(self) -> u32 {
            <$t>::count_ones(self)
        }
        #[inline]
        fn trailing_zeros(self) -> u32 {
            <$t>::trailing_zeros(self)
        }
    };
}

impl Bits for u64 {
    forward!(u64);

    #[inline]
    fn fold64(self) -> u64 {
        self
    }
}

impl Bits for u128 {
    forward!(u128);

    #[inline]
    fn fold64(self) -> u64 {
        let (low, high) = (self as u64, (self >> 64) as u64);
        if high == 0 {
            low
        } else {
            low ^ high.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
        }
    }
}
