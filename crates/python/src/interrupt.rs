//! Long work off the Python thread: the GIL released, Ctrl-C heard, events passed back.
//!
//! The work runs on a thread of its own; the Python thread waits for it with the GIL released,
//! wakes every 50 ms to let Python run its signal handlers (`KeyboardInterrupt`), and runs
//! what the work sends it (a match's finished games, for a callback) with the GIL held.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting Python thread looks at its signals.
const POLL: Duration = Duration::from_millis(50);

/// What the work sends the Python thread.
pub(crate) enum Message<E, T> {
    /// Something for the Python thread to handle as it happens.
    Event(E),
    /// The work's result (`Err` if it panicked).
    Done(thread::Result<T>),
}

/// The work's end of the channel.
pub(crate) struct Events<E, T>(Sender<Message<E, T>>);

impl<E, T> Events<E, T> {
    /// Sends `event` to the Python thread (dropped if it has stopped listening).
    pub(crate) fn send(&self, event: E) {
        let _ = self.0.send(Message::Event(event));
    }
}

/// Runs `work` on a scoped thread while this (Python) thread waits with the GIL released.
/// Each event the work sends goes to `on_event`, with the GIL. On Ctrl-C (or an error from
/// `on_event`), `stop` is set, the work is waited for (it must end soon once `stop` is set),
/// and the error is returned.
pub(crate) fn run<E, T, W, H>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: W,
    mut on_event: H,
) -> PyResult<T>
where
    E: Send,
    T: Send,
    W: FnOnce(&Events<E, T>) -> T + Send,
    H: FnMut(Python<'_>, E) -> PyResult<()>,
{
    thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let events = Events(sender);
        scope.spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&events)));
            let _ = events.0.send(Message::Done(result));
        });
        wait(py, receiver, stop, &mut on_event)
    })
}

/// Like [`run`] for work that owns everything it needs, on a thread that is not waited for
/// after Ctrl-C: the error is returned at once and the work is left to finish on its own
/// (an exact solver, which stops at its deadline).
pub(crate) fn run_detached<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send + 'static,
    W: FnOnce() -> T + Send + 'static,
{
    let (sender, receiver) = mpsc::channel::<Message<(), T>>();
    thread::spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        let _ = sender.send(Message::Done(result));
    });
    let mut receiver = receiver;
    loop {
        let (back, got) = py.detach(move || {
            let got = receiver.recv_timeout(POLL);
            (receiver, got)
        });
        receiver = back;
        match got {
            Ok(Message::Done(result)) => return finished(result),
            Ok(Message::Event(())) | Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => return Err(lost()),
        }
    }
}

fn wait<E, T, H>(
    py: Python<'_>,
    mut receiver: Receiver<Message<E, T>>,
    stop: &AtomicBool,
    on_event: &mut H,
) -> PyResult<T>
where
    E: Send,
    T: Send,
    H: FnMut(Python<'_>, E) -> PyResult<()>,
{
    // The first error (Ctrl-C, a callback's exception); after it, events are dropped and the
    // work is waited for.
    let mut failure: Option<PyErr> = None;
    loop {
        let (back, got) = py.detach(move || {
            let got = receiver.recv_timeout(POLL);
            (receiver, got)
        });
        receiver = back;
        let outcome = match got {
            Ok(Message::Done(result)) => {
                return match failure {
                    Some(error) => Err(error),
                    None => finished(result),
                };
            }
            Ok(Message::Event(event)) if failure.is_none() => on_event(py, event),
            Ok(Message::Event(_)) => Ok(()),
            Err(RecvTimeoutError::Timeout) if failure.is_none() => py.check_signals(),
            Err(RecvTimeoutError::Timeout) => Ok(()),
            Err(RecvTimeoutError::Disconnected) => return Err(failure.unwrap_or_else(lost)),
        };
        if let Err(error) = outcome {
            stop.store(true, Ordering::Relaxed);
            failure = Some(error);
        }
    }
}

fn finished<T>(result: thread::Result<T>) -> PyResult<T> {
    result.map_err(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_owned());
        PyRuntimeError::new_err(format!(
            "gamesearch: internal error (a panic: {why}); please report it"
        ))
    })
}

fn lost() -> PyErr {
    PyRuntimeError::new_err("gamesearch: the worker thread ended without a result")
}
