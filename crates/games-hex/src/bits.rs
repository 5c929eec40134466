//! Bitboards of `W` 64-bit words, and the masks of each board size.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// The largest board side.
pub const MAX_SIDE: u8 = 19;

/// Words in the largest board: 19 * 19 = 361 bits.
pub(crate) const MAX_WORDS: usize = 6;

/// The words a board of side `n` needs: cell `(x, y)` is bit `n * y + x`.
pub(crate) const fn words_for(n: u8) -> usize {
    (n as usize * n as usize).div_ceil(64)
}

/// A set of cells as `W` words, bit `i` of the board in bit `i % 64` of word `i / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Bits<const W: usize>(pub(crate) [u64; W]);

impl<const W: usize> Bits<W> {
    pub(crate) const EMPTY: Self = Bits([0; W]);

    /// The first `W` words of a wider mask.
    #[inline]
    pub(crate) fn from_mask(mask: &[u64; MAX_WORDS]) -> Self {
        let mut words = [0; W];
        words.copy_from_slice(&mask[..W]);
        Bits(words)
    }

    /// The set holding only cell `index`.
    #[inline]
    pub(crate) fn single(index: usize) -> Self {
        debug_assert!(index < 64 * W, "cell {index} is outside {W} words");
        // Word by word in registers: a store of one word into a zeroed array on the stack,
        // read back as a whole, stalled the processor's store forwarding (perf: 30% of the
        // time of placing a stone).
        Bits(std::array::from_fn(|w| {
            if w == index / 64 {
                1 << (index % 64)
            } else {
                0
            }
        }))
    }

    #[inline]
    pub(crate) fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// Whether every cell of this set is in `other`.
    #[inline]
    pub(crate) fn subset_of(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub(crate) fn contains(&self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 != 0
    }

    #[inline]
    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Shifts every cell `k` bits up (towards higher indices); `k < 64`.
    #[inline]
    pub(crate) fn shl(&self, k: u32) -> Self {
        if k == 0 {
            return *self;
        }
        let w = &self.0;
        Bits(std::array::from_fn(|i| {
            if i == 0 {
                w[0] << k
            } else {
                w[i] << k | w[i - 1] >> (64 - k)
            }
        }))
    }

    /// Shifts every cell `k` bits down (towards lower indices); `k < 64`.
    #[inline]
    pub(crate) fn shr(&self, k: u32) -> Self {
        if k == 0 {
            return *self;
        }
        let w = &self.0;
        Bits(std::array::from_fn(|i| {
            if i + 1 == W {
                w[i] >> k
            } else {
                w[i] >> k | w[i + 1] << (64 - k)
            }
        }))
    }

    /// The index of the lowest cell in the set (which must not be empty).
    #[inline]
    pub(crate) fn first(&self) -> usize {
        self.nth(0)
    }

    /// The index of the `k`-th lowest cell in the set (`k` below [`count`](Bits::count)).
    #[inline]
    pub(crate) fn nth(&self, mut k: u32) -> usize {
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones();
            if k < ones {
                let mut rest = word;
                for _ in 0..k {
                    rest &= rest - 1;
                }
                return i * 64 + rest.trailing_zeros() as usize;
            }
            k -= ones;
        }
        unreachable!("k is below the number of cells")
    }

    /// The cells, lowest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

impl<const W: usize> BitAnd for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, other: Self) -> Self {
        self &= other;
        self
    }
}

impl<const W: usize> BitAndAssign for Bits<W> {
    #[inline]
    fn bitand_assign(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }
}

impl<const W: usize> BitOr for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, other: Self) -> Self {
        self |= other;
        self
    }
}

impl<const W: usize> BitOrAssign for Bits<W> {
    #[inline]
    fn bitor_assign(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Bits(self.0.map(|w| !w))
    }
}

/// The masks of one board size, `MAX_WORDS` wide (a board of `W` words uses the first `W`).
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Every cell.
    pub(crate) cells: [u64; MAX_WORDS],
    /// Every cell but those of the first column.
    pub(crate) not_first_column: [u64; MAX_WORDS],
    /// Every cell but those of the last column.
    pub(crate) not_last_column: [u64; MAX_WORDS],
    /// Black's two edges, rows 1 and N; White's, columns a and the last.
    pub(crate) edges: [[[u64; MAX_WORDS]; 2]; 2],
}

const fn set(mask: &mut [u64; MAX_WORDS], index: usize) {
    mask[index / 64] |= 1 << (index % 64);
}

const fn geometry(n: usize) -> Geometry {
    let empty = [0u64; MAX_WORDS];
    let mut g = Geometry {
        cells: empty,
        not_first_column: empty,
        not_last_column: empty,
        edges: [[empty; 2]; 2],
    };
    let mut y = 0;
    while y < n {
        let mut x = 0;
        while x < n {
            let i = n * y + x;
            set(&mut g.cells, i);
            if x > 0 {
                set(&mut g.not_first_column, i);
            }
            if x + 1 < n {
                set(&mut g.not_last_column, i);
            }
            if y == 0 {
                set(&mut g.edges[0][0], i);
            }
            if y + 1 == n {
                set(&mut g.edges[0][1], i);
            }
            if x == 0 {
                set(&mut g.edges[1][0], i);
            }
            if x + 1 == n {
                set(&mut g.edges[1][1], i);
            }
            x += 1;
        }
        y += 1;
    }
    g
}

/// The geometry of every size, indexed by the side (index 0 unused).
pub(crate) static GEOMETRY: [Geometry; MAX_SIDE as usize + 1] = {
    let mut all = [const { geometry(0) }; MAX_SIDE as usize + 1];
    let mut n = 1;
    while n <= MAX_SIDE as usize {
        all[n] = geometry(n);
        n += 1;
    }
    all
};
