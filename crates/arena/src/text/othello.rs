//! Othello's text for the tools, with its score and its endgame solver.

use game_core::{Game, Outcome, Player, Scored, Status, solve::Solve};
use games_othello::{Heuristic, OthelloBoard, Square};
use search::{Agent, AgentSpec, SpecError};

use super::{SizeError, TextGame};

impl<const N: usize> TextGame for OthelloBoard<N> {
    // --- 1. Required ------------------------------------------------------------------------

    const NAME: &'static str = "othello";

    fn size_text(&self) -> String {
        format!("{N}x{N}")
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError> {
        match *dimensions {
            [n] | [n, _] if dimensions.iter().all(|&d| d as usize == N) => {
                debug_assert_eq!(n as usize, N);
                Ok(Self::new())
            }
            _ => Err(SizeError::Fixed {
                dimensions: dimensions.to_vec(),
                game: "Othello",
                size: self.size_text(),
            }),
        }
    }

    fn cleared(&self) -> Self {
        Self::new()
    }

    // --- 2. Tool text -----------------------------------------------------------------------

    fn final_score(&self) -> Option<String> {
        match self.status() {
            Status::Ongoing => None,
            Status::Over(Outcome::Draw) => Some("0".to_owned()),
            Status::Over(Outcome::Win(player)) => Some(format!(
                "{}+{}",
                if player == Player::Black { 'B' } else { 'W' },
                self.score_margin(player)
            )),
        }
    }

    // --- 3. Agents --------------------------------------------------------------------------

    const BEST: &'static str = "uct:playout=game,prior=game";

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, Heuristic::default(), games_othello::knowledge())
    }

    /// The exact endgame search (`games_othello::Endgame`), from as many empty squares as
    /// the move's time allows (about 20 for a second).
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(games_othello::Endgame::new())
    }

    // --- 5. Web drawing ---------------------------------------------------------------------

    /// Row 1 at the top, column a on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        let n = N as u8;
        (0..n)
            .map(|row| {
                (0..n)
                    .map(|column| self.at(Square::new(column, row)))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use games_othello::{Othello, Othello6};

    use super::super::MoveError;
    use super::*;

    #[test]
    fn bad_moves_are_explained() {
        let othello = Othello::new();
        let error = othello.parse_move("a1").unwrap_err();
        assert_eq!(
            error.to_string(),
            "a1 is not legal here (legal: d3 c4 f5 e6)"
        );
        assert!(matches!(error, MoveError::Illegal { legal, .. } if legal.len() == 4));
        assert!(othello.parse_move(" D3 ").is_ok());
    }

    #[test]
    fn sizes_change_within_what_the_type_allows() {
        assert!(Othello::new().resized(&[8]).is_ok());
        let error = Othello::new().resized(&[6]).unwrap_err();
        assert!(error.to_string().contains("--size"), "{error}");
        assert!(matches!(error, SizeError::Fixed { .. }));
        assert!(Othello6::new().resized(&[6, 6]).is_ok());
    }

    /// The `play` tool's legend names the marks the board is drawn with.
    #[test]
    fn the_marks_are_the_drawings() {
        let drawing = Othello::new().to_string();
        let [black, white] = Othello::MARKS;
        assert!(
            drawing.contains(black) && drawing.contains(white),
            "{drawing}"
        );
    }

    #[test]
    fn final_scores_name_the_winner_and_the_margin() {
        // One of the shortest Othello games: a wipe-out after nine moves.
        let othello = Othello::new().after_moves("d3c3b3d2e1d6d7e3f4").unwrap();
        assert_eq!(othello.final_score().as_deref(), Some("B+13"));
    }
}
