//! Text: columns, move strings, and what goes wrong with them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The widest and tallest boards supported (each also limited by the bitboard's size).
pub const MAX_SIDE: u8 = 16;

/// A move: the column a stone is dropped into.
///
/// Written 1-based, as players and the public test sets count (`"4"` is the middle column of
/// the standard board); stored 0-based ([`Column::index`]).
///
/// ```
/// use games_connect4::Column;
///
/// let middle: Column = "4".parse().unwrap();
/// assert_eq!(middle, Column::new(3));
/// assert_eq!(middle.to_string(), "4");
/// assert!("0".parse::<Column>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Column(u8);

impl Column {
    /// The column with 0-based `index` (0 is the leftmost column, written `1`).
    #[must_use]
    pub const fn new(index: u8) -> Column {
        Column(index)
    }

    /// The 0-based index.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", u32::from(self.0) + 1)
    }
}

/// The error of parsing a [`Column`].
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{0:?} is not a column: expected a number from 1 to {MAX_SIDE}")]
pub struct ParseMoveError(pub String);

impl FromStr for Column {
    type Err = ParseMoveError;

    /// Parses a 1-based column number, `1` to [`MAX_SIDE`]. Whether the column exists on a
    /// given board is for the board to say ([`Game::is_legal`](game_core::Game::is_legal)).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().parse::<u8>() {
            Ok(n @ 1..=MAX_SIDE) => Ok(Column(n - 1)),
            _ => Err(ParseMoveError(s.to_owned())),
        }
    }
}

/// The error of [`Connect4Board::after_moves`](crate::Connect4Board::after_moves): which move of the string
/// could not be played, and why.
pub type MovesError = game_core::MovesError<MoveErrorKind>;

/// What was wrong with a move of a move string.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum MoveErrorKind {
    /// Not a column digit `1`–`9`.
    #[error("not a move (expected a column digit 1-9)")]
    NotAMove,
    /// A column the board does not have.
    #[error("column {column} is off the board, which has {width} columns")]
    OffBoard {
        /// The 1-based column.
        column: u8,
        /// The board's number of columns.
        width: u8,
    },
    /// The column is already full.
    #[error("column {column} is full")]
    ColumnFull {
        /// The 1-based column.
        column: u8,
    },
    /// The game had already ended.
    #[error("the game is already over")]
    GameOver,
}

/// The error of [`Connect4Board::with_size`](crate::Connect4Board::with_size): the board does not fit.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
#[error(
    "a {width}x{height} board does not fit: each side must be 1 to {MAX_SIDE}, and width * (height + 1) \
     at most {available} bits{}", if *available < 128 { " (Connect4Large has 128)" } else { "" }
)]
pub struct SizeError {
    /// The columns asked for.
    pub width: u8,
    /// The rows asked for.
    pub height: u8,
    /// The bits of the bitboard type.
    pub available: u32,
}
