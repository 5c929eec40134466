//! Move generation and flips by shifts, for an `N`x`N` board in the top-left corner of a 64-bit
//! frame: bit `8 * row + column`, row 0 at the top.
//!
//! Each direction is a shift (`+1` east, `+8` south, `+9` south-east, `+7` south-west, and the
//! same shifts to the right for the opposite directions). Lines of opponent discs are grown
//! from a disc by an occluded fill of three steps, no loops with data-dependent exits. The
//! four direction pairs are computed side by side in arrays of four words, the same operation
//! in every lane, which the compiler turns into 256-bit vector code where AVX2 is enabled (the
//! playout's AVX2 copy, see `cpu.rs`). To stop a line wrapping from one edge of the board to
//! the other, the opponent discs a line may run through exclude the board's edge columns for
//! every direction that moves sideways, and the edge rows for every direction that moves up or
//! down: a disc on an edge can end a line but never lie inside one in that direction.

#![allow(
    clippy::inline_always,
    reason = "the playout's AVX2 copy must compile this code into itself: a call to a copy \
              compiled for the baseline would lose the vector instructions"
)]

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

/// The shifts of the four direction pairs, each a direction towards higher bits and its
/// opposite: east/west, south/north, south-east/north-west, south-west/north-east.
const SHIFTS: [u32; 4] = [1, 8, 9, 7];

/// The four direction pairs side by side: each function below works on all four at once, the
/// same operation in every lane, so that the compiler can keep the four in one vector register
/// where the target has them (AVX2 on x86-64) and unroll them otherwise.
type Lanes = [u64; 4];

#[inline(always)]
fn lanes(f: impl Fn(usize) -> u64) -> Lanes {
    [f(0), f(1), f(2), f(3)]
}

impl Geometry {
    /// The discs `them` a line may run through, for each direction pair.
    #[inline(always)]
    fn interior(&self, them: u64) -> Lanes {
        [
            them & self.sideways,
            them & self.upright,
            them & self.diagonal,
            them & self.diagonal,
        ]
    }
}

/// For each direction pair, the runs of `path` discs that start next to a disc of `from`,
/// towards higher bits (`up`) and towards lower bits (`down`): an occluded fill of lines of up
/// to six discs, in three steps (one, then two doublings).
#[inline(always)]
fn runs(from: Lanes, path: Lanes) -> (Lanes, Lanes) {
    let mut up = lanes(|i| path[i] & (from[i] << SHIFTS[i]));
    let mut down = lanes(|i| path[i] & (from[i] >> SHIFTS[i]));
    up = lanes(|i| up[i] | path[i] & (up[i] << SHIFTS[i]));
    down = lanes(|i| down[i] | path[i] & (down[i] >> SHIFTS[i]));
    // Cells of `path` whose neighbour one step back is in `path` too: a run may jump two.
    let pairs_up = lanes(|i| path[i] & (path[i] << SHIFTS[i]));
    let pairs_down = lanes(|i| pairs_up[i] >> SHIFTS[i]);
    for _ in 0..2 {
        up = lanes(|i| up[i] | pairs_up[i] & (up[i] << (2 * SHIFTS[i])));
        down = lanes(|i| down[i] | pairs_down[i] & (down[i] >> (2 * SHIFTS[i])));
    }
    (up, down)
}

/// The cells where the player with discs `me` may play against discs `them`: empty cells from
/// which a line of `them` discs runs, in some direction, to one of `me`.
#[inline(always)]
pub(crate) fn moves(me: u64, them: u64, g: &Geometry) -> u64 {
    let empty = !(me | them) & g.cells;
    let (up, down) = runs([me; 4], g.interior(them));
    let ends = lanes(|i| (up[i] << SHIFTS[i]) | (down[i] >> SHIFTS[i]));
    (ends[0] | ends[1] | ends[2] | ends[3]) & empty
}

/// The discs of `them` that turn when `me` plays on `cell` (a single bit): in each direction,
/// the run of `them` from `cell`, if a disc of `me` closes it. Branch-free: measured faster in
/// playouts than testing first for an opponent disc next to the cell.
#[inline(always)]
pub(crate) fn flips(me: u64, them: u64, cell: u64, g: &Geometry) -> u64 {
    let (up, down) = runs([cell; 4], g.interior(them));
    let lines = lanes(|i| {
        // The disc after each line's far end, if it is one of `me` (at most one bit).
        let (end_up, end_down) = ((up[i] << SHIFTS[i]) & me, (down[i] >> SHIFTS[i]) & me);
        // Towards lower bits the line lies above its end, so the cells from the end upwards
        // keep it, and nothing when there is no end: no compare needed.
        let closed_down = down[i] & end_down.wrapping_neg();
        let closed_up = if end_up == 0 { 0 } else { up[i] };
        closed_up | closed_down
    });
    lines[0] | lines[1] | lines[2] | lines[3]
}
