//! Python bindings of gamesearch: the native module `gamesearch._native` behind the Python
//! package `gamesearch` (`pip install ./crates/python`; `docs/python.md`).
//!
//! OpenSpiel-style games and states (`game.rs`), agents from spec strings (`agent.rs`) with
//! their reports (`report.rs`), a Python callable as the batched search's evaluator
//! (`evaluator.rs`), the exact solvers (`exact.rs`) and matches (`matches.rs`); `interrupt.rs`
//! runs long work with the GIL released and Ctrl-C heard. Each class is written once for every
//! game through `arena::TextGame`, behind object-safe traits, so that Python sees one `Game`,
//! `State` and `Agent` class.
//!
//! ```python
//! import gamesearch
//! game = gamesearch.load_game("connect4")
//! state = game.new_initial_state()
//! agent = gamesearch.Agent(game, "best:iterations=2000", seed=1)
//! state.apply_action(agent.step(state))
//! ```

mod agent;
mod erased;
mod evaluator;
mod exact;
mod game;
mod interrupt;
mod matches;
mod report;

use arena::Format;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::game::{ActionRef, PyGame, PyState};

create_exception!(
    gamesearch,
    GameError,
    PyValueError,
    "A game or its parameters that this library cannot make."
);
create_exception!(
    gamesearch,
    IllegalActionError,
    PyValueError,
    "An action that is not legal in the state (or not an action of the game)."
);
create_exception!(
    gamesearch,
    SpecError,
    PyValueError,
    "An agent spec that does not parse, or asks for what the game does not have."
);

/// `load_game(name, **parameters)`: `"hex"` (`size` 1 to 19, default 11; `swap`),
/// `"othello"` (`size` 8 or 6), `"connect4"` (`rows`, `columns`; 6 and 7 by default) or
/// `"tictactoe"`; OpenSpiel's `"connect_four"`, `"tic_tac_toe"` and `board_size` are accepted.
#[pyfunction]
#[pyo3(signature = (name, **parameters))]
fn load_game(name: &str, parameters: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    game::load(name, parameters)
}

/// `solve(state, time=10.0)`: the exact result of `state` with best play, and a best move, by
/// the game's solver; `None` when `time` seconds are not enough.
#[pyfunction]
#[pyo3(signature = (state, time=10.0))]
fn solve(py: Python<'_>, state: &PyState, time: f64) -> PyResult<Py<PyAny>> {
    let game = state.inner.game();
    game.solve(py, &*state.inner, time)
}

/// `play_match(game, agents, games=2, seed=1, threads=1, openings=None,
/// format="round-robin", on_game=None)`: `games` games between each pair of agents (spec
/// strings), colours alternating, and the results as a dict.
#[pyfunction]
#[pyo3(signature = (game, agents, games=2, seed=1, threads=1, openings=None, format="round-robin", on_game=None))]
#[allow(clippy::too_many_arguments)]
fn play_match(
    py: Python<'_>,
    game: &PyGame,
    agents: Vec<String>,
    games: u32,
    seed: u64,
    threads: usize,
    openings: Option<Vec<Bound<'_, PyAny>>>,
    format: &str,
    on_game: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let format: Format = format.parse().map_err(PyValueError::new_err)?;
    let openings = openings
        .unwrap_or_default()
        .into_iter()
        .map(|opening| -> PyResult<Vec<ActionRef>> {
            if let Ok(text) = opening.extract::<String>() {
                Ok(text
                    .split_whitespace()
                    .map(|m| ActionRef::Text(m.to_owned()))
                    .collect())
            } else {
                opening.extract()
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(callback) = &on_game
        && !callback.bind(py).is_callable()
    {
        return Err(PyValueError::new_err("on_game: expected a callable"));
    }
    game.inner.play_match(
        py,
        matches::Request {
            specs: agents,
            games,
            seed,
            threads,
            format,
            openings,
            on_game,
        },
    )
}

/// The native module; `gamesearch/__init__.py` re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GameError", m.py().get_type::<GameError>())?;
    m.add(
        "IllegalActionError",
        m.py().get_type::<IllegalActionError>(),
    )?;
    m.add("SpecError", m.py().get_type::<SpecError>())?;
    m.add("TERMINAL", game::TERMINAL)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<report::PyReport>()?;
    m.add_class::<report::PyMoveStats>()?;
    m.add_class::<report::PyProof>()?;
    m.add_class::<exact::PySolution>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    Ok(())
}
