//! [`Book`]: an opening book of Hex positions, each with the moves a long search preferred.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use game_core::{Game, Player};
use thiserror::Error;

use crate::{Cell, Hex, Move};

/// The 9x9 book shipped with the crate (`data/book-9x9.txt`), built by the `hex_book` example.
const BOOK_9X9: &str = include_str!("../data/book-9x9.txt");

/// One move of a book position: how much of a long search it drew and how it scored there.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct BookMove {
    /// The move.
    pub action: Move,
    /// Its share of the search's visits (0 to 1).
    pub share: f32,
    /// Its mean reward in the search, for the player making it (0 to 1; a proven win 1, a
    /// proven loss 0).
    pub mean: f32,
}

/// An opening book: for each position in it, the moves a long search of the position
/// preferred, the one to play first.
///
/// A position and its half turn (the board rotated by 180 degrees, which keeps each player's
/// edges) are one entry. The text format, one position per line: the moves from the empty
/// board (`-` for none), a colon, then each move with its share of the search's visits and its
/// mean reward, separated by commas, the move to play first:
///
/// ```text
/// # comments start with '#'
/// hex 9
/// a1 : e5 0.412 0.634, d6 0.201 0.618
/// ```
///
/// The `hex SIZE` line (`hex SIZE swap` for games with the swap rule) comes before the
/// positions. A last line without its newline (a write cut short) is ignored, so that an
/// interrupted build loses nothing it finished.
///
/// ```
/// use games_hex::{Book, Hex};
///
/// let book: Book = "hex 5\n- : c3 0.9 0.75\nc3 : b4 0.3 0.2, c2 0.2 0.2\n".parse()?;
/// let position = Hex::new(5)?.after_moves("c3")?;
/// assert_eq!(book.best(&position), Some("b4".parse()?));
/// // The half turn of a1 is e5: the same entry, its moves turned too.
/// let book: Book = "hex 5\na1 : d2 0.5 0.4\n".parse()?;
/// assert_eq!(book.best(&Hex::new(5)?.after_moves("e5")?), Some("b4".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The board's side, and whether its games have the swap rule.
    size: u8,
    swap: bool,
    /// By canonical key: the moves, in the canonical orientation, the one to play first.
    entries: HashMap<Vec<u8>, Vec<BookMove>>,
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
    /// An empty book for `size`x`size` games, with or without the swap rule.
    ///
    /// # Panics
    ///
    /// If `size` is not a Hex size ([`Hex::new`]).
    #[must_use]
    pub fn new(size: u8, swap: bool) -> Book {
        assert!(Hex::new(size).is_ok(), "no {size}x{size} Hex");
        Book {
            size,
            swap,
            entries: HashMap::new(),
        }
    }

    /// The book shipped with the crate for `size`x`size` games (9x9, without the swap rule),
    /// read once; `None` for other sizes.
    ///
    /// # Panics
    ///
    /// If the shipped book does not parse (a test checks that it does).
    #[must_use]
    pub fn standard(size: u8) -> Option<&'static Book> {
        static BOOK_9: OnceLock<Book> = OnceLock::new();
        match size {
            9 => Some(BOOK_9.get_or_init(|| BOOK_9X9.parse().expect("the shipped book parses"))),
            _ => None,
        }
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether the book is for games with the swap rule.
    #[must_use]
    pub fn swap_rule(&self) -> bool {
        self.swap
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

    /// The moves the book has for `position`, the one to play first; `None` when the position
    /// is not in it (another board, or a game whose swap rule differs while the swap is
    /// still to come).
    #[must_use]
    pub fn get(&self, position: &Hex) -> Option<Vec<BookMove>> {
        if position.size() != self.size {
            return None;
        }
        let (key, turned) = key(position);
        let moves = self.entries.get(&key)?;
        Some(
            moves
                .iter()
                .map(|m| BookMove {
                    action: orient(m.action, self.size, turned),
                    ..*m
                })
                .collect(),
        )
    }

    /// The move the book plays in `position`, if it has the position and the move is legal
    /// there.
    #[must_use]
    pub fn best(&self, position: &Hex) -> Option<Move> {
        let action = self.get(position)?.first()?.action;
        position.check(action).is_ok().then_some(action)
    }

    /// Whether the book has `position`.
    #[must_use]
    pub fn contains(&self, position: &Hex) -> bool {
        position.size() == self.size && self.entries.contains_key(&key(position).0)
    }

    /// Adds `position` with its moves, the one to play first (replacing what the book had).
    ///
    /// # Panics
    ///
    /// If `position` is of another size than the book's.
    pub fn insert(&mut self, position: &Hex, moves: &[BookMove]) {
        assert_eq!(position.size(), self.size, "a position of another size");
        let (key, turned) = key(position);
        let moves = moves
            .iter()
            .map(|m| BookMove {
                action: orient(m.action, self.size, turned),
                ..*m
            })
            .collect();
        self.entries.insert(key, moves);
    }

    /// The header line of a book of this size: `hex 9`, or `hex 9 swap`.
    #[must_use]
    pub fn header(&self) -> String {
        format!(
            "hex {}{}\n",
            self.size,
            if self.swap { " swap" } else { "" }
        )
    }

    /// The line of the text format for the position reached by `history` (the moves from the
    /// empty board) and its moves.
    #[must_use]
    pub fn line(history: &[Move], moves: &[BookMove]) -> String {
        let mut line = String::new();
        if history.is_empty() {
            line.push('-');
        }
        for (i, m) in history.iter().enumerate() {
            let _ = write!(line, "{}{m}", if i == 0 { "" } else { " " });
        }
        line.push_str(" :");
        for (i, m) in moves.iter().enumerate() {
            let _ = write!(
                line,
                "{} {} {:.3} {:.3}",
                if i == 0 { "" } else { "," },
                m.action,
                m.share,
                m.mean
            );
        }
        line.push('\n');
        line
    }

    /// The empty board of the book's games.
    ///
    /// # Panics
    ///
    /// Never: the size was checked when the book was made.
    #[must_use]
    pub fn start(&self) -> Hex {
        if self.swap {
            Hex::with_swap(self.size)
        } else {
            Hex::new(self.size)
        }
        .expect("a checked size")
    }
}

/// The move as it stands in the other orientation when `turned`.
fn orient(action: Move, size: u8, turned: bool) -> Move {
    match action {
        Move::Place(cell) if turned => Move::Place(half_turn(cell, size)),
        other => other,
    }
}

fn half_turn(cell: Cell, size: u8) -> Cell {
    Cell::new(size - 1 - cell.column(), size - 1 - cell.row())
}

/// The canonical key of a position (each cell's state, then the player to move and whether a
/// swap may still come, of the smaller of the position and its half turn), and whether the
/// half turn gave it.
fn key(position: &Hex) -> (Vec<u8>, bool) {
    let n = position.size();
    let state = |cell: Cell| match position.at(cell) {
        None => 0,
        Some(Player::Black) => 1,
        Some(Player::White) => 2,
    };
    let cells = (0..n).flat_map(|row| (0..n).map(move |column| Cell::new(column, row)));
    let tail = [
        position.to_move().index() as u8,
        u8::from(position.swap_rule() && position.plies() < 2),
    ];
    let plain: Vec<u8> = cells.clone().map(state).chain(tail).collect();
    let turned: Vec<u8> = cells
        .map(|cell| state(half_turn(cell, n)))
        .chain(tail)
        .collect();
    if turned < plain {
        (turned, true)
    } else {
        (plain, false)
    }
}

impl std::str::FromStr for Book {
    type Err = BookError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut book: Option<Book> = None;
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
            let Some(book) = &mut book else {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let (size, swap) = match fields[..] {
                    ["hex", size] => (size, false),
                    ["hex", size, "swap"] => (size, true),
                    _ => return Err(bad(format!("expected `hex SIZE` first, not {line:?}"))),
                };
                let size = size
                    .parse::<u8>()
                    .ok()
                    .filter(|&n| Hex::new(n).is_ok())
                    .ok_or_else(|| bad(format!("no Hex size {size:?} (1 to 19)")))?;
                book = Some(Book::new(size, swap));
                continue;
            };
            let Some((history, moves)) = line.split_once(':') else {
                return Err(bad(format!(
                    "expected MOVES : MOVE SHARE MEAN, ... not {line:?}"
                )));
            };
            let history = history.trim();
            let position = if history == "-" {
                book.start()
            } else {
                book.start()
                    .after_moves(history)
                    .map_err(|e| bad(e.to_string()))?
            };
            if position.status().is_over() {
                return Err(bad(format!("the game is over after {history}")));
            }
            let mut entry = Vec::new();
            for part in moves.split(',') {
                let fields: Vec<&str> = part.split_whitespace().collect();
                let [action, share, mean] = fields[..] else {
                    return Err(bad(format!(
                        "expected MOVE SHARE MEAN, not {:?}",
                        part.trim()
                    )));
                };
                let action: Move = action
                    .parse()
                    .map_err(|e| bad(format!("{action:?}: {e}")))?;
                position
                    .check(action)
                    .map_err(|e| bad(format!("{action} after {history}: {e}")))?;
                let number = |text: &str| {
                    text.parse::<f32>()
                        .ok()
                        .filter(|v| (0.0..=1.0).contains(v))
                        .ok_or_else(|| bad(format!("{text:?} is not a number from 0 to 1")))
                };
                entry.push(BookMove {
                    action,
                    share: number(share)?,
                    mean: number(mean)?,
                });
            }
            book.insert(&position, &entry);
        }
        book.ok_or_else(|| BookError {
            line: 0,
            reason: "no `hex SIZE` line".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let history: Vec<Move> = ["a1", "e5", "f4"].map(|m| m.parse().unwrap()).to_vec();
        let moves = [
            BookMove {
                action: "c7".parse().unwrap(),
                share: 0.5,
                mean: 0.625,
            },
            BookMove {
                action: "d6".parse().unwrap(),
                share: 0.25,
                mean: 0.5,
            },
        ];
        let text = Book::new(9, false).header() + &Book::line(&history, &moves);
        let book: Book = text.parse().unwrap();
        let position = Hex::new(9).unwrap().after_moves("a1 e5 f4").unwrap();
        assert_eq!(book.get(&position).unwrap(), moves);
        assert_eq!(book.best(&position), Some(moves[0].action));
        assert!(book.get(&Hex::new(9).unwrap()).is_none());
        assert!(
            book.get(&Hex::new(7).unwrap().after_moves("a1 e5 f4").unwrap())
                .is_none()
        );
    }

    #[test]
    fn bad_text_is_refused_with_its_line() {
        for (text, line) in [
            ("a1 : b2 0.5 0.5\n", 1),
            ("hex 20\n", 1),
            ("hex 9\n# fine\na1 : a1 0.5 0.5\n", 3),
            ("hex 9\na1 : b2 0.5\n", 2),
            ("hex 9\na1 : b2 0.5 1.5\n", 2),
            ("hex 9\nz9 : b2 0.5 0.5\n", 2),
            ("hex 9\na1 b2\n", 2),
        ] {
            let error = text.parse::<Book>().unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
        // A last line cut short is not read.
        let book: Book = "hex 9\na1 : b2 0.5 0.5\na2 : b".parse().unwrap();
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn the_swap_rule_matters_only_before_the_second_move() {
        let mut book = Book::new(9, true);
        let moves = |m: &str| {
            [BookMove {
                action: m.parse().unwrap(),
                share: 1.0,
                mean: 0.5,
            }]
        };
        book.insert(&Hex::with_swap(9).unwrap(), &moves("b2"));
        book.insert(
            &Hex::with_swap(9).unwrap().after_moves("e5 d4").unwrap(),
            &moves("c3"),
        );
        assert_eq!(
            book.best(&Hex::with_swap(9).unwrap()),
            Some("b2".parse().unwrap())
        );
        assert_eq!(book.best(&Hex::new(9).unwrap()), None);
        let later = Hex::new(9).unwrap().after_moves("e5 d4").unwrap();
        assert_eq!(book.best(&later), Some("c3".parse().unwrap()));
    }

    #[test]
    fn the_shipped_book_parses_and_plays_legal_moves() {
        let book = Book::standard(9).expect("a 9x9 book");
        assert!(!book.is_empty());
        assert!(Book::standard(11).is_none());
        let complete = &BOOK_9X9[..=BOOK_9X9.rfind('\n').unwrap()];
        let mut positions = 0;
        for (line, text) in complete.lines().enumerate() {
            let Some((history, _)) = text.split_once(':').filter(|_| !text.starts_with('#')) else {
                continue;
            };
            positions += 1;
            let history = history.trim();
            let start = book.start();
            let position = if history == "-" {
                start
            } else {
                start.after_moves(history).unwrap()
            };
            let best = book.best(&position);
            assert!(best.is_some(), "line {}: no legal move", line + 1);
        }
        // Each line a position of its own (the builder searches each once).
        assert_eq!(book.len(), positions);
    }
}
