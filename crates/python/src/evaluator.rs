//! A Python callable as the search's batch evaluator: a `PyTorch`, JAX or `NumPy` network in
//! our MCTS.
//!
//! The search ([`search::BatchedUct`]) gathers leaves; for each batch the callable gets the
//! positions' observations as one float32 array `[batch, 3, rows, columns]` (as
//! `State.observation_tensor()` gives them, for the player to move) and their legal actions
//! as a boolean mask `[batch, num_distinct_actions]`, and returns `(priors, values)`: priors
//! `[batch, num_distinct_actions]` (weights of at least 0; only the legal entries are read)
//! and values `[batch]` in -1 to 1, for the player to move.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arena::TextGame;
use game_core::knowledge::{Batch, BatchEvaluator};
use numpy::ndarray::{Array2, Array4};
use numpy::{AllowTypeChange, IntoPyArray, PyArrayLikeDyn};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::game::{number, observation};

/// The callable and what the agent shares with the evaluators it builds.
#[derive(Clone)]
pub(crate) struct EvaluatorSpec {
    /// The Python callable, or `None` for `evaluator="uniform"`: the same batched search with
    /// the Rust evaluator of no knowledge (uniform priors, even values), as a baseline.
    callable: Option<Arc<Py<PyAny>>>,
    batch: usize,
    /// The first error of the current search (an exception of the callable, or a bad
    /// answer), for the agent to raise once the search has stopped.
    failure: Arc<Mutex<Option<PyErr>>>,
}

impl EvaluatorSpec {
    /// The evaluator given as `Agent(..., evaluator=...)`: a callable, or the string
    /// `"uniform"`.
    pub(crate) fn new(evaluator: &Bound<'_, PyAny>, batch: usize) -> PyResult<Self> {
        let callable = if let Ok(name) = evaluator.extract::<String>() {
            if name != "uniform" {
                return Err(PyValueError::new_err(format!(
                    "evaluator {name:?}: expected a callable, or \"uniform\" (the Rust \
                     evaluator of uniform priors and even values)"
                )));
            }
            None
        } else if evaluator.is_callable() {
            Some(Arc::new(evaluator.clone().unbind()))
        } else {
            return Err(PyTypeError::new_err(
                "evaluator: expected a callable evaluator(observations, legal) -> (priors, values)",
            ));
        };
        Ok(EvaluatorSpec {
            callable,
            batch,
            failure: Arc::new(Mutex::new(None)),
        })
    }

    /// Whether this is `"uniform"`, the Rust evaluator, rather than a Python callable.
    pub(crate) fn is_uniform(&self) -> bool {
        self.callable.is_none()
    }

    /// Positions per call.
    pub(crate) fn batch(&self) -> usize {
        self.batch
    }

    /// The error of the last search, taken out.
    pub(crate) fn take_failure(&self) -> Option<PyErr> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }
}

/// The evaluator of one game, as the search calls it.
pub(crate) struct PyEvaluator<G> {
    spec: EvaluatorSpec,
    actions: usize,
    shape: [usize; 3],
    stop: Arc<AtomicBool>,
    game: PhantomData<fn() -> G>,
}

impl<G: TextGame> PyEvaluator<G> {
    pub(crate) fn new(spec: EvaluatorSpec, start: &G, stop: Arc<AtomicBool>) -> Self {
        let cells = start.cells();
        PyEvaluator {
            spec,
            actions: start.action_space().unwrap_or(0),
            shape: [3, cells.len(), cells.first().map_or(0, Vec::len)],
            stop,
            game: PhantomData,
        }
    }

    /// Calls the callable on `batch` and writes its answers, or says what is wrong.
    fn call(&self, py: Python<'_>, batch: &mut Batch<G>) -> PyResult<()> {
        let n = batch.len();
        let [planes, rows, columns] = self.shape;
        let mut values = Vec::with_capacity(n * planes * rows * columns);
        for position in batch.positions() {
            observation(position, position.to_move(), &mut values);
        }
        let observations = Array4::from_shape_vec((n, planes, rows, columns), values)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut legal = Array2::from_elem((n, self.actions), false);
        for i in 0..n {
            let position = batch.position(i);
            for &action in batch.actions(i) {
                legal[[i, number(position, action)]] = true;
            }
        }
        let Some(callable) = &self.spec.callable else {
            return Err(PyValueError::new_err(
                "the uniform evaluator is not a callable",
            ));
        };
        let answer = callable
            .bind(py)
            .call1((observations.into_pyarray(py), legal.into_pyarray(py)))?;
        let (priors, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            answer.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "evaluator: expected it to return (priors, values), got {}",
                    answer
                        .get_type()
                        .name()
                        .map_or("?".to_owned(), |n| n.to_string())
                ))
            })?;
        let priors: PyArrayLikeDyn<'_, f32, AllowTypeChange> = priors
            .extract()
            .map_err(|_| PyTypeError::new_err("evaluator: priors must be an array of numbers"))?;
        let values: PyArrayLikeDyn<'_, f64, AllowTypeChange> = values
            .extract()
            .map_err(|_| PyTypeError::new_err("evaluator: values must be an array of numbers"))?;
        let priors = priors.as_array();
        let values = values.as_array();
        if priors.shape() != [n, self.actions] {
            return Err(PyValueError::new_err(format!(
                "evaluator: priors have shape {:?}, expected [{n}, {}] (batch, num_distinct_actions)",
                priors.shape(),
                self.actions
            )));
        }
        if !(values.shape() == [n] || values.shape() == [n, 1]) {
            return Err(PyValueError::new_err(format!(
                "evaluator: values have shape {:?}, expected [{n}] (one per position)",
                values.shape()
            )));
        }
        let values: Vec<f64> = values.iter().copied().collect();
        for i in 0..n {
            let value = values[i];
            if !value.is_finite() || !(-1.0 - 1e-6..=1.0 + 1e-6).contains(&value) {
                return Err(PyValueError::new_err(format!(
                    "evaluator: value {value} of position {i}: expected a number from -1 to 1"
                )));
            }
            let position = batch.position(i).clone();
            let numbers: Vec<usize> = batch
                .actions(i)
                .iter()
                .map(|&a| number(&position, a))
                .collect();
            let weights = batch.priors_mut(i);
            for (weight, &k) in weights.iter_mut().zip(&numbers) {
                let p = priors[[i, k]];
                if !p.is_finite() || p < 0.0 {
                    return Err(PyValueError::new_err(format!(
                        "evaluator: prior {p} for action {k} of position {i}: expected a \
                         finite weight of at least 0"
                    )));
                }
                *weight = p;
            }
            if weights.iter().all(|&w| w == 0.0) {
                weights.fill(1.0);
            }
            batch.set_value(i, ((value + 1.0) / 2.0).clamp(0.0, 1.0));
        }
        Ok(())
    }
}

impl<G: TextGame> BatchEvaluator<G> for PyEvaluator<G> {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        let failed = self.spec.failure.lock().is_ok_and(|f| f.is_some());
        let result = if failed {
            Ok(())
        } else {
            Python::attach(|py| self.call(py, batch))
        };
        if failed || result.is_err() {
            // Even answers, so that the search finishes cleanly; it stops at once, and the
            // agent raises the error and starts afresh next time.
            for i in 0..batch.len() {
                batch.priors_mut(i).fill(1.0);
                batch.set_value(i, 0.5);
            }
            self.stop.store(true, Ordering::Relaxed);
        }
        if let (Err(error), Ok(mut failure)) = (result, self.spec.failure.lock()) {
            failure.get_or_insert(error);
        }
    }
}
