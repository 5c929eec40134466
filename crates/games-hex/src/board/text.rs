//! The drawing of a board (its `Display`); the text of [`Hex`](crate::Hex) is beside it, in
//! `hex.rs`.

use std::fmt;

use game_core::Player;

use super::HexBoard;
use crate::notation::Cell;

impl<const W: usize> fmt::Display for HexBoard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw(f, self.n, |cell| self.at(cell))
    }
}

/// Draws an `n`x`n` board as a rhombus, with `stone` saying what is on each cell.
pub(crate) fn draw(
    f: &mut fmt::Formatter<'_>,
    n: u8,
    stone: impl Fn(Cell) -> Option<Player>,
) -> fmt::Result {
    draw_with(f, n, |cell| symbol(stone(cell)))
}

/// How the drawing shows a cell with `stone` on it: `X` for Black, `O` for White, `.` empty.
pub(crate) fn symbol(stone: Option<Player>) -> char {
    match stone {
        Some(Player::Black) => 'X',
        Some(Player::White) => 'O',
        None => '.',
    }
}

/// Draws an `n`x`n` board as a rhombus, with `symbol` saying how to draw each cell.
pub(crate) fn draw_with(
    f: &mut fmt::Formatter<'_>,
    n: u8,
    symbol: impl Fn(Cell) -> char,
) -> fmt::Result {
    let letters: Vec<String> = (0..n).map(|c| char::from(b'a' + c).to_string()).collect();
    let letters = letters.join(" ");
    write!(f, "   {letters}")?;
    for row in 0..n {
        let number = u32::from(row) + 1;
        write!(f, "\n{:indent$}{number:>2}", "", indent = usize::from(row))?;
        for column in 0..n {
            write!(f, " {}", symbol(Cell::new(column, row)))?;
        }
        write!(f, " {number}")?;
    }
    write!(f, "\n{:indent$}{letters}", "", indent = usize::from(n) + 2)
}
