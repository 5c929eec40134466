//! The board's geometry, shared by every file of `board/`: each cell's six neighbours in
//! order around it ([`RING`], [`rings`]), the cells a bridge away ([`BRIDGE`]), the markers of
//! what lies beyond the board's edges, and the colour array ([`Colours`]) that the playouts,
//! the fill-in and the pattern codes read. It imports nothing of the board.

use crate::bits::MAX_SIDE;

/// The six neighbours of a cell in order around it, each next to the one before and after:
/// (x+1, y), (x+1, y-1), (x, y-1), (x-1, y), (x-1, y+1), (x, y+1).
pub(super) const RING: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// In a ring: beyond a row edge (Black's), beyond a column edge (White's), beyond both.
pub(super) const BLACK_EDGE: u16 = u16::MAX - 3;
pub(super) const WHITE_EDGE: u16 = u16::MAX - 2;
pub(super) const NOWHERE: u16 = u16::MAX - 1;

/// The cells a bridge away, `BRIDGE[i] = RING[i] + RING[i + 1]`, in the same order around.
pub(super) const BRIDGE: [(i32, i32); 6] = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)];

/// The most cells a board has.
pub(super) const MAX_CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// Every cell's [`RING`] of neighbours for each board side (cell numbers, or where off the
/// board they lie), built once. Inline: the weighted playout (`weights.rs`) reads it at every
/// move.
#[inline]
pub(super) fn rings(n: u8) -> &'static [[u16; 6]] {
    static RINGS: std::sync::OnceLock<Vec<Vec<[u16; 6]>>> = std::sync::OnceLock::new();
    let all = RINGS.get_or_init(|| {
        (0..=i32::from(MAX_SIDE))
            .map(|n| {
                (0..n * n)
                    .map(|i| {
                        let (x, y) = (i % n, i / n);
                        RING.map(|(dx, dy)| {
                            let (cx, cy) = (x + dx, y + dy);
                            let inside = |v: i32| (0..n).contains(&v);
                            match (inside(cx), inside(cy)) {
                                (true, true) => (cy * n + cx) as u16,
                                (true, false) => BLACK_EDGE,
                                (false, true) => WHITE_EDGE,
                                (false, false) => NOWHERE,
                            }
                        })
                    })
                    .collect()
            })
            .collect()
    });
    &all[usize::from(n)]
}

/// The length of a colour array ([`Colours`]): the board's cells, then two beyond it.
pub(super) const COLOURED: usize = MAX_CELLS + 2;
/// The entry of a colour array that is always Black: beyond Black's edges, in the pattern
/// tables.
pub(super) const BEYOND_BLACK: u16 = MAX_CELLS as u16;
/// The entry that is always White.
pub(super) const BEYOND_WHITE: u16 = MAX_CELLS as u16 + 1;

/// Each cell's colour (0 empty, 1 Black, 2 White), then Black and White for the two entries
/// that stand for what lies beyond the board ([`HexBoard::colours`](super::HexBoard::colours)).
pub(super) type Colours = [u8; COLOURED];

/// The empty colour array: every cell empty, the entries beyond the board coloured.
#[inline]
pub(super) fn no_colours() -> Colours {
    let mut colour = [0; COLOURED];
    colour[usize::from(BEYOND_BLACK)] = 1;
    colour[usize::from(BEYOND_WHITE)] = 2;
    colour
}

/// The colour (1 Black, 2 White, 3 nobody's) of what lies beyond the board, by ring entry
/// less [`BLACK_EDGE`]: beyond a row edge, a column edge, both.
const BEYOND_COLOUR: [u8; 3] = [1, 2, 3];

/// The colour (0 empty, 1 Black, 2 White, 3 nobody's) of a [`rings`] entry, given each
/// cell's `colour`: beyond the board, the colour of that edge.
#[inline]
pub(super) fn ring_colour(colour: &Colours, cell: u16) -> u8 {
    if cell >= BLACK_EDGE {
        BEYOND_COLOUR[usize::from(cell - BLACK_EDGE)]
    } else {
        colour[usize::from(cell)]
    }
}
