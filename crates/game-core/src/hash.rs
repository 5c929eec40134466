//! Helpers for position hashes.

/// A 64-bit mixing function (the SplitMix64 finaliser): a bijection on `u64` in which every
/// input bit affects every output bit. Games build position hashes from their bitboards with
/// it, `mix64(h ^ word)` word after word.
///
/// ```
/// use game_core::mix64;
///
/// assert_ne!(mix64(1), mix64(2));
/// assert_eq!(mix64(0), 0); // mix a constant in first when 0 must not hash to 0
/// ```
#[inline]
#[must_use]
pub const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
