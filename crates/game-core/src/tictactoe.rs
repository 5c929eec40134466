//! Tic-tac-toe: the reference game for the conformance kit and for search tests, and a game the
//! tools and the Python package play (`--game tictactoe`). Also at `game_core::testing` (feature
//! `testing`) for the tests written before it moved here.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Game, Outcome, Player, Status};

/// The eight lines of three, as masks over cells `0..9` (row-major, cell 0 top-left).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// A cell of the 3x3 board, written like a chess square: column `a`–`c`, then row `1`–`3` from
/// the top (`a1` is the top-left corner, `b2` the centre).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `column` and `row`, both `0..3`; `None` off the board.
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Option<Cell> {
        if column < 3 && row < 3 {
            Some(Cell(row * 3 + column))
        } else {
            None
        }
    }

    /// The cell's index `0..9`, row by row from the top-left.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.0 % 3), self.0 / 3 + 1)
    }
}

/// The error of parsing a [`Cell`]: the text is not `a1`–`c3`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{0:?} is not a tic-tac-toe cell: expected a column a-c and a row 1-3, as in b2")]
pub struct ParseCellError(pub String);

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = || ParseCellError(s.to_owned());
        let &[column, row] = s.as_bytes() else {
            return Err(error());
        };
        let column = column.to_ascii_lowercase().wrapping_sub(b'a');
        let row = row.wrapping_sub(b'1');
        Cell::new(column, row).ok_or_else(error)
    }
}

/// A tic-tac-toe position. Black plays `x` and moves first; White plays `o`.
///
/// Small enough to search completely, which makes it the game on which the conformance kit and
/// the search algorithms are tested. Its text form is the board, row by row from the top, with
/// `x`, `o` and `.`; the player to move follows from the counts.
///
/// ```
/// use game_core::{Game, Outcome, Player, Status, tictactoe::TicTacToe};
///
/// let mut game = TicTacToe::new();
/// for cell in ["b2", "a1", "c1", "a3"] {
///     game.play(cell.parse().unwrap());
/// }
/// assert_eq!(game.to_string(), "o.x\n.x.\no..");
/// game.play("a2".parse().unwrap());
/// assert_eq!(game.to_move(), Player::White);
/// assert_eq!(game.status(), Status::Ongoing);
/// let done: TicTacToe = "xxx\noo.\n...".parse().unwrap();
/// assert_eq!(done.status(), Status::Over(Outcome::Win(Player::Black)));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct TicTacToe {
    /// The cells of each player, indexed by [`Player::index`].
    marks: [u16; 2],
}

impl TicTacToe {
    /// The empty board, Black (`x`) to move.
    #[must_use]
    pub fn new() -> Self {
        TicTacToe::default()
    }

    /// How many marks are on the board.
    #[must_use]
    pub fn marks(&self) -> u32 {
        (self.marks[0] | self.marks[1]).count_ones()
    }

    /// Who holds `cell`, if anyone.
    #[must_use]
    pub fn at(&self, cell: Cell) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| self.marks[p.index()] & cell.bit() != 0)
    }

    fn has_line(&self, player: Player) -> bool {
        let marks = self.marks[player.index()];
        LINES.iter().any(|&line| line & !marks == 0)
    }

    fn empty(&self) -> u16 {
        FULL & !(self.marks[0] | self.marks[1])
    }
}

impl Game for TicTacToe {
    type Action = Cell;

    fn to_move(&self) -> Player {
        if self.marks[0].count_ones() > self.marks[1].count_ones() {
            Player::White
        } else {
            Player::Black
        }
    }

    fn status(&self) -> Status {
        // Only the player who just moved can have completed a line.
        let last = self.to_move().opponent();
        if self.has_line(last) {
            Status::Over(Outcome::Win(last))
        } else if self.empty() == 0 {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn legal_actions<E: Extend<Cell>>(&self, out: &mut E) {
        if self.status().is_over() {
            return;
        }
        let empty = self.empty();
        out.extend((0..9).filter(|i| empty & (1 << i) != 0).map(Cell));
    }

    fn play_unchecked(&mut self, cell: Cell) {
        let player = self.to_move();
        self.marks[player.index()] |= cell.bit();
    }

    fn action_space(&self) -> Option<usize> {
        Some(9)
    }

    fn action_index(&self, cell: Cell) -> usize {
        cell.index()
    }

    fn action_from_index(&self, index: usize) -> Option<Cell> {
        u8::try_from(index).ok().filter(|&i| i < 9).map(Cell)
    }

    fn position_hash(&self) -> u64 {
        // A perfect 18-bit key, spread over 64 bits by a fixed odd multiplier.
        let key = u64::from(self.marks[0]) | u64::from(self.marks[1]) << 9;
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn is_legal(&self, cell: Cell) -> bool {
        self.empty() & cell.bit() != 0 && !self.status().is_over()
    }
}

impl fmt::Display for TicTacToe {
    /// Three rows of `x`, `o` and `.`, top row first, separated by newlines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3 {
            if row > 0 {
                f.write_str("\n")?;
            }
            for column in 0..3 {
                let cell = Cell(row * 3 + column);
                f.write_str(match self.at(cell) {
                    Some(Player::Black) => "x",
                    Some(Player::White) => "o",
                    None => ".",
                })?;
            }
        }
        Ok(())
    }
}

/// The error of parsing a [`TicTacToe`] position.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum ParseTicTacToeError {
    /// A character other than `x`, `o`, `.` and the row separators.
    #[error("unexpected character {character:?} in {input:?}: expected x, o or .")]
    Character {
        /// The character.
        character: char,
        /// The whole input.
        input: String,
    },
    /// Not nine cells.
    #[error("{input:?} has {cells} cells, expected 9")]
    Size {
        /// How many cells there were.
        cells: usize,
        /// The whole input.
        input: String,
    },
    /// Counts that play from the empty board cannot produce.
    #[error("{input:?} cannot arise: x moves first, so x has as many marks as o or one more")]
    Unreachable {
        /// The whole input.
        input: String,
    },
}

impl FromStr for TicTacToe {
    type Err = ParseTicTacToeError;

    /// Parses nine cells of `x`, `o` and `.`, top row first; newlines, spaces and `/` between
    /// them are ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut game = TicTacToe::new();
        let mut cells = 0;
        for character in s.chars().filter(|c| !c.is_whitespace() && *c != '/') {
            let owner = match character.to_ascii_lowercase() {
                'x' => Some(Player::Black),
                'o' => Some(Player::White),
                '.' => None,
                _ => {
                    return Err(ParseTicTacToeError::Character {
                        character,
                        input: s.to_owned(),
                    });
                }
            };
            if let (Some(p), true) = (owner, cells < 9) {
                game.marks[p.index()] |= 1 << cells;
            }
            cells += 1;
        }
        if cells != 9 {
            return Err(ParseTicTacToeError::Size {
                cells,
                input: s.to_owned(),
            });
        }
        let (x, o) = (game.marks[0].count_ones(), game.marks[1].count_ones());
        if x != o && x != o + 1 || game.has_line(Player::Black) && game.has_line(Player::White) {
            return Err(ParseTicTacToeError::Unreachable {
                input: s.to_owned(),
            });
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft;

    #[test]
    fn the_full_game_tree_has_255168_games() {
        // Published: 255,168 possible games; 131,184 won by x, 77,904 by o, 46,080 drawn.
        let mut by_outcome = [0u64; 3];
        fn walk(game: &TicTacToe, by_outcome: &mut [u64; 3]) {
            match game.status() {
                Status::Over(Outcome::Win(Player::Black)) => by_outcome[0] += 1,
                Status::Over(Outcome::Win(Player::White)) => by_outcome[1] += 1,
                Status::Over(Outcome::Draw) => by_outcome[2] += 1,
                Status::Ongoing => {
                    for cell in game.legal_actions_vec() {
                        walk(&game.after(cell), by_outcome);
                    }
                }
            }
        }
        walk(&TicTacToe::new(), &mut by_outcome);
        assert_eq!(by_outcome, [131_184, 77_904, 46_080]);
        assert_eq!(perft(&TicTacToe::new(), 9), 255_168);
        assert_eq!(perft(&TicTacToe::new(), 20), 255_168);
        // Depths 1..=4 have no finished games yet: 9, 9*8, 9*8*7, 9*8*7*6.
        let counts: Vec<u64> = (1..=4).map(|d| perft(&TicTacToe::new(), d)).collect();
        assert_eq!(counts, [9, 72, 504, 3024]);
    }

    #[test]
    fn rejects_bad_text() {
        assert!(matches!(
            "xxq......".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Character { character: 'q', .. })
        ));
        assert!(matches!(
            "xo".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Size { cells: 2, .. })
        ));
        assert!(matches!(
            "xx.......".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Unreachable { .. })
        ));
        assert!("d1".parse::<Cell>().is_err());
        assert!("a0".parse::<Cell>().is_err());
        assert!("a".parse::<Cell>().is_err());
        assert_eq!("B3".parse::<Cell>(), Ok(Cell::new(1, 2).unwrap()));
    }
}
