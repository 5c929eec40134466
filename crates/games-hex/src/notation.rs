//! Text: cells, moves, move lists, and what goes wrong with them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bits::MAX_SIDE;

/// A cell: column `a`, `b`, ... and row `1`, `2`, ... from the top-left corner (`a1`); on 11x11
/// the opposite corner is `k11`. Stored 0-based.
///
/// ```
/// use games_hex::Cell;
///
/// let cell: Cell = "C10".parse().unwrap();
/// assert_eq!((cell.column(), cell.row()), (2, 9));
/// assert_eq!(cell.to_string(), "c10");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    row: u8,
    column: u8,
}

impl Cell {
    /// The cell at 0-based `column` and `row`.
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Cell {
        Cell { row, column }
    }

    /// The column, from 0 (`a`).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.column
    }

    /// The row, from 0 (row `1`, Black's first edge).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The cell mirrored in the long diagonal (column and row exchanged): where the swap
    /// moves the first stone.
    #[must_use]
    pub const fn transposed(self) -> Cell {
        Cell {
            row: self.column,
            column: self.row,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.column),
            u32::from(self.row) + 1
        )
    }
}

/// The error of parsing a [`Cell`] or a [`Move`].
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error(
    "{0:?} is not a Hex move: expected a cell such as c3 (column a-s, row 1-19) or swap-pieces"
)]
pub struct ParseMoveError(pub String);

impl FromStr for Cell {
    type Err = ParseMoveError;

    /// A column letter and a 1-based row number, any case: `a1`, `K11`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = || ParseMoveError(s.to_owned());
        let mut chars = s.chars();
        let column = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(error)?;
        let column = column.to_ascii_lowercase() as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(error());
        }
        let row: u8 = digits.parse().map_err(|_| error())?;
        if column >= MAX_SIDE || row == 0 || row > MAX_SIDE {
            return Err(error());
        }
        Ok(Cell::new(column, row - 1))
    }
}

/// A move: a stone on a cell, or the swap of the pie rule.
///
/// The swap, offered to White as its first move when the game has the swap rule, turns Black's
/// first stone into a White stone on the mirrored cell ([`Cell::transposed`]) and passes the
/// turn back to Black, so that every move still passes the turn. GTP tools speak another,
/// equivalent convention (the players exchange colours, the stone stays); the GTP layer
/// translates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A stone of the player to move.
    Place(Cell),
    /// The swap (pie rule).
    Swap,
}

impl fmt::Display for Move {
    /// `c3` or `swap-pieces`, as Hex programs write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => cell.fmt(f),
            Move::Swap => f.write_str("swap-pieces"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// A cell, or `swap-pieces` / `swap` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("swap") || s.eq_ignore_ascii_case("swap-pieces") {
            Ok(Move::Swap)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

/// The error of [`Hex::after_moves`](crate::Hex::after_moves): which move of the list could
/// not be played, and why.
pub type MovesError = game_core::MovesError<MoveErrorKind>;

/// Why a move cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum MoveErrorKind {
    /// Neither a cell nor a swap.
    #[error("not a move (expected a cell such as c3, or swap-pieces)")]
    NotAMove,
    /// A cell beyond the board's last column or row.
    #[error("{cell} is off the {size}x{size} board")]
    OffBoard {
        /// The cell.
        cell: Cell,
        /// The board's side.
        size: u8,
    },
    /// The cell already holds a stone.
    #[error("{0} is occupied")]
    Occupied(Cell),
    /// A swap other than as White's first move in a game with the swap rule.
    #[error("a swap is only allowed as White's first move, in a game with the swap rule")]
    SwapNotAllowed,
    /// The game had already ended.
    #[error("the game is already over")]
    GameOver,
}

/// The error of [`Hex::new`](crate::Hex::new): no such board. It holds the size asked for,
/// in a type wide enough for any a tool reads from its user before it calls `Hex::new`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
#[error("Hex boards are 1x1 to {MAX_SIDE}x{MAX_SIDE}, not {0}x{0}")]
pub struct SizeError(pub u32);
