//! The features of the pattern evaluation: which squares each pattern reads, in which of the
//! board's eight symmetries, and how a position becomes the indices of its weights.
//!
//! Every pattern is written once, in one orientation (along the top edge or at the a1 corner);
//! its other instances read the same squares of the board turned or mirrored. So the board is
//! transformed (eight cheap bit permutations of each colour), and each instance is the same few
//! shifts and masks on one of the transformed boards: no table of squares, no loop over them.

/// The board turned a quarter clockwise, a half, three quarters; then those four mirrored
/// left to right: the eight symmetries of the square, the identity first.
#[inline]
pub(crate) fn symmetries(x: u64) -> [u64; 8] {
    let r90 = mirror(transpose(x));
    let r180 = x.reverse_bits();
    let r270 = r90.reverse_bits();
    [
        x,
        r90,
        r180,
        r270,
        mirror(x),
        mirror(r90),
        mirror(r180),
        mirror(r270),
    ]
}

/// Column `c` becomes column `7 - c`.
#[inline]
pub(crate) fn mirror(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Square `(row, column)` becomes `(column, row)`: the flip along the a1-h8 diagonal.
#[inline]
pub(crate) fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The squares of a diagonal that meets one square in each of its columns, gathered into the
/// top byte by one multiplication (bit `c` of the result: the square in column `c`), shifted
/// down by `skip` (the columns the diagonal does not reach).
#[inline]
fn gather(x: u64, mask: u64, skip: u32) -> u64 {
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> (56 + skip)
}

/// A kind of pattern: its squares in its first orientation, how many instances the board has,
/// and which symmetry leaves it in place (so that mirrored configurations share a weight).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kind {
    /// Its squares in reading order (`8 * row + column`, row 0 at the top), in the first
    /// instance: the first square is the lowest digit of the index.
    pub(crate) squares: &'static [u8],
    /// The symmetries (indices into [`symmetries`]) whose boards give the instances.
    pub(crate) boards: &'static [usize],
    /// For each square of [`squares`](Kind::squares), the square it becomes under the
    /// pattern's own mirror symmetry (a position in `squares`), or `None` for a pattern
    /// without one.
    pub(crate) mirror: Option<&'static [u8]>,
}

const ROTATIONS: &[usize] = &[0, 1, 2, 3];
const ALL: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7];
const REVERSED_8: &[u8] = &[7, 6, 5, 4, 3, 2, 1, 0];
const REVERSED_7: &[u8] = &[6, 5, 4, 3, 2, 1, 0];
const REVERSED_6: &[u8] = &[5, 4, 3, 2, 1, 0];
const REVERSED_5: &[u8] = &[4, 3, 2, 1, 0];
const REVERSED_4: &[u8] = &[3, 2, 1, 0];

/// The patterns, in the order of the features (Logistello's set): the edge with its two
/// X-squares, the 3x3 and 2x5 corners, the second, third and fourth rows, and the diagonals
/// of 8 to 4 squares.
pub(crate) const KINDS: [Kind; 11] = [
    Kind {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        boards: ROTATIONS,
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    Kind {
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        boards: ROTATIONS,
        mirror: Some(&[0, 3, 6, 1, 4, 7, 2, 5, 8]),
    },
    Kind {
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        boards: ALL,
        mirror: None,
    },
    Kind {
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        boards: ROTATIONS,
        mirror: Some(REVERSED_8),
    },
    Kind {
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        boards: ROTATIONS,
        mirror: Some(REVERSED_8),
    },
    Kind {
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        boards: ROTATIONS,
        mirror: Some(REVERSED_8),
    },
    Kind {
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        boards: &[0, 1],
        mirror: Some(REVERSED_8),
    },
    Kind {
        squares: &[1, 10, 19, 28, 37, 46, 55],
        boards: ROTATIONS,
        mirror: Some(REVERSED_7),
    },
    Kind {
        squares: &[2, 11, 20, 29, 38, 47],
        boards: ROTATIONS,
        mirror: Some(REVERSED_6),
    },
    Kind {
        squares: &[3, 12, 21, 30, 39],
        boards: ROTATIONS,
        mirror: Some(REVERSED_5),
    },
    Kind {
        squares: &[4, 13, 22, 31],
        boards: ROTATIONS,
        mirror: Some(REVERSED_4),
    },
];

/// Pattern instances on the board: 4 edges, 4 + 8 corners, 12 rows, 2 + 16 diagonals.
pub(crate) const INSTANCES: usize = 46;

/// Mobility counts at or above this share the last weight.
pub(crate) const MOBILITY: usize = 32;

/// Features of a position: the pattern instances, the mobility of each side, and the parity
/// of the empty squares.
pub(crate) const FEATURES: usize = INSTANCES + 3;

/// Where each kind's weights start in a phase's table, then the mobility of the player to
/// move, the opponent's, the parity; the last entry is the table's length.
pub(crate) const OFFSETS: [usize; KINDS.len() + 4] = {
    let mut offsets = [0; KINDS.len() + 4];
    let mut k = 0;
    while k < KINDS.len() {
        offsets[k + 1] = offsets[k] + 3usize.pow(KINDS[k].squares.len() as u32);
        k += 1;
    }
    offsets[k + 1] = offsets[k] + MOBILITY;
    offsets[k + 2] = offsets[k + 1] + MOBILITY;
    offsets[k + 3] = offsets[k + 2] + 2;
    offsets
};

/// The weights of one phase.
pub(crate) const PHASE_LEN: usize = OFFSETS[KINDS.len() + 3];

/// A binary number's bits read as base-3 digits: `TERNARY[b]` is `sum of 3^i` over the set
/// bits `i` of `b`.
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut value, mut power, mut rest) = (0u32, 1u32, b);
        while rest != 0 {
            if rest & 1 == 1 {
                value += power;
            }
            power *= 3;
            rest >>= 1;
        }
        table[b] = value as u16;
        b += 1;
    }
    table
};

/// The bits of one kind's squares on a transformed board, in the kind's reading order.
#[inline]
fn read(kind: usize, x: u64) -> u64 {
    match kind {
        0 => (x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
        1 => (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0),
        2 => (x & 0x1f) | ((x >> 3) & 0x3e0),
        3 => (x >> 8) & 0xff,
        4 => (x >> 16) & 0xff,
        5 => (x >> 24) & 0xff,
        6 => gather(x, 0x8040_2010_0804_0201, 0),
        7 => gather(x, 0x0080_4020_1008_0402, 1),
        8 => gather(x, 0x0000_8040_2010_0804, 2),
        9 => gather(x, 0x0000_0080_4020_1008, 3),
        _ => gather(x, 0x0000_0000_8040_2010, 4),
    }
}

/// The features of the position `me` (to move) against `them`, with `moves` and `replies`
/// their legal moves: for each, its index in the phase's table of weights.
#[inline]
pub(crate) fn features(me: u64, them: u64, moves: u64, replies: u64) -> [u32; FEATURES] {
    let (mine, theirs) = (symmetries(me), symmetries(them));
    let mut out = [0u32; FEATURES];
    let mut i = 0;
    for (k, kind) in KINDS.iter().enumerate() {
        for &s in kind.boards {
            let digits = u32::from(TERNARY[read(k, mine[s]) as usize])
                + 2 * u32::from(TERNARY[read(k, theirs[s]) as usize]);
            out[i] = (OFFSETS[k] + digits as usize) as u32;
            i += 1;
        }
    }
    let n = KINDS.len();
    out[i] = (OFFSETS[n] + (moves.count_ones() as usize).min(MOBILITY - 1)) as u32;
    out[i + 1] = (OFFSETS[n + 1] + (replies.count_ones() as usize).min(MOBILITY - 1)) as u32;
    out[i + 2] = (OFFSETS[n + 2] + ((me | them).count_ones() as usize & 1)) as u32;
    out
}

/// For each index of a phase's table, the index that stands for it and its mirror image (the
/// smaller of the two): mirrored configurations of a symmetric pattern are the same
/// configuration and share one weight.
pub(crate) fn canonical() -> Vec<u32> {
    let mut map: Vec<u32> = (0..PHASE_LEN as u32).collect();
    for (k, kind) in KINDS.iter().enumerate() {
        let Some(mirror) = kind.mirror else { continue };
        let len = kind.squares.len();
        for index in 0..3usize.pow(len as u32) {
            let mut digits = [0usize; 10];
            let mut rest = index;
            for d in digits.iter_mut().take(len) {
                *d = rest % 3;
                rest /= 3;
            }
            let (mut mirrored, mut power) = (0, 1);
            let mut image = [0usize; 10];
            for (position, &to) in mirror.iter().enumerate() {
                image[to as usize] = digits[position];
            }
            for &d in image.iter().take(len) {
                mirrored += d * power;
                power *= 3;
            }
            map[OFFSETS[k] + index] = (OFFSETS[k] + index.min(mirrored)) as u32;
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square `(row, column)` of the board under symmetry `s`, written from the definitions.
    fn image(s: usize, row: u32, column: u32) -> (u32, u32) {
        // Turn clockwise (s % 4) quarters: (r, c) -> (c, 7 - r); then mirror for s >= 4.
        let (mut r, mut c) = (row, column);
        for _ in 0..s % 4 {
            (r, c) = (c, 7 - r);
        }
        if s >= 4 {
            c = 7 - c;
        }
        (r, c)
    }

    fn slow_symmetry(s: usize, x: u64) -> u64 {
        let mut out = 0;
        for bit in 0..64 {
            if x >> bit & 1 == 1 {
                let (r, c) = image(s, bit / 8, bit % 8);
                out |= 1 << (8 * r + c);
            }
        }
        out
    }

    /// The index of one instance, square by square from the pattern's definition: the
    /// squares of the first instance, taken back through the symmetry to the board.
    fn slow_index(kind: &Kind, s: usize, me: u64, them: u64) -> usize {
        let mut index = 0;
        for (i, &square) in kind.squares.iter().enumerate() {
            // The board square that symmetry `s` carries onto `square`.
            let source = (0..64)
                .find(|&b| {
                    let (r, c) = image(s, b / 8, b % 8);
                    8 * r + c == u32::from(square)
                })
                .unwrap();
            let state = if me >> source & 1 == 1 {
                1
            } else if them >> source & 1 == 1 {
                2
            } else {
                0
            };
            index += state * 3usize.pow(i as u32);
        }
        index
    }

    fn random_position(seed: u64) -> (u64, u64) {
        let a = game_core::mix64(seed);
        let b = game_core::mix64(seed ^ 0x9e37_79b9);
        (a & !b, b & !a)
    }

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        for seed in 0..200 {
            let x = game_core::mix64(seed);
            let fast = symmetries(x);
            for (s, &y) in fast.iter().enumerate() {
                assert_eq!(y, slow_symmetry(s, x), "symmetry {s}");
            }
        }
    }

    #[test]
    fn features_match_the_pattern_definitions_square_by_square() {
        for seed in 0..300 {
            let (me, them) = random_position(seed);
            let f = features(me, them, 0, 0);
            let mut i = 0;
            for (k, kind) in KINDS.iter().enumerate() {
                for &s in kind.boards {
                    let expected = OFFSETS[k] + slow_index(kind, s, me, them);
                    assert_eq!(f[i] as usize, expected, "{:?} on board {s}", kind.squares);
                    i += 1;
                }
            }
            assert_eq!(i, INSTANCES);
        }
    }

    #[test]
    fn each_pattern_instance_covers_the_squares_its_definition_names() {
        // Every square of the board is read by some instance, and the instances of a kind
        // are distinct sets of squares.
        let mut covered = 0u64;
        for kind in &KINDS {
            let mut seen = Vec::new();
            for &s in kind.boards {
                let mut set = 0u64;
                for bit in 0..64 {
                    let (me, them) = (1u64 << bit, 0);
                    if slow_index(kind, s, me, them) != 0 {
                        set |= 1 << bit;
                    }
                }
                assert_eq!(
                    set.count_ones() as usize,
                    kind.squares.len(),
                    "{:?}",
                    kind.squares
                );
                assert!(
                    !seen.contains(&set),
                    "{:?}: two instances alike",
                    kind.squares
                );
                seen.push(set);
                covered |= set;
            }
        }
        assert_eq!(covered, u64::MAX);
    }

    #[test]
    fn symmetric_positions_have_the_same_features() {
        for seed in 0..200 {
            let (me, them) = random_position(seed);
            let mut base = features(me, them, 0, 0);
            base.sort_unstable();
            let map = canonical();
            let canonical_of = |f: [u32; FEATURES]| {
                let mut f = f.map(|i| map[i as usize]);
                f.sort_unstable();
                f
            };
            let base = canonical_of(base);
            for s in 1..8 {
                let (m, t) = (slow_symmetry(s, me), slow_symmetry(s, them));
                assert_eq!(canonical_of(features(m, t, 0, 0)), base, "symmetry {s}");
            }
        }
    }

    #[test]
    fn mirrored_configurations_share_a_weight_and_others_do_not() {
        let map = canonical();
        // The edge with a disc of mine on a1 only, and the same on h1: one weight.
        let a1 = OFFSETS[0] + 1;
        let h1 = OFFSETS[0] + 3usize.pow(7);
        assert_eq!(map[a1], map[h1]);
        // a1 and b1 are not mirrors of each other.
        assert_ne!(map[a1], map[OFFSETS[0] + 3]);
        // The 2x5 corner has no mirror: every index stands for itself.
        assert!((OFFSETS[2]..OFFSETS[3]).all(|i| map[i] as usize == i));
        // The map is idempotent.
        assert!(map.iter().all(|&m| map[m as usize] == m));
    }
}
