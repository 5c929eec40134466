//! The play loop of a run: the games of a share that its journal lacks, each recorded as it
//! ends.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use search::AgentSpec;

use super::{RunDir, RunError};
use crate::{GameResult, Pairing, Resign, TextGame, play_games_until};

/// What [`play_share`] played: every game of the share so far, and how the run went.
#[derive(Debug)]
pub struct Played {
    /// The games of the journal before and the new ones, in game order.
    pub results: Vec<GameResult>,
    /// How many of them this call played.
    pub new: usize,
    /// Whether every game of the share has been played (a stop leaves it short).
    pub complete: bool,
    /// The first journal write that failed; it stopped the run.
    pub failure: Option<RunError>,
}

/// Plays the games of `share` (a run's games, or a shard of them) that `done` does not hold,
/// each from its opening in `starts`, between the agents `specs` called `names` (resigning by
/// `resign`), in parallel until `stop` is set ([`play_games_until`]): each game is recorded in `run` as it ends, then
/// passed to `on_result`; a write that fails sets `stop`. At the end the journal is rewritten
/// in game order. This is the loop of `tournament` and `experiments`, which add the progress
/// and the tables.
///
/// # Errors
///
/// [`RunError::Spec`] when a spec cannot be built for this game (before any game), and
/// [`RunError::Io`] when the journal cannot be rewritten.
#[allow(
    clippy::too_many_arguments,
    reason = "the run, the games, and how to report them"
)]
pub fn play_share<G: TextGame>(
    run: Option<&RunDir>,
    starts: &[G],
    specs: &[AgentSpec],
    names: &[String],
    share: &[Pairing],
    done: Vec<GameResult>,
    seed: u64,
    resign: Resign,
    stop: &Arc<AtomicBool>,
    on_result: impl Fn(&GameResult) + Sync,
) -> Result<Played, RunError> {
    let played: HashSet<u64> = done.iter().map(|r| r.pairing.number).collect();
    let todo: Vec<Pairing> = share
        .iter()
        .filter(|p| !played.contains(&p.number))
        .copied()
        .collect();
    let failure = Mutex::new(None);
    let new = play_games_until(starts, specs, &todo, seed, resign, stop, |r| {
        if let Some(run) = run
            && let Err(e) = run.record(names, r)
        {
            failure
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        }
        on_result(r);
    })?;
    let count = new.len();
    let mut results = done;
    results.extend(new);
    results.sort_by_key(|r| r.pairing.number);
    if let Some(run) = run {
        run.rewrite_in_order(names, &results)?;
    }
    Ok(Played {
        complete: results.len() >= share.len(),
        results,
        new: count,
        failure: failure.into_inner().unwrap_or_else(PoisonError::into_inner),
    })
}
