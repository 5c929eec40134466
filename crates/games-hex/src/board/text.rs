//! Hex's text: drawing boards, and the move lists and exchanged drawing of [`Hex`].

use std::fmt;

use game_core::{Game, Player};

use super::HexBoard;
use crate::hex::{Hex, with_board};
use crate::notation::{Cell, Move, MoveErrorKind, MovesError};

impl<const W: usize> fmt::Display for HexBoard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw(f, self.n, |cell| self.at(cell))
    }
}

/// Draws an `n`x`n` board as a rhombus, with `stone` saying what is on each cell.
fn draw(f: &mut fmt::Formatter<'_>, n: u8, stone: impl Fn(Cell) -> Option<Player>) -> fmt::Result {
    let letters: Vec<String> = (0..n).map(|c| char::from(b'a' + c).to_string()).collect();
    let letters = letters.join(" ");
    write!(f, "   {letters}")?;
    for row in 0..n {
        let number = u32::from(row) + 1;
        write!(f, "\n{:indent$}{number:>2}", "", indent = usize::from(row))?;
        for column in 0..n {
            let symbol = match stone(Cell::new(column, row)) {
                Some(Player::Black) => 'X',
                Some(Player::White) => 'O',
                None => '.',
            };
            write!(f, " {symbol}")?;
        }
        write!(f, " {number}")?;
    }
    write!(f, "\n{:indent$}{letters}", "", indent = usize::from(n) + 2)
}

impl Hex {
    /// The board drawn as GTP tools see it after a swap: each stone on the transposed cell
    /// in the other colour.
    ///
    /// Benzene and HexGui play the swap by exchanging the players' colours and leaving the
    /// stone where it is, where this crate moves the stone ([`Move::Swap`]). The two are the
    /// same game seen in a mirror; this draws the mirror image, for a GTP `showboard` after
    /// `swap-pieces`.
    ///
    /// ```
    /// let game = games_hex::Hex::with_swap(3)?.after_moves("a2 swap")?;
    /// assert_eq!(game.to_string_exchanged(), "   a b c
    ///  1 . . . 1
    ///   2 X . . 2
    ///    3 . . . 3
    ///      a b c");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_string_exchanged(&self) -> String {
        struct Exchanged<'a>(&'a Hex);
        impl fmt::Display for Exchanged<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let game = self.0;
                draw(f, game.size(), |cell| {
                    game.at(cell.transposed()).map(Player::opponent)
                })
            }
        }
        Exchanged(self).to_string()
    }

    /// This position after a list of moves such as `"a1 b2 c3"`, `"a1,b2"` or `"a1b2c3"`
    /// (cells and `swap`/`swap-pieces`, any case). `self` is left unchanged.
    ///
    /// # Errors
    ///
    /// [`MovesError`] names the first bad move, its number in the list, and why.
    pub fn after_moves(&self, text: &str) -> Result<Hex, MovesError> {
        let mut game = self.clone();
        for (index, token) in tokens(text).enumerate() {
            let error = |kind| MovesError {
                input: text.to_owned(),
                index,
                text: token.to_owned(),
                kind,
            };
            let action: Move = token.parse().map_err(|_| error(MoveErrorKind::NotAMove))?;
            game.check(action).map_err(error)?;
            game.play_unchecked(action);
        }
        Ok(game)
    }
}

/// The moves of a move list: cells (a letter and digits) and swaps, with or without separators.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
        if rest.is_empty() {
            return None;
        }
        let lower = rest.to_ascii_lowercase();
        let len = if lower.starts_with("swap-pieces") {
            "swap-pieces".len()
        } else if lower.starts_with("swap") {
            "swap".len()
        } else {
            // A letter, then its digits; anything else is a one-character bad token.
            let first = rest.chars().next().map_or(1, char::len_utf8);
            let digits = rest[first..].bytes().take_while(u8::is_ascii_digit).count();
            if rest.as_bytes()[0].is_ascii_alphabetic() {
                first + digits
            } else {
                first
            }
        };
        let (token, tail) = rest.split_at(len);
        rest = tail;
        Some(token)
    })
}

impl fmt::Display for Hex {
    /// The board as the usual rhombus, each row shifted half a cell further right, with column
    /// letters above and below and row numbers on both sides; `X` for Black (connects top and
    /// bottom), `O` for White (connects left and right), `.` for empty:
    ///
    /// ```
    /// let game = games_hex::Hex::new(3).unwrap().after_moves("a1 c3").unwrap();
    /// assert_eq!(game.to_string(), "   a b c
    ///  1 X . . 1
    ///   2 . . . 2
    ///    3 . . O 3
    ///      a b c");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_board!(&self.0, b => b.fmt(f))
    }
}
