//! Connect Four's text for the tools, with its solver and opening book.

use std::fmt;

use game_core::{Game, Player, solve::Solve};
use games_connect4::{Bits, Column, Connect4Board};
use search::{Agent, AgentSpec, SpecError};

use super::{MoveError, SizeError, TextGame};

/// Why Connect Four refuses a column that reads as one.
#[derive(Debug)]
enum Refusal {
    /// The board is narrower.
    OffBoard { column: Column, width: u8 },
    /// The column is full.
    Full(Column),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::OffBoard { column, width } => {
                write!(
                    f,
                    "there is no column {column}: the board has {width} columns"
                )
            }
            Refusal::Full(column) => write!(f, "column {column} is full"),
        }
    }
}

impl std::error::Error for Refusal {}

impl<B: Bits + Send + Sync + 'static> TextGame for Connect4Board<B> {
    // --- 1. Required ------------------------------------------------------------------------

    const NAME: &'static str = "connect4";

    fn size_text(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError> {
        let [columns, rows] = *dimensions else {
            return Err(SizeError::Shape {
                dimensions: dimensions.to_vec(),
                expected: "columns and rows, as in `boardsize 7 6`",
            });
        };
        let side = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
        Self::with_size(side(columns), side(rows)).map_err(|e| SizeError::Refused {
            dimensions: dimensions.to_vec(),
            restart: e.available < 128,
            source: Box::new(e),
        })
    }

    fn cleared(&self) -> Self {
        Self::with_size(self.width(), self.height()).expect("the size of an existing board")
    }

    // --- 2. Tool text -----------------------------------------------------------------------

    /// The board's drawing marks Black `x` and White `o`.
    const MARKS: [char; 2] = ['x', 'o'];

    fn parse_move(&self, text: &str) -> Result<Column, MoveError> {
        let column: Column = text
            .trim()
            .parse()
            .map_err(|e| MoveError::Unreadable(Box::new(e)))?;
        let refused = |refusal| Err(MoveError::Refused(Box::new(refusal)));
        if self.status().is_over() {
            Err(MoveError::Over)
        } else if column.index() >= self.width() {
            refused(Refusal::OffBoard {
                column,
                width: self.width(),
            })
        } else if !self.is_legal(column) {
            refused(Refusal::Full(column))
        } else {
            Ok(column)
        }
    }

    // --- 3. Agents --------------------------------------------------------------------------

    const BEST: &'static str = "uct:prior=game,playout=game";

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, |_: &Self| 0, games_connect4::knowledge())
    }

    /// Pons' method (`games_connect4::Solver`, 40 MB) with the opening book on 7x6, for
    /// boards of up to 55 bits (`width * (height + 1)`); beyond, the fallback plays.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        let solver = games_connect4::Solver::new();
        Box::new(match games_connect4::Book::standard(7, 6) {
            Some(book) => solver.with_book(book),
            None => solver,
        })
    }

    // --- 5. Web drawing ---------------------------------------------------------------------

    /// The top row first, column 1 on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        (0..self.height())
            .rev()
            .map(|row| {
                (0..self.width())
                    .map(|column| self.at(column, row))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Outcome, Status};
    use games_connect4::Connect4;
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn bad_moves_are_explained() {
        let connect4: Connect4 = "444444".parse().unwrap();
        assert_eq!(
            connect4.parse_move("4").unwrap_err().to_string(),
            "column 4 is full"
        );
        assert_eq!(
            connect4.parse_move("9").unwrap_err().to_string(),
            "there is no column 9: the board has 7 columns"
        );
        let error = connect4.parse_move("x").unwrap_err();
        assert!(matches!(error, MoveError::Unreadable(_)));
        assert!(error.to_string().contains("not a column"));
    }

    #[test]
    fn sizes_change_within_what_the_type_allows() {
        let c4 = Connect4::new().resized(&[6, 5]).unwrap();
        assert_eq!(c4.size_text(), "6x5");
        let error = Connect4::new().resized(&[9, 7]).unwrap_err();
        assert!(error.to_string().contains("Connect4Large"), "{error}");
        assert!(
            error
                .to_string()
                .ends_with("; start the engine with --size 9x7"),
            "{error}"
        );
        assert!(matches!(
            Connect4::new().resized(&[7]),
            Err(SizeError::Shape { .. })
        ));
    }

    /// The `play` tool's legend names the marks the board is drawn with.
    #[test]
    fn the_marks_are_the_drawings() {
        let game: Connect4 = "45".parse().unwrap();
        let drawing = game.to_string();
        let [black, white] = Connect4::MARKS;
        assert!(
            drawing.contains(black) && drawing.contains(white),
            "{drawing}"
        );
    }

    #[test]
    fn final_scores_name_the_winner() {
        let won: Connect4 = "4455667".parse().unwrap();
        assert_eq!(won.final_score().as_deref(), Some("B+"));
        // Random games until one is drawn.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let draw = (0..100_000)
            .map(|_| {
                let mut game = Connect4::new();
                game.random_playout(&mut rng);
                game
            })
            .find(|game| game.status() == Status::Over(Outcome::Draw))
            .unwrap();
        assert_eq!(draw.final_score().as_deref(), Some("0"));
    }
}
