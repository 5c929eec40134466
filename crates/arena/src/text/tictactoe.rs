//! Tic-tac-toe's text for the tools: the smallest game, solved at once by every search.

use game_core::Player;
use game_core::tictactoe::{Cell, TicTacToe};

use super::{SizeError, TextGame};

impl TextGame for TicTacToe {
    // --- 1. Required ------------------------------------------------------------------------

    const NAME: &'static str = "tictactoe";

    fn size_text(&self) -> String {
        "3x3".to_owned()
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError> {
        match dimensions {
            [3] | [3, 3] => Ok(TicTacToe::new()),
            _ => Err(SizeError::Shape {
                dimensions: dimensions.to_vec(),
                expected: "3 (the board is 3x3)",
            }),
        }
    }

    fn cleared(&self) -> Self {
        TicTacToe::new()
    }

    // --- 2. Tool text -----------------------------------------------------------------------

    /// The board's drawing marks Black `x` and White `o`.
    const MARKS: [char; 2] = ['x', 'o'];

    // --- 3. Agents --------------------------------------------------------------------------

    /// UCT with MCTS-Solver: it proves the game a draw in a few thousand iterations.
    const BEST: &'static str = "uct:prove=true";

    // --- 5. Web drawing ---------------------------------------------------------------------

    /// The top row first, column a on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        (0..3)
            .map(|row| {
                (0..3)
                    .map(|column| self.at(Cell::new(column, row).expect("on the board")))
                    .collect()
            })
            .collect()
    }
}
