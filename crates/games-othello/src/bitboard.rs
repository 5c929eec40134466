//! Move generation and flips by shifts, for an `N`x`N` board in the top-left corner of a 64-bit
//! frame: bit `8 * row + column`, row 0 at the top.
//!
//! Each direction is a constant shift (`+1` east, `+8` south, `+9` south-east, ...). Lines of
//! opponent discs are grown from a disc by a Kogge-Stone fill (three doubling steps), all
//! directions unrolled, no loops with data-dependent exits. To stop a line wrapping from one edge of the board to the
//! other, the opponent discs a line may run through exclude the board's edge columns for every
//! direction that moves sideways, and the edge rows for every direction that moves up or down:
//! a disc on an edge can end a line but never lie inside one in that direction.

/// The cells of an `n`x`n` board.
pub(crate) const fn board_mask(n: u32) -> u64 {
    let row = (1u64 << n) - 1;
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

/// The geometry of one board size: its cells and the interior masks of the three kinds of
/// direction.
#[derive(Clone, Copy)]
pub(crate) struct Geometry {
    /// Every cell of the board.
    pub(crate) cells: u64,
    /// Cells not in the first or last column.
    sideways: u64,
    /// Cells not in the first or last row.
    upright: u64,
    /// Cells on neither edge.
    diagonal: u64,
}

impl Geometry {
    /// The geometry of an `n`x`n` board.
    pub(crate) const fn new(n: u32) -> Geometry {
        let cells = board_mask(n);
        let mut first_column = 0;
        let mut r = 0;
        while r < n {
            first_column |= 1u64 << (8 * r);
            r += 1;
        }
        let last_column = first_column << (n - 1);
        let first_row = (1u64 << n) - 1;
        let last_row = first_row << (8 * (n - 1));
        let sideways = cells & !first_column & !last_column;
        let upright = cells & !first_row & !last_row;
        Geometry {
            cells,
            sideways,
            upright,
            diagonal: sideways & upright,
        }
    }
}

#[inline]
const fn shift<const S: i32>(bits: u64) -> u64 {
    if S > 0 { bits << S } else { bits >> -S }
}

/// `from`, grown in direction `S` through the discs of `them` (already masked for the
/// direction): a Kogge-Stone occluded fill, three doubling steps for lines of up to seven.
#[inline]
fn fill<const S: i32>(from: u64, them: u64) -> u64 {
    let (mut grown, mut path) = (from, them);
    grown |= path & shift::<S>(grown);
    path &= shift::<S>(path);
    grown |= path & shift2::<S>(grown);
    path &= shift2::<S>(path);
    grown | path & shift4::<S>(grown)
}

#[inline]
const fn shift2<const S: i32>(bits: u64) -> u64 {
    if S > 0 {
        bits << (2 * S)
    } else {
        bits >> (-2 * S)
    }
}

#[inline]
const fn shift4<const S: i32>(bits: u64) -> u64 {
    if S > 0 {
        bits << (4 * S)
    } else {
        bits >> (-4 * S)
    }
}

/// The run of `them` discs that starts next to a disc of `from` in direction `S`.
#[inline]
fn run<const S: i32>(from: u64, them: u64) -> u64 {
    fill::<S>(shift::<S>(from) & them, them)
}

/// The cells where the player with discs `me` may play against discs `them`: empty cells from
/// which a line of `them` discs runs, in some direction, to one of `me`.
#[inline]
pub(crate) fn moves(me: u64, them: u64, g: &Geometry) -> u64 {
    let empty = !(me | them) & g.cells;
    let (side, up, diag) = (them & g.sideways, them & g.upright, them & g.diagonal);
    let grow = |lines: u64, next: u64| next & empty | lines;
    let mut moves = 0;
    moves = grow(moves, shift::<1>(run::<1>(me, side)));
    moves = grow(moves, shift::<-1>(run::<-1>(me, side)));
    moves = grow(moves, shift::<8>(run::<8>(me, up)));
    moves = grow(moves, shift::<-8>(run::<-8>(me, up)));
    moves = grow(moves, shift::<9>(run::<9>(me, diag)));
    moves = grow(moves, shift::<-9>(run::<-9>(me, diag)));
    moves = grow(moves, shift::<7>(run::<7>(me, diag)));
    moves = grow(moves, shift::<-7>(run::<-7>(me, diag)));
    moves & empty
}

/// The discs of `them` in the line from `cell` in direction `S`, if a disc of `me` closes it.
///
/// Branch-free: measured about 8% faster in playouts than testing first whether the cell has
/// an opponent disc next to it in this direction.
#[inline]
fn line<const S: i32>(me: u64, them: u64, cell: u64) -> u64 {
    let line = run::<S>(cell, them);
    // The square after the line's far end holds one of `me`: keep the line, else nothing.
    let closed = shift::<S>(line) & me != 0;
    line & 0u64.wrapping_sub(u64::from(closed))
}

/// The discs of `them` that turn when `me` plays on `cell` (a single bit).
#[inline]
pub(crate) fn flips(me: u64, them: u64, cell: u64, g: &Geometry) -> u64 {
    let (side, up, diag) = (them & g.sideways, them & g.upright, them & g.diagonal);
    line::<1>(me, side, cell)
        | line::<-1>(me, side, cell)
        | line::<8>(me, up, cell)
        | line::<-8>(me, up, cell)
        | line::<9>(me, diag, cell)
        | line::<-9>(me, diag, cell)
        | line::<7>(me, diag, cell)
        | line::<-7>(me, diag, cell)
}
