//! What a search found, as Python objects: `Report`, `MoveStats` and `Proof`.

use game_core::{Game, Wdl, solve::Proven};
use pyo3::prelude::*;
use search::Report;

use crate::game::number;

/// A result proven with best play, for the player to move: `result` is `"win"`, `"draw"` or
/// `"loss"`; `plies` (moves to the end) and `margin` (Othello's disc difference) when the
/// solver counts them.
#[pyclass(name = "Proof", module = "gamesearch", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PyProof {
    /// `"win"`, `"draw"` or `"loss"` for the player to move.
    pub(crate) result: &'static str,
    /// Moves to the end with best play, when known.
    pub(crate) plies: Option<u32>,
    /// The final score margin for the player to move, when the game has one.
    pub(crate) margin: Option<i32>,
}

#[pymethods]
impl PyProof {
    fn __repr__(&self) -> String {
        let mut text = format!("Proof(result={:?}", self.result);
        if let Some(plies) = self.plies {
            text.push_str(&format!(", plies={plies}"));
        }
        if let Some(margin) = self.margin {
            text.push_str(&format!(", margin={margin}"));
        }
        text + ")"
    }
}

pub(crate) fn wdl_text(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

impl From<Proven> for PyProof {
    fn from(proven: Proven) -> Self {
        PyProof {
            result: wdl_text(proven.outcome),
            plies: proven.plies,
            margin: proven.margin,
        }
    }
}

/// One root move after a search.
#[pyclass(name = "MoveStats", module = "gamesearch", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PyMoveStats {
    /// The action's number.
    pub(crate) action: usize,
    /// The move in the game's notation.
    pub(crate) text: String,
    /// Iterations through it.
    pub(crate) visits: u64,
    /// Its mean result for the player to move, 0 to 1 (Monte-Carlo searches; `None` when
    /// unvisited, and for alpha-beta, which gives a `score` instead).
    pub(crate) win_rate: Option<f64>,
    /// The result proven for the player to move if they play it: `"win"`, `"draw"`, `"loss"`
    /// or `None`.
    pub(crate) proven: Option<&'static str>,
}

#[pymethods]
impl PyMoveStats {
    fn __repr__(&self) -> String {
        format!(
            "MoveStats({} visits={} win_rate={} proven={})",
            self.text,
            self.visits,
            self.win_rate
                .map_or("None".to_owned(), |w| format!("{w:.3}")),
            self.proven.unwrap_or("None")
        )
    }
}

/// What the last search found: the chosen move, the most visited moves with their visits and
/// win rates, the expected line and any proven result.
#[pyclass(name = "Report", module = "gamesearch", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PyReport {
    /// The action chosen (its number), `None` when the game was over.
    pub(crate) action: Option<usize>,
    /// The chosen move in the game's notation.
    pub(crate) text: Option<String>,
    /// Iterations (playouts) of this search; for alpha-beta, positions visited.
    pub(crate) iterations: u64,
    /// Seconds the search took.
    pub(crate) seconds: f64,
    /// Iterations per second of this search.
    pub(crate) iterations_per_second: f64,
    /// Visits of the root, counting those kept from the last move by tree reuse.
    pub(crate) root_visits: u64,
    /// The root's moves, most visited first.
    pub(crate) moves: Vec<PyMoveStats>,
    /// The expected line of play, as action numbers.
    pub(crate) principal_variation: Vec<usize>,
    /// The expected line in the game's notation.
    pub(crate) principal_variation_text: Vec<String>,
    /// Nodes in the tree (alpha-beta: positions searched).
    pub(crate) nodes: usize,
    /// Alpha-beta's deepest completed depth (0 for Monte-Carlo searches).
    pub(crate) depth: u32,
    /// Alpha-beta's score for the player to move (centi-discs, or a decisive score).
    pub(crate) score: Option<i32>,
    /// The result proven for the player to move, if the search proved one.
    pub(crate) proven: Option<PyProof>,
    /// Whether the move came from the game's opening book.
    pub(crate) book: bool,
    /// The threads the search ran on.
    pub(crate) threads: usize,
    /// Whether those threads shared one tree under a lock (RAVE under PUCT, `expand=all`).
    pub(crate) locked: bool,
}

#[pymethods]
impl PyReport {
    fn __repr__(&self) -> String {
        format!(
            "Report(move={} iterations={} seconds={:.3} win_rate={} proven={} pv={})",
            self.text.as_deref().unwrap_or("None"),
            self.iterations,
            self.seconds,
            self.moves
                .first()
                .and_then(|m| m.win_rate)
                .map_or("None".to_owned(), |w| format!("{w:.3}")),
            self.proven
                .as_ref()
                .map_or("None".to_owned(), PyProof::__repr__),
            self.principal_variation_text.join(" ")
        )
    }
}

/// The report of a search of `position`, with the game's numbers and notation.
pub(crate) fn convert<G: Game>(position: &G, report: &Report<G::Action>) -> PyReport {
    let scored = report.score.is_some();
    let mut line = position.clone();
    let mut principal_variation = Vec::new();
    let mut principal_variation_text = Vec::new();
    for &action in &report.principal_variation {
        if !line.is_legal(action) {
            break;
        }
        principal_variation.push(number(&line, action));
        principal_variation_text.push(action.to_string());
        line.play(action);
    }
    let seconds = report.elapsed.as_secs_f64();
    PyReport {
        action: report.chosen.map(|a| number(position, a)),
        text: report.chosen.map(|a| a.to_string()),
        iterations: report.iterations,
        seconds,
        iterations_per_second: if seconds > 0.0 {
            report.iterations as f64 / seconds
        } else {
            0.0
        },
        root_visits: report.root_visits,
        moves: report
            .actions
            .iter()
            .map(|s| PyMoveStats {
                action: number(position, s.action),
                text: s.action.to_string(),
                visits: s.visits,
                win_rate: if scored || s.mean.is_nan() {
                    None
                } else {
                    Some(s.mean.clamp(0.0, 1.0))
                },
                proven: s.proof.map(wdl_text),
            })
            .collect(),
        principal_variation,
        principal_variation_text,
        nodes: report.nodes,
        depth: report.depth,
        score: report.score,
        proven: report.proven.map(PyProof::from),
        book: report.book,
        threads: report.threads,
        locked: report.locked,
    }
}
