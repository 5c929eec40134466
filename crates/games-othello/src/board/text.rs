//! An Othello position's text: board strings, move lists, and drawing.

use std::fmt;
use std::str::FromStr;

use game_core::{Game, Player, Status};

use super::OthelloBoard;
use crate::notation::{Move, MoveErrorKind, MovesError, ParseBoardError, Square};

impl<const N: usize> OthelloBoard<N> {
    /// This position after a list of moves such as `"d3c5f6"` or `"f5 d6 c3 pass"`: squares
    /// and `pass`, with or without spaces, any case. A pass that the rules force may be left
    /// out, as game records do. `self` is left unchanged.
    ///
    /// # Errors
    ///
    /// [`MovesError`] names the first bad move, its number in the list, and why.
    pub fn after_moves(&self, text: &str) -> Result<Self, MovesError> {
        let mut board = self.clone();
        let bytes = text.as_bytes();
        let (mut at, mut index) = (0, 0);
        while at < bytes.len() {
            if bytes[at].is_ascii_whitespace() {
                at += 1;
                continue;
            }
            let is_pass = text[at..].to_ascii_lowercase().starts_with("pass");
            let token = match is_pass {
                true => &text[at..at + 4],
                false => text.get(at..at + 2).unwrap_or(&text[at..]),
            };
            let error = |kind| MovesError {
                input: text.to_owned(),
                index,
                text: token.to_owned(),
                kind,
            };
            let action = match (is_pass, token.parse::<Square>()) {
                (true, _) => Move::Pass,
                (false, Ok(square)) if square.fits(Self::N) => Move::Place(square),
                (false, Ok(square)) => return Err(error(MoveErrorKind::OffBoard(square))),
                (false, Err(_)) => return Err(error(MoveErrorKind::NotAMove)),
            };
            if board.over {
                return Err(error(MoveErrorKind::GameOver));
            }
            if matches!(action, Move::Place(_)) && board.moves == 0 {
                board.play_unchecked(Move::Pass); // a forced pass, left out of the record
            }
            if !board.is_legal(action) {
                return Err(error(MoveErrorKind::Illegal(action)));
            }
            board.play_unchecked(action);
            at += token.len();
            index += 1;
        }
        Ok(board)
    }

    /// The position as a board string: `N * N` cells, row by row from the top, `X` for Black,
    /// `O` for White, `-` for empty; a space; and `X` or `O` for the player to move. The
    /// inverse of [`FromStr`].
    ///
    /// ```
    /// use games_othello::Othello6;
    ///
    /// let start = Othello6::new();
    /// assert_eq!(start.to_board_string(), "--------------OX----XO-------------- X");
    /// assert_eq!(start.to_board_string().parse::<Othello6>().unwrap(), start);
    /// ```
    #[must_use]
    pub fn to_board_string(&self) -> String {
        let mut text = String::with_capacity(N * N + 2);
        for square in Square::all(Self::N) {
            text.push(match self.at(square) {
                Some(Player::Black) => 'X',
                Some(Player::White) => 'O',
                None => '-',
            });
        }
        text.push(' ');
        text.push(if self.to_move == Player::Black {
            'X'
        } else {
            'O'
        });
        text
    }
}

impl<const N: usize> FromStr for OthelloBoard<N> {
    type Err = ParseBoardError;

    /// Parses a board string (see [`OthelloBoard::to_board_string`]): `N * N` cells of `X`, `O` and
    /// `-` (whitespace between them is ignored), then `X` or `O` for the player to move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = |reason: String| ParseBoardError {
            input: s.to_owned(),
            reason,
        };
        let mut chars = s.chars().filter(|c| !c.is_whitespace());
        let (mut black, mut white) = (0u64, 0u64);
        for (i, square) in Square::all(Self::N).enumerate() {
            match chars.next() {
                Some('X' | 'x' | 'B' | 'b' | '*') => black |= square.bit(),
                Some('O' | 'o' | 'W' | 'w') => white |= square.bit(),
                Some('-' | '.') => {}
                Some(c) => {
                    return Err(error(format!(
                        "cell {} ({square}) is {c:?}, expected X, O or -",
                        i + 1
                    )));
                }
                None => return Err(error(format!("only {i} cells, expected {}", N * N))),
            }
        }
        let to_move = match chars.next() {
            Some('X' | 'x' | 'B' | 'b' | '*') => Player::Black,
            Some('O' | 'o' | 'W' | 'w') => Player::White,
            Some(c) => {
                return Err(error(format!(
                    "the player to move is {c:?}, expected X or O"
                )));
            }
            None => {
                return Err(error(
                    "the player to move (X or O) is missing after the cells".into(),
                ));
            }
        };
        if let Some(c) = chars.next() {
            return Err(error(format!("unexpected {c:?} after the player to move")));
        }
        Ok(Self::from_discs(black, white, to_move))
    }
}

impl<const N: usize> fmt::Display for OthelloBoard<N> {
    /// The board with coordinates, `X` for Black, `O` for White, `.` for empty, `*` where the
    /// player to move may play:
    ///
    /// ```
    /// let text = games_othello::Othello6::new().to_string();
    /// assert_eq!(text, "  a b c d e f
    /// 1 . . . . . .
    /// 2 . . * . . .
    /// 3 . * O X . .
    /// 4 . . X O * .
    /// 5 . . . * . .
    /// 6 . . . . . .
    /// X to move");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " ")?;
        for column in 0..N {
            write!(f, " {}", char::from(b'a' + column as u8))?;
        }
        for row in 0..N {
            write!(f, "\n{}", row + 1)?;
            for column in 0..N {
                let square = Square::new(column as u8, row as u8);
                let cell = match self.at(square) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None if self.moves & square.bit() != 0 => '*',
                    None => '.',
                };
                write!(f, " {cell}")?;
            }
        }
        match self.status() {
            Status::Ongoing => {
                let mover = if self.to_move == Player::Black {
                    'X'
                } else {
                    'O'
                };
                write!(f, "\n{mover} to move")?;
                if self.moves == 0 {
                    write!(f, " (must pass)")?;
                }
                Ok(())
            }
            Status::Over(outcome) => write!(
                f,
                "\ngame over, {outcome}: X {} O {}",
                self.discs(Player::Black),
                self.discs(Player::White)
            ),
        }
    }
}
