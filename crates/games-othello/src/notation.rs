//! Text: squares, moves, move lists, board strings, and what goes wrong with them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A square of the board: column `a`–`h` and row `1`–`8`, row 1 at the top (`d3` is column d,
/// third row from the top). Index `8 * row + column`, both from 0.
///
/// ```
/// use games_othello::Square;
///
/// let d3: Square = "d3".parse().unwrap();
/// assert_eq!((d3.column(), d3.row()), (3, 2));
/// assert_eq!(d3.to_string(), "d3");
/// assert_eq!("D3".parse::<Square>(), Ok(d3));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `column` and `row`, both `0..8` (masked into range).
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Square {
        Square((row & 7) * 8 + (column & 7))
    }

    /// The square with index `8 * row + column` (masked into `0..64`).
    #[must_use]
    pub const fn from_index(index: u8) -> Square {
        Square(index & 63)
    }

    /// The column, from 0 (`a`).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// The row, from 0 (row `1`, at the top).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The index, `8 * row + column`.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square as a one-bit bitboard.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// `true` when the square lies on an `n`x`n` board.
    #[must_use]
    pub const fn fits(self, n: u32) -> bool {
        (self.column() as u32) < n && (self.row() as u32) < n
    }

    /// The squares of an `n`x`n` board, row by row from the top.
    pub(crate) fn all(n: u32) -> impl Iterator<Item = Square> {
        (0..n as u8).flat_map(move |row| (0..n as u8).map(move |column| Square::new(column, row)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column()), self.row() + 1)
    }
}

/// The error of parsing a [`Square`] or a [`Move`].
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{0:?} is not a move: expected a square such as d3 (column a-h, row 1-8) or pass")]
pub struct ParseMoveError(pub String);

impl FromStr for Square {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            &[column, row] => {
                let column = column.to_ascii_lowercase().wrapping_sub(b'a');
                let row = row.wrapping_sub(b'1');
                if column < 8 && row < 8 {
                    return Ok(Square::new(column, row));
                }
                Err(ParseMoveError(s.to_owned()))
            }
            _ => Err(ParseMoveError(s.to_owned())),
        }
    }
}

/// A move: a disc placed on a square, or a pass (legal only when no placement is).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a disc.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl fmt::Display for Move {
    /// `d3` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(square) => square.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// A square (`d3`, any case) or `pass` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

/// The error of [`OthelloBoard::after_moves`](crate::OthelloBoard::after_moves): which move of
/// the list could not be played, and why.
pub type MovesError = game_core::MovesError<MoveErrorKind>;

/// Why a move of a move list cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum MoveErrorKind {
    /// Neither a square nor `pass`.
    #[error("not a move (expected a square such as d3, or pass)")]
    NotAMove,
    /// A square outside this board (on 6x6: column g-h or row 7-8).
    #[error("{0} is off this board")]
    OffBoard(Square),
    /// Not legal in the position reached.
    #[error("{0} is not legal here")]
    Illegal(Move),
    /// The game had already ended.
    #[error("the game is already over")]
    GameOver,
}

/// The error of parsing a board string ([`OthelloBoard::from_str`](crate::OthelloBoard)).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("bad board string {input:?}: {reason}")]
pub struct ParseBoardError {
    /// The whole input.
    pub input: String,
    /// What was wrong.
    pub reason: String,
}
