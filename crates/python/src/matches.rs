//! `play_match`: the tournament machinery from Python, its results as plain Python data.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use arena::{
    Format, GameResult, Resign, Standings, TextGame, play_games_until, schedule_with_openings,
};
use game_core::{Outcome, Player};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::SpecError;
use crate::game::{ActionRef, AnyGame, GameOf, StateOf};
use crate::interrupt;

/// What `play_match` was asked.
pub(crate) struct Request {
    pub(crate) specs: Vec<String>,
    pub(crate) games: u32,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    pub(crate) format: Format,
    pub(crate) openings: Vec<Vec<ActionRef>>,
    pub(crate) on_game: Option<Py<PyAny>>,
}

fn game_dict<'py>(
    py: Python<'py>,
    specs: &[String],
    result: &GameResult,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let pairing = result.pairing;
    dict.set_item("number", pairing.number)?;
    dict.set_item("black", pairing.black)?;
    dict.set_item("white", pairing.white)?;
    dict.set_item("black_spec", &specs[pairing.black])?;
    dict.set_item("white_spec", &specs[pairing.white])?;
    dict.set_item("opening", pairing.opening)?;
    let (winner, returns) = match result.outcome {
        Outcome::Win(Player::Black) => (Some(pairing.black), [1.0, -1.0]),
        Outcome::Win(Player::White) => (Some(pairing.white), [-1.0, 1.0]),
        Outcome::Draw => (None, [0.0, 0.0]),
    };
    dict.set_item("winner", winner)?;
    dict.set_item("returns", returns.to_vec())?;
    dict.set_item("plies", result.plies)?;
    dict.set_item("seconds", result.seconds)?;
    Ok(dict)
}

/// Plays the match and returns its dictionary (see the stub file for its keys).
pub(crate) fn play<G: TextGame>(
    py: Python<'_>,
    game: &GameOf<G>,
    request: Request,
) -> PyResult<Py<PyAny>> {
    if request.specs.len() < 2 {
        return Err(PyValueError::new_err(
            "play_match: expected at least two agents",
        ));
    }
    if request.threads == 0 {
        return Err(PyValueError::new_err(
            "play_match: threads must be at least 1",
        ));
    }
    let specs = request
        .specs
        .iter()
        .map(|text| G::parse_agent(text).map_err(|e| SpecError::new_err(e.to_string())))
        .collect::<PyResult<Vec<_>>>()?;
    let mut starts = Vec::new();
    for (i, moves) in request.openings.iter().enumerate() {
        let state = game
            .state_from(moves)
            .map_err(|e| PyValueError::new_err(format!("opening {}: {e}", i + 1)))?;
        let state = state
            .as_any()
            .downcast_ref::<StateOf<G>>()
            .expect("a state of this game");
        if state.position.status().is_over() {
            return Err(PyValueError::new_err(format!(
                "opening {}: the game is over",
                i + 1
            )));
        }
        starts.push(state.position.clone());
    }
    if starts.is_empty() {
        starts.push(game.start().clone());
    }
    let pairings = schedule_with_openings(
        specs.len(),
        request.format,
        request.games,
        u32::try_from(starts.len()).unwrap_or(u32::MAX),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(request.threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("play_match: {e}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let texts = request.specs.clone();
    let on_game = request.on_game;
    let results = interrupt::run(
        py,
        &stop,
        |events: &interrupt::Events<GameResult, _>| {
            pool.install(|| {
                play_games_until(
                    &starts,
                    &specs,
                    &pairings,
                    request.seed,
                    Resign::NEVER,
                    &stop,
                    |result| {
                        events.send(*result);
                    },
                )
            })
        },
        |py, result: GameResult| match &on_game {
            Some(callback) => callback
                .call1(py, (game_dict(py, &texts, &result)?,))
                .map(|_| ()),
            None => Ok(()),
        },
    )?
    .map_err(|e| SpecError::new_err(e.to_string()))?;

    let mut standings = Standings::new(texts.clone());
    for result in &results {
        standings.add(result);
    }
    let out = PyDict::new(py);
    out.set_item("agents", texts.clone())?;
    let games = PyList::empty(py);
    for result in &results {
        games.append(game_dict(py, &texts, result)?)?;
    }
    out.set_item("games", games)?;
    let ratings = standings.ratings();
    let scores = PyList::empty(py);
    for (i, rating) in ratings.iter().enumerate() {
        let score = standings.total(i);
        let entry = PyDict::new(py);
        entry.set_item("agent", &texts[i])?;
        entry.set_item("games", score.games())?;
        entry.set_item("wins", score.wins)?;
        entry.set_item("draws", score.draws)?;
        entry.set_item("losses", score.losses)?;
        entry.set_item("rate", score.rate())?;
        entry.set_item("interval95", score.interval95())?;
        entry.set_item("elo", rating.elo)?;
        entry.set_item("elo_margin95", rating.margin)?;
        scores.append(entry)?;
    }
    out.set_item("scores", scores)?;
    // rate[i][j]: agent i's share of the points against agent j (None where they did not meet).
    let n = texts.len();
    let table: Vec<Vec<Option<f64>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let s = standings.against(i, j);
                    (s.games() > 0).then(|| s.rate())
                })
                .collect()
        })
        .collect();
    out.set_item("table", table)?;
    out.set_item("by_colour", standings.by_colour().to_vec())?;
    out.set_item("complete", results.len() == pairings.len())?;
    Ok(out.into_any().unbind())
}
