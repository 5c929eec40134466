//! [`Book`]: an opening book of Connect Four positions with their exact scores and best moves.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use game_core::Game;
use thiserror::Error;

use crate::{Column, Connect4};

/// The book for 7x6 shipped with the crate (`book/7x6.txt`): built by the `connect4_book`
/// example, checked against Pascal Pons' solver (`docs/tools.md`).
const STANDARD: &str = include_str!("../book/7x6.txt");

/// An opening book: for each position in it, the exact score for the player to move (the
/// test sets' convention, as [`Solver::score`](crate::Solver::score)) and a move that achieves
/// it.
///
/// A position and its mirror image are one entry. The text format, one position per line, is
/// the test sets' with the move added: the moves from the empty board, the score, and the best
/// column (`4453 -2 3`); lines starting with `#` are comments. A last line without its newline
/// (a write cut short) is ignored, so that an interrupted build loses nothing it finished.
///
/// ```
/// use games_connect4::{Book, Connect4};
///
/// let book: Book = "# a tiny book\n44 0 4\n".parse()?;
/// let position: Connect4 = "44".parse()?;
/// assert_eq!(book.get(&position), Some(("4".parse()?, 0)));
/// // The mirror image of 43 is 45: one entry answers both, the move mirrored.
/// let book: Book = "43 -1 2\n".parse()?;
/// assert_eq!(book.get(&"45".parse()?), Some(("6".parse()?, -1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// By the canonical key: the score and the best column (0-based), in the canonical
    /// orientation.
    entries: HashMap<u64, (i8, u8)>,
}

/// What is wrong with a book's text.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("line {line} of the book: {reason}")]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl Book {
    /// The book shipped with the crate for `width`x`height` boards, read once: one for 7x6,
    /// `None` for every other size.
    ///
    /// # Panics
    ///
    /// If the shipped book does not parse (a test checks that it does).
    #[must_use]
    pub fn standard(width: u8, height: u8) -> Option<&'static Book> {
        static BOOK: OnceLock<Book> = OnceLock::new();
        ((width, height) == (7, 6))
            .then(|| BOOK.get_or_init(|| STANDARD.parse().expect("the shipped book parses")))
    }

    /// Positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The best move of `position` and its exact score, if the book has it.
    #[must_use]
    pub fn get(&self, position: &Connect4) -> Option<(Column, i32)> {
        let (key, mirrored) = canonical(position);
        let &(score, column) = self.entries.get(&key)?;
        let column = if mirrored {
            position.width() - 1 - column
        } else {
            column
        };
        Some((Column::new(column), i32::from(score)))
    }

    /// Adds `position` with its best move and exact score (replacing what the book had).
    pub fn insert(&mut self, position: &Connect4, best: Column, score: i32) {
        let (key, mirrored) = canonical(position);
        let column = if mirrored {
            position.width() - 1 - best.index()
        } else {
            best.index()
        };
        let score = i8::try_from(score).expect("Connect Four scores fit in a byte");
        self.entries.insert(key, (score, column));
    }

    /// The line of the text format for a position reached by `moves`, its best move and score.
    #[must_use]
    pub fn line(moves: &str, best: Column, score: i32) -> String {
        let mut line = String::new();
        let _ = writeln!(line, "{moves} {score} {best}");
        line
    }
}

impl std::str::FromStr for Book {
    type Err = BookError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut book = Book::default();
        // A last line without its newline is a write cut short: not part of the book.
        let complete = match text.rfind('\n') {
            Some(end) => &text[..=end],
            None => "",
        };
        for (number, line) in complete.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: String| BookError {
                line: number + 1,
                reason,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [moves, score, best] = fields[..] else {
                return Err(bad(format!("expected MOVES SCORE COLUMN, not {line:?}")));
            };
            // The empty board is written as `-`.
            let position: Connect4 = if moves == "-" {
                Connect4::new()
            } else {
                moves.parse().map_err(|e| bad(format!("{e}")))?
            };
            let score: i32 = score
                .parse()
                .ok()
                .filter(|s: &i32| s.abs() <= 64)
                .ok_or_else(|| bad(format!("{score:?} is not a score")))?;
            let best: Column = best.parse().map_err(|e| bad(format!("{e}")))?;
            if !position.is_legal(best) {
                return Err(bad(format!("{best} is not a legal move after {moves}")));
            }
            book.insert(&position, best, score);
        }
        Ok(book)
    }
}

/// The key of `position` or of its mirror image, whichever is smaller, and whether it is the
/// mirror's. Keys are the solver's (`current + mask`): one per position.
fn canonical(position: &Connect4) -> (u64, bool) {
    let (current, mask, ..) = position.raw();
    let key = current + mask;
    let height = u32::from(position.height()) + 1;
    let width = u32::from(position.width());
    let column = (1u64 << height) - 1;
    let mirror = |bits: u64| {
        (0..width).fold(0, |out, c| {
            out | ((bits >> (c * height)) & column) << ((width - 1 - c) * height)
        })
    };
    let mirrored = mirror(current) + mirror(mask);
    if mirrored < key {
        (mirrored, true)
    } else {
        (key, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_share_a_key() {
        let left: Connect4 = "1123".parse().unwrap();
        let right: Connect4 = "7765".parse().unwrap();
        assert_eq!(canonical(&left).0, canonical(&right).0);
        assert_ne!(canonical(&left).1, canonical(&right).1);
        let other: Connect4 = "1132".parse().unwrap();
        assert_ne!(canonical(&left).0, canonical(&other).0);
    }

    #[test]
    fn cut_lines_are_ignored_and_bad_lines_named() {
        let book: Book = "44 0 4\n4 -1".parse().unwrap();
        assert_eq!(book.len(), 1);
        let error = "44 0 4\n4 x 4\n".parse::<Book>().unwrap_err();
        assert_eq!(error.line, 2);
        assert!(
            "444444 0 4\n"
                .parse::<Book>()
                .unwrap_err()
                .reason
                .contains("not a legal")
        );
        assert!("44 0\n".parse::<Book>().is_err());
    }

    #[test]
    fn the_shipped_book_opens_with_the_known_result() {
        // Allis (1988), Tromp, Pons: the first player wins, by the centre column, with its
        // last stone (score 1).
        let book = Book::standard(7, 6).expect("the 7x6 book");
        assert_eq!(book.get(&Connect4::new()), Some((Column::new(3), 1)));
        assert!(Book::standard(6, 7).is_none());
    }
}
