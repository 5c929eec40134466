//! `solve(state, time)`: the game's exact solver from Python (Connect Four's, Othello's
//! endgame search, Hex's for small boards, a brute-force one for tic-tac-toe).

use std::time::{Duration, Instant};

use arena::TextGame;
use game_core::solve::Proven;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::game::number;
use crate::interrupt;
use crate::report::wdl_text;

/// A solved position: the result with best play for the player to move, and the move that
/// keeps it.
#[pyclass(name = "Solution", module = "gamesearch", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PySolution {
    /// `"win"`, `"draw"` or `"loss"` for the player to move.
    pub(crate) result: &'static str,
    /// A best move's number (`None` when the game is over).
    pub(crate) action: Option<usize>,
    /// The best move in the game's notation.
    pub(crate) text: Option<String>,
    /// Moves to the end with best play, when the solver counts them.
    pub(crate) plies: Option<u32>,
    /// The final margin for the player to move (Othello's disc difference), when counted.
    pub(crate) margin: Option<i32>,
    /// Positions the solver visited.
    pub(crate) nodes: u64,
    /// Seconds it took.
    pub(crate) seconds: f64,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(result={:?}, move={}, plies={}, margin={}, nodes={}, seconds={:.3})",
            self.result,
            self.text.as_deref().unwrap_or("None"),
            self.plies.map_or("None".to_owned(), |p| p.to_string()),
            self.margin.map_or("None".to_owned(), |m| m.to_string()),
            self.nodes,
            self.seconds
        )
    }
}

fn solution(
    proven: Proven,
    action: Option<(usize, String)>,
    nodes: u64,
    seconds: f64,
) -> PySolution {
    let (action, text) = action.unzip();
    PySolution {
        result: wdl_text(proven.outcome),
        action,
        text,
        plies: proven.plies,
        margin: proven.margin,
        nodes,
        seconds,
    }
}

/// Solves `position` within `seconds`: the solution, or `None` when time ran out first.
pub(crate) fn solve<G: TextGame>(
    py: Python<'_>,
    position: &G,
    seconds: f64,
) -> PyResult<Py<PyAny>> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(PyValueError::new_err(format!(
            "time={seconds}: expected a number of seconds above 0"
        )));
    }
    if let Some(outcome) = position.status().outcome() {
        let proven = Proven::of_finished(outcome, position.to_move());
        return Ok(Py::new(py, solution(proven, None, 0, 0.0))?.into_any());
    }
    let clock = Instant::now();
    let deadline = clock + Duration::from_secs_f64(seconds.min(1e9));
    let owned = position.clone();
    let (found, nodes) = interrupt::run_detached(py, move || {
        let mut solver = G::solver();
        let found = solver.solve(&owned, Some(deadline)).best;
        (found, solver.nodes())
    })?;
    let elapsed = clock.elapsed().as_secs_f64();
    Ok(match found {
        None => py.None(),
        Some((action, proven)) => {
            let chosen = (number(position, action), action.to_string());
            Py::new(py, solution(proven, Some(chosen), nodes, elapsed))?.into_any()
        }
    })
}
