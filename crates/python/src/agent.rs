//! Agents from spec strings: `Agent(game, "best:time=1s", seed=1)`, `step` and `analyse`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arena::TextGame;
use game_core::knowledge::Knowledge;
use game_core::mix64;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use search::{Agent, AgentSpec, BatchedUct, Budget};

use crate::SpecError;
use crate::evaluator::{EvaluatorSpec, PyEvaluator};
use crate::game::{AnyState, GameOf, PyGame, PyState, StateOf, downcast};
use crate::interrupt;
use crate::report::{PyReport, convert};

/// An agent as Python holds it.
pub(crate) trait AnyAgent: Send + 'static {
    /// Searches `state` and reports what it found (and the chosen action).
    fn search(&mut self, py: Python<'_>, state: &dyn AnyState) -> PyResult<PyReport>;
    /// The spec the agent was built from.
    fn spec(&self) -> String;
    /// The game it plays.
    fn game(&self) -> String;
}

/// The agent of one game: the search, and the moves it has been told of, so that the tree
/// is reused from move to move as the Rust tools reuse it.
struct AgentOf<G: TextGame> {
    game: Arc<GameOf<G>>,
    spec: AgentSpec,
    seed: u64,
    evaluator: Option<EvaluatorSpec>,
    agent: Box<dyn Agent<G> + Send>,
    /// How many times the agent has been built (a new game, a state it cannot follow): each
    /// build gets its own seed, so that the games of a series differ and still repeat.
    builds: u64,
    /// The moves from the start the agent has heard, and the position they lead to.
    heard: Vec<G::Action>,
    position: G,
    /// Set by Ctrl-C or a failing evaluator: the search ends at once.
    stop: Arc<AtomicBool>,
    /// Whether the last search was cut short by an error: the tree may hold what it left,
    /// so the next search starts afresh.
    broken: bool,
}

fn make<G: TextGame>(
    spec: &AgentSpec,
    seed: u64,
    evaluator: Option<&EvaluatorSpec>,
    start: &G,
    stop: &Arc<AtomicBool>,
) -> PyResult<Box<dyn Agent<G> + Send>> {
    match evaluator {
        None => G::agent(spec, seed).map_err(|e| SpecError::new_err(e.to_string())),
        Some(evaluator) => {
            let config = spec.batched_config().ok_or_else(|| {
                SpecError::new_err(format!(
                    "{spec}: an evaluator drives uct, rave or grave (as `uct:iterations=800` or \
                     `uct:time=1s,c=1.5`), on one thread, without prior=game, playout=game, \
                     book or cutoff: the evaluator gives the priors and values"
                ))
            })?;
            let batch = evaluator.batch();
            if evaluator.is_uniform() {
                return Ok(Box::new(BatchedUct::new(
                    config,
                    Knowledge::default(),
                    batch,
                    seed,
                )));
            }
            let evaluator = PyEvaluator::new(evaluator.clone(), start, Arc::clone(stop));
            Ok(Box::new(BatchedUct::new(config, evaluator, batch, seed)))
        }
    }
}

/// Builds the agent of `spec` for `game`.
pub(crate) fn build<G: TextGame>(
    game: Arc<GameOf<G>>,
    spec: &str,
    seed: u64,
    evaluator: Option<EvaluatorSpec>,
) -> PyResult<Box<dyn AnyAgent>> {
    let parsed = G::parse_agent(spec).map_err(|e| SpecError::new_err(e.to_string()))?;
    // Playing: a tree search on every core unless the spec says threads=N (an evaluator's
    // batched search runs on one).
    let parsed = if evaluator.is_none() {
        parsed.on_cores(0)
    } else {
        parsed
    };
    parsed
        .check_for(game.start())
        .map_err(|e| SpecError::new_err(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let agent = make(&parsed, seed, evaluator.as_ref(), game.start(), &stop)?;
    Ok(Box::new(AgentOf {
        position: game.start().clone(),
        game,
        spec: parsed,
        seed,
        evaluator,
        agent,
        builds: 1,
        heard: Vec::new(),
        stop,
        broken: false,
    }))
}

impl<G: TextGame> AgentOf<G> {
    /// Tells the agent the moves of `state` it has not heard; builds it afresh when `state`
    /// does not follow from what it heard (another game, a move taken back).
    fn follow(&mut self, state: &StateOf<G>) -> PyResult<()> {
        if self.broken || !state.moves.starts_with(&self.heard) {
            self.broken = false;
            let seed = mix64(self.seed ^ self.builds);
            self.agent = make(
                &self.spec,
                seed,
                self.evaluator.as_ref(),
                self.game.start(),
                &self.stop,
            )?;
            self.builds += 1;
            self.heard.clear();
            self.position = self.game.start().clone();
        }
        for &action in &state.moves[self.heard.len()..] {
            self.agent.played(&self.position, action);
            self.position.play(action);
            self.heard.push(action);
        }
        Ok(())
    }
}

impl<G: TextGame> AnyAgent for AgentOf<G> {
    fn search(&mut self, py: Python<'_>, state: &dyn AnyState) -> PyResult<PyReport> {
        let state = downcast::<G>(state, &self.game)?;
        if state.position.status().is_over() {
            return Err(PyValueError::new_err(
                "the game is over: there is no move to choose",
            ));
        }
        self.follow(state)?;
        self.stop.store(false, Ordering::Relaxed);
        let budget = Budget {
            stop: Some(Arc::clone(&self.stop)),
            ..self.spec.budget()
        };
        let agent = &mut self.agent;
        let position = &state.position;
        let result = interrupt::run(
            py,
            &self.stop,
            |_: &interrupt::Events<(), _>| {
                let chosen = agent.choose(position, &budget);
                (chosen, agent.report().map(|r| convert(position, r)))
            },
            |_, ()| Ok(()),
        );
        // An evaluator's error, stored while the search ran, comes first.
        let failure = self
            .evaluator
            .as_ref()
            .and_then(EvaluatorSpec::take_failure);
        let (chosen, report) = match (result, failure) {
            (_, Some(error)) | (Err(error), None) => {
                // The tree may hold what a broken search left: start again next time.
                self.broken = true;
                return Err(error);
            }
            (Ok(found), None) => found,
        };
        let chosen = chosen.ok_or_else(|| PyRuntimeError::new_err("the agent chose no move"))?;
        let mut report = report.unwrap_or_else(|| {
            convert(
                position,
                &search::Report::new(Some(chosen), 0, std::time::Duration::ZERO),
            )
        });
        let number = crate::game::number(position, chosen);
        report.action = Some(number);
        report.text = Some(chosen.to_string());
        Ok(report)
    }

    fn spec(&self) -> String {
        self.spec.to_string()
    }

    fn game(&self) -> String {
        crate::game::AnyGame::describe(&*self.game)
    }
}

/// An agent of a game, built from a spec string as every tool of the library reads it:
/// `best:time=1s`, `uct:iterations=10000,c=0.7`, `alphabeta:depth=6`, `solver:time=5s`.
///
/// The search runs with the GIL released and stops at Ctrl-C. The agent keeps its tree from
/// move to move: it follows the game through the states it is given, and starts afresh on a
/// state that does not follow from the last (a new game, a move taken back).
#[pyclass(name = "Agent", module = "gamesearch")]
pub(crate) struct PyAgent {
    inner: Mutex<Box<dyn AnyAgent>>,
    last: Mutex<Option<PyReport>>,
}

impl PyAgent {
    fn search(&self, py: Python<'_>, state: &PyState) -> PyResult<PyReport> {
        let mut agent = self
            .inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this agent is searching in another thread"))?;
        let report = agent.search(py, &*state.inner)?;
        *self
            .last
            .lock()
            .expect("never poisoned: nothing panics holding it") = Some(report.clone());
        Ok(report)
    }
}

#[pymethods]
impl PyAgent {
    /// `Agent(game, spec="best", seed=0, evaluator=None, batch=16)`.
    ///
    /// With `evaluator`, a callable `evaluator(observations, legal) -> (priors, values)`,
    /// the spec is a `uct` spec whose priors and values come from it in batches of `batch`
    /// positions (see `docs/python.md`). `evaluator="uniform"` runs the same batched search
    /// with the Rust evaluator of uniform priors and even values: the baseline a network
    /// is measured against.
    #[new]
    #[pyo3(signature = (game, spec="best", seed=0, evaluator=None, batch=16))]
    fn new(
        game: &PyGame,
        spec: &str,
        seed: u64,
        evaluator: Option<Bound<'_, PyAny>>,
        batch: usize,
    ) -> PyResult<Self> {
        if batch == 0 || batch > 4096 {
            return Err(PyValueError::new_err(format!(
                "batch {batch}: expected 1 to 4096"
            )));
        }
        let evaluator = evaluator
            .map(|evaluator| EvaluatorSpec::new(&evaluator, batch))
            .transpose()?;
        Ok(PyAgent {
            inner: Mutex::new(game.inner.agent(spec, seed, evaluator)?),
            last: Mutex::new(None),
        })
    }

    /// Chooses a move for the player to move in `state` and returns its number; `state` is
    /// not changed.
    fn step(&self, py: Python<'_>, state: &PyState) -> PyResult<usize> {
        let report = self.search(py, state)?;
        report
            .action
            .ok_or_else(|| PyRuntimeError::new_err("the agent chose no move"))
    }

    /// Searches `state` as `step` does and returns the whole `Report`.
    fn analyse(&self, py: Python<'_>, state: &PyState) -> PyResult<PyReport> {
        self.search(py, state)
    }

    /// The report of the last search, or `None` before the first.
    #[getter]
    fn last_report(&self) -> Option<PyReport> {
        self.last.lock().ok().and_then(|r| r.clone())
    }

    /// The spec the agent was built from.
    #[getter]
    fn spec(&self) -> PyResult<String> {
        Ok(self.lock()?.spec())
    }

    fn __repr__(&self) -> PyResult<String> {
        let agent = self.lock()?;
        Ok(format!(
            "gamesearch.Agent({}, {:?})",
            agent.game(),
            agent.spec()
        ))
    }
}

impl PyAgent {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn AnyAgent>>> {
        self.inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this agent is searching in another thread"))
    }
}
