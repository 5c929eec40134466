//! Pattern codes: the local pattern around a cell ([`LocalShape`]), its twelve nearest cells
//! read off the board as the player to move sees them, which the learned pattern table
//! ([`crate::patterns`]) weighs.
//!
//! Each board side has a table, built once, of every cell's twelve pattern cells in each
//! mover's frame ([`pattern_cells`]); a pattern is then twelve reads of a colour array
//! ([`HexBoard::colours`]), whose two entries past the board stand for the edges.

use game_core::{Game, Player};

use super::HexBoard;
use super::geometry::{BEYOND_BLACK, BEYOND_WHITE, BRIDGE, Colours, MAX_CELLS, RING};
use crate::bits::MAX_SIDE;

/// How many pattern codes there are (`3^12`); a [`LocalShape`]'s `pattern` is below it.
pub const PATTERN_CODES: usize = 531_441;

/// How close a cell is to the last stone placed (the opponent's last move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Near {
    /// Not within a bridge of it, or no stone was placed last.
    Far = 0,
    /// Next to it.
    Adjacent = 1,
    /// A bridge away from it.
    Bridge = 2,
}

impl Near {
    /// Every class, in the order of their numbers.
    pub(crate) const ALL: [Near; 3] = [Near::Far, Near::Adjacent, Near::Bridge];
}

/// The local shape around an empty cell, seen by the player to move ([`Hex::local_shape`](crate::Hex::local_shape)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LocalShape {
    /// The twelve nearest cells, a base-3 code below [`PATTERN_CODES`]: digit `k` (worth
    /// `3^k`) is 0 empty, 1 the mover's, 2 the opponent's; digits 0-5 are the neighbours, 6-11
    /// the cells a bridge away. Read in the frame where the mover connects rows, and the
    /// smaller of the code and its half turn's, so that equivalent shapes share a code.
    pub pattern: u32,
    /// How close the cell is to the last stone.
    pub near: Near,
}

/// A pattern cell's state, for the player to move: the cell is empty, the mover's (a stone, or
/// beyond one of the mover's edges), or the opponent's.
const EMPTY: u32 = 0;
const MINE: u32 = 1;
const THEIRS: u32 = 2;

/// `3^k`, the worth of digit `k` of a pattern code, and of the digit the half turn moves to
/// `k` (position `i` of each ring goes to `i + 3`; the map is its own inverse).
const POWERS: [[u32; 12]; 2] = {
    let mut powers = [[0; 12]; 2];
    let mut k = 0;
    while k < 12 {
        powers[0][k] = 3u32.pow(k as u32);
        powers[1][k - k % 6 + (k % 6 + 3) % 6] = 3u32.pow(k as u32);
        k += 1;
    }
    powers
};

/// For a board of side `n`, each cell's twelve pattern cells (digits 0-5 the neighbours, in
/// [`RING`]'s order, 6-11 the cells a bridge away) in each mover's frame (`[cell][mover]`,
/// Black's then White's): where the mover connects rows, White's board is read transposed.
/// Off the board, a cell is the mover's beyond the mover's edges and the opponent's beyond the
/// opponent's (or both): [`BEYOND_BLACK`] or [`BEYOND_WHITE`]. Built once per side.
fn pattern_cells(n: u8) -> &'static [[[u16; 12]; 2]] {
    static TABLES: std::sync::OnceLock<Vec<Vec<[[u16; 12]; 2]>>> = std::sync::OnceLock::new();
    let all = TABLES.get_or_init(|| {
        (0..=i32::from(MAX_SIDE))
            .map(|n| {
                (0..n * n)
                    .map(|i| {
                        let (x, y) = (i % n, i / n);
                        [Player::Black, Player::White].map(|mover| {
                            let white = mover == Player::White;
                            let (mine, theirs) = if white {
                                (BEYOND_WHITE, BEYOND_BLACK)
                            } else {
                                (BEYOND_BLACK, BEYOND_WHITE)
                            };
                            let mut cells = [0; 12];
                            for (k, &(dx, dy)) in RING.iter().chain(&BRIDGE).enumerate() {
                                // The mover's frame: `dy` runs towards the mover's edges.
                                let (rx, ry) = if white {
                                    (x + dy, y + dx)
                                } else {
                                    (x + dx, y + dy)
                                };
                                let (along, across) = if white { (rx, ry) } else { (ry, rx) };
                                let inside = |v: i32| (0..n).contains(&v);
                                cells[k] = match (inside(along), inside(across)) {
                                    (true, true) => (ry * n + rx) as u16,
                                    (false, true) => mine,
                                    _ => theirs,
                                };
                            }
                            cells
                        })
                    })
                    .collect()
            })
            .collect()
    });
    &all[usize::from(n)]
}

/// The canonical pattern code of the cell whose pattern cells are `cells`, given the colour
/// array and each colour's digit for the mover (`digit[colour]`).
#[inline]
fn code_of(cells: &[u16; 12], colour: &Colours, digit: &[u32; 3]) -> u32 {
    canonical(|k| digit[usize::from(colour[usize::from(cells[k])])])
}

/// The smaller code of a pattern, given digit `k` of each position, and of its half turn.
#[inline]
fn canonical(digit: impl Fn(usize) -> u32) -> u32 {
    let (mut code, mut turned) = (0, 0);
    for (k, (power, turned_power)) in POWERS[0].iter().zip(&POWERS[1]).enumerate() {
        let d = digit(k);
        code += d * power;
        turned += d * turned_power;
    }
    code.min(turned)
}

/// Each colour's digit for `mover`: empty, the mover's, the opponent's.
fn digits(mover: Player) -> [u32; 3] {
    match mover {
        Player::Black => [EMPTY, MINE, THEIRS],
        Player::White => [EMPTY, THEIRS, MINE],
    }
}

/// How many colourings a cell's six neighbours have in the weighted playout's reading: each
/// neighbour (in [`RING`]'s order, neighbour `k` worth `4^k`) empty (0), Black (1), White (2),
/// or beyond the board (the colour of that edge, or 3 beyond a corner).
pub(crate) const RING_COLOURINGS: usize = 4096;

/// For each mover (Black's, then White's), the weight (`pattern_weight` of its pattern code)
/// of each colouring of a
/// cell's six neighbours ([`RING_COLOURINGS`]): the weight of its pattern with the six cells a
/// bridge away empty, read in the mover's frame as [`HexBoard::pattern_code`] reads it (each
/// colour's [`digits`]; White reads the board transposed, which takes neighbour `k` to
/// neighbour `5 - k`; beyond a corner is the opponent's). A table fitted for the playouts ([`Patterns::balance`](crate::patterns::Patterns::balance)) weighs
/// only the six neighbours, so for it this is every pattern's weight.
pub(crate) fn ring_weights(
    pattern_weight: impl Fn(u32) -> f32,
) -> Box<[[f32; RING_COLOURINGS]; 2]> {
    let mut table = Box::new([[0.0; RING_COLOURINGS]; 2]);
    for (m, mover) in Player::BOTH.into_iter().enumerate() {
        for (colouring, weight) in table[m].iter_mut().enumerate() {
            let code = (0..6).fold(0, |code, k| {
                let at = if mover == Player::White { 5 - k } else { k };
                // Beyond a corner (3) is the opponent's.
                let colour = (colouring >> (2 * at)) & 3;
                let digit = digits(mover).get(colour).copied().unwrap_or(THEIRS);
                code + digit * 3u32.pow(k as u32)
            });
            *weight = pattern_weight(code);
        }
    }
    table
}

/// Reads the local shapes of one position's cells, for the player to move: the colours and
/// the cells around the last stone are found once ([`HexBoard::shapes`]).
pub(crate) struct Shapes {
    colour: Colours,
    /// `Near` of each cell, as a number (0 far, 1 next to the last stone, 2 a bridge away).
    near: [u8; MAX_CELLS],
    cells: &'static [[[u16; 12]; 2]],
    frame: usize,
    digit: [u32; 3],
}

impl Shapes {
    /// The local shape of the empty cell `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize) -> LocalShape {
        LocalShape {
            pattern: code_of(&self.cells[i][self.frame], &self.colour, &self.digit),
            near: match self.near[i] {
                0 => Near::Far,
                1 => Near::Adjacent,
                _ => Near::Bridge,
            },
        }
    }
}

impl<const W: usize> HexBoard<W> {
    /// The reader of this position's local shapes ([`LocalShape`]): for the player to move, in
    /// the frame where the mover connects rows (White's board is read transposed, which maps
    /// the hex grid onto itself and White's edges onto Black's), canonical under the half
    /// turn, with how close each cell is to the last stone.
    pub(crate) fn shapes(&self) -> Shapes {
        let cells = pattern_cells(self.n);
        let mut near = [0; MAX_CELLS];
        if let Some(last) = self.last_stone() {
            for (k, &j) in self.around(last).iter().enumerate() {
                if usize::from(j) < MAX_CELLS {
                    near[usize::from(j)] = if k < 6 { 1 } else { 2 };
                }
            }
        }
        let mover = self.to_move();
        Shapes {
            colour: self.colours(),
            near,
            cells,
            frame: mover.index(),
            digit: digits(mover),
        }
    }

    /// The pattern around the empty cell `(x, y)` for the player to move ([`shapes`](Self::shapes)).
    pub(crate) fn local_shape(&self, x: u8, y: u8) -> LocalShape {
        self.shapes()
            .at(usize::from(y) * usize::from(self.n) + usize::from(x))
    }

    /// The twelve cells around cell `i` (digits 0-5 its neighbours in [`RING`]'s order, 6-11
    /// the cells a bridge away), in the board's own frame (Black's); an entry of
    /// [`MAX_CELLS`] or more lies off the board.
    #[inline]
    pub(super) fn around(&self, i: usize) -> &'static [u16; 12] {
        &pattern_cells(self.n)[i][0]
    }

    /// The canonical pattern code ([`LocalShape::pattern`]) of the empty cell `i` for `mover`,
    /// given each cell's `colour`: for a playout, whose colours run ahead of the stones.
    #[inline]
    pub(super) fn pattern_code(&self, colour: &Colours, i: usize, mover: Player) -> u32 {
        code_of(
            &pattern_cells(self.n)[i][mover.index()],
            colour,
            &digits(mover),
        )
    }
}

/// The smaller code of the pattern and its half turn (which maps position `i` of each ring to
/// `i + 3`); digit `k` counts `3^k`.
pub(crate) fn canonical_pattern(digits: &[u32; 12]) -> u32 {
    canonical(|k| digits[k])
}
