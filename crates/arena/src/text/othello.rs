//! Othello's text for the tools, with its score and its endgame solver.

use std::sync::Arc;
use std::time::Instant;

use game_core::{
    Game, Outcome, Player, Scored, Status, Wdl,
    solve::{Proven, Solve},
};
use games_othello::{Heuristic, Midgame, Move, Othello, OthelloBoard, Patterns, Square};
use search::{Agent, AgentSpec, Budget, Report, SpecError};

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

    /// On 8x8, `pvs` (alpha-beta on the learned patterns, exact endgames): 100% against the
    /// MCTS `best` at 100 ms a move (`docs/othello.md`); on 6x6, which has no trained
    /// weights, MCTS with the heuristic's prior and playouts.
    const BEST: &'static str = if N == 8 {
        "pvs"
    } else {
        "uct:playout=game,prior=game"
    };

    /// `pvs`: Othello's own alpha-beta on the learned patterns ([`games_othello::Midgame`]),
    /// 8x8 only.
    const AGENTS: &'static [&'static str] = &["pvs"];

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        if let Some(("pvs", settings)) = spec.own_agent() {
            return Ok(Box::new(Pvs::<N>::from_settings(spec, settings)?));
        }
        if N == 8 {
            // The depth-limited agents on the learned evaluation.
            return spec.build_with(seed, Learned, games_othello::knowledge());
        }
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

/// The learned evaluation ([`Patterns::standard`]) for the depth-limited agents on 8x8: the
/// same bits on the 8x8 type (only built for `N == 8`).
#[derive(Clone, Copy)]
struct Learned;

impl<const N: usize> game_core::Evaluator<OthelloBoard<N>> for Learned {
    fn evaluate(&self, position: &OthelloBoard<N>) -> i32 {
        let mover = position.to_move();
        Patterns::standard().value(position.bits(mover), position.bits(mover.opponent()))
    }
}

/// The `pvs` agent: [`Midgame`] (principal-variation alpha-beta on the learned patterns, then
/// the exact endgame) for the tools. Keys: `depth=N` (the deepest iteration: 60 by default
/// with a time budget, 8 without), `weights=FILE` (a weight file of `othello_train`, instead of
/// the built-in one), `exact=false` (no exact endgame), `probcut=false` (no ProbCut).
struct Pvs<const N: usize> {
    search: Midgame<Arc<Patterns>>,
    depth: Option<u32>,
    report: Option<Report<Move>>,
}

impl<const N: usize> Pvs<N> {
    fn from_settings(spec: &AgentSpec, settings: &[(String, String)]) -> Result<Self, SpecError> {
        let unsupported = |what: String| SpecError::Unsupported {
            spec: spec.to_string(),
            what,
        };
        if N != 8 {
            return Err(unsupported("pvs plays 8x8 Othello only".to_owned()));
        }
        let (mut weights, mut depth, mut exact, mut probcut) = (None, None, true, true);
        for (key, value) in settings {
            match key.as_str() {
                "weights" => {
                    let patterns = Patterns::read(std::path::Path::new(value))
                        .map_err(|e| unsupported(format!("weights={value}: {e}")))?;
                    weights = Some(Arc::new(patterns));
                }
                "depth" => {
                    depth = Some(
                        value
                            .parse::<u32>()
                            .ok()
                            .filter(|d| (1..=60).contains(d))
                            .ok_or_else(|| unsupported(format!("depth={value}: 1 to 60")))?,
                    );
                }
                "exact" => {
                    exact = value
                        .parse::<bool>()
                        .map_err(|_| unsupported(format!("exact={value}: true or false")))?;
                }
                "probcut" => {
                    probcut = value
                        .parse::<bool>()
                        .map_err(|_| unsupported(format!("probcut={value}: true or false")))?;
                }
                _ => {
                    return Err(unsupported(format!(
                        "pvs takes depth, weights, exact, probcut (and time, seed), not {key}"
                    )));
                }
            }
        }
        let weights = weights.unwrap_or_else(|| Arc::new(Patterns::standard().clone()));
        let mut search = Midgame::with_value(weights);
        if !exact {
            search = search.without_endgame();
        }
        if !probcut {
            search = search.without_probcut();
        }
        Ok(Pvs {
            search,
            depth,
            report: None,
        })
    }
}

impl<const N: usize> Agent<OthelloBoard<N>> for Pvs<N> {
    fn choose(&mut self, position: &OthelloBoard<N>, budget: &Budget) -> Option<Move> {
        let start = Instant::now();
        let mover = position.to_move();
        // The same bits on the 8x8 type (`from_settings` refused other sizes).
        let board = Othello::from_discs(
            position.bits(Player::Black),
            position.bits(Player::White),
            mover,
        );
        let deadline = budget.time.map(|t| start + t);
        let depth = self
            .depth
            .unwrap_or(if deadline.is_some() { 60 } else { 8 });
        self.search.set_stop(budget.stop.clone());
        let thought = self.search.think(&board, deadline, depth)?;
        let mut report = Report::new(Some(thought.best), thought.nodes, start.elapsed());
        report.nodes = thought.nodes as usize;
        report.depth = thought.depth;
        report.principal_variation = thought.line.clone();
        // In discs times 32, as the patterns count.
        report.score = Some(thought.score);
        if thought.exact {
            let margin = thought.score / games_othello::pattern::UNIT;
            let outcome = match margin.signum() {
                1 => Wdl::Win,
                -1 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            report.proven = Some(Proven::new(outcome).with_margin(margin));
        }
        self.report = Some(report);
        Some(thought.best)
    }

    fn report(&self) -> Option<&Report<Move>> {
        self.report.as_ref()
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
