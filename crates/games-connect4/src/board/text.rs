//! A Connect Four position's text: move strings and drawing.

use std::fmt;
use std::str::FromStr;

use game_core::{Game, Player};

use super::{Connect4, Connect4Board};
use crate::bits::Bits;
use crate::notation::{Column, MoveErrorKind, MovesError};

impl<B: Bits> Connect4Board<B> {
    /// This position after the moves of `moves`, a string of 1-based column digits such as
    /// `"4453"` (the format of the public Connect Four test sets). `self` is left unchanged.
    ///
    /// # Errors
    ///
    /// [`MovesError`] names the first bad move, its position in the string and why: not a
    /// column digit, off the board, a full column, or a move after the game ended.
    pub fn after_moves(&self, moves: &str) -> Result<Self, MovesError> {
        let mut board = self.clone();
        for (index, character) in moves.chars().enumerate() {
            let error = |kind| MovesError {
                input: moves.to_owned(),
                index,
                text: character.to_string(),
                kind,
            };
            let column = match character.to_digit(10) {
                Some(d @ 1..=9) => d as u8 - 1,
                _ => return Err(error(MoveErrorKind::NotAMove)),
            };
            if column >= board.width {
                return Err(error(MoveErrorKind::OffBoard {
                    column: column + 1,
                    width: board.width,
                }));
            }
            if board.won || board.plies() == board.cell_count() {
                return Err(error(MoveErrorKind::GameOver));
            }
            if !board.is_legal(Column::new(column)) {
                return Err(error(MoveErrorKind::ColumnFull { column: column + 1 }));
            }
            board.play_unchecked(Column::new(column));
        }
        Ok(board)
    }
}

impl FromStr for Connect4 {
    type Err = MovesError;

    /// The standard 7x6 board after a string of column digits, such as `"4453"`.
    fn from_str(moves: &str) -> Result<Self, Self::Err> {
        Connect4::new().after_moves(moves)
    }
}

impl<B: Bits> fmt::Display for Connect4Board<B> {
    /// The board as people draw it: top row first, `x` for Black (who moves first), `o` for
    /// White, `.` for empty, the column numbers underneath.
    ///
    /// ```
    /// let game: games_connect4::Connect4 = "4453".parse().unwrap();
    /// assert_eq!(game.to_string(), "\
    /// . . . . . . .
    /// . . . . . . .
    /// . . . . . . .
    /// . . . . . . .
    /// . . . o . . .
    /// . . o x x . .
    /// 1 2 3 4 5 6 7");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            for column in 0..self.width {
                let cell = match self.at(column, row) {
                    Some(Player::Black) => 'x',
                    Some(Player::White) => 'o',
                    None => '.',
                };
                let separator = if column + 1 < self.width { " " } else { "\n" };
                write!(f, "{cell}{separator}")?;
            }
        }
        for column in 1..=self.width {
            let separator = if column < self.width { " " } else { "" };
            write!(f, "{column}{separator}")?;
        }
        Ok(())
    }
}
