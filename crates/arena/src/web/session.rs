//! One game on the server: its position and history, its engine, and the engine's search in
//! progress, behind an object-safe [`Session`] so that games of every type sit side by side.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use game_core::{Player, Status};
use search::{Agent, AgentSpec, Budget, Report};
use serde_json::{Value, json};

use crate::{Resign, Resigner, TextGame};

/// What a request did wrong, with the HTTP status that says so.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Refusal {
    pub(crate) status: u16,
    pub(crate) message: String,
}

impl Refusal {
    pub(crate) fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }

    pub(crate) fn conflict(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 409,
            message: message.into(),
        }
    }
}

/// A game on the server, whatever its type.
pub(crate) trait Session: Send {
    /// The game as JSON: the board, the legal moves, the history, the result, the engine's
    /// analysis. Takes in a finished engine move first.
    fn state(&mut self) -> Value;
    /// Plays `text`, a move in the game's notation.
    fn play(&mut self, text: &str) -> Result<(), Refusal>;
    /// Starts the engine's search for the player to move; it plays when it is done.
    fn think(&mut self) -> Result<(), Refusal>;
    /// Takes back the last move.
    fn undo(&mut self) -> Result<(), Refusal>;
    /// Stops a search in progress (the game is being deleted).
    fn stop(&mut self);
}

/// The engine's search, shared with its thread.
#[derive(Default)]
struct Live<A> {
    thinking: bool,
    /// The move found, waiting to be played.
    found: Option<A>,
    /// The latest analysis of the search in progress or last finished.
    analysis: Option<Value>,
    /// The report of the search that found `found`, for the resigning rule.
    report: Option<Report<A>>,
}

/// A game of type `G` on the server.
pub(crate) struct GameSession<G: TextGame> {
    start: G,
    position: G,
    history: Vec<G::Action>,
    spec: AgentSpec,
    time: Duration,
    agent: Arc<Mutex<Box<dyn Agent<G> + Send>>>,
    live: Arc<Mutex<Live<G::Action>>>,
    stop: Arc<AtomicBool>,
    /// The engine's estimate of its winning chances after each of its moves, with the ply.
    win_rates: Vec<(usize, f64)>,
    /// When the engine resigns ([`Resign::default`]).
    resigner: Resigner,
    /// The player who resigned and what the engine said.
    resigned: Option<(Player, String)>,
}

/// Locks a mutex, ignoring poisoning (a panicked search leaves plain data behind).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<G: TextGame> GameSession<G> {
    /// A new game from `start` against the agent of `spec`, thinking `time` per move.
    pub(crate) fn new(
        start: G,
        spec: AgentSpec,
        time: Duration,
        seed: u64,
    ) -> Result<Self, Refusal> {
        spec.check_for(&start)
            .map_err(|e| Refusal::bad(e.to_string()))?;
        let agent = G::agent(&spec, seed).map_err(|e| Refusal::bad(e.to_string()))?;
        Ok(GameSession {
            position: start.clone(),
            start,
            history: Vec::new(),
            spec,
            time,
            agent: Arc::new(Mutex::new(agent)),
            live: Arc::new(Mutex::new(Live {
                thinking: false,
                found: None,
                analysis: None,
                report: None,
            })),
            stop: Arc::new(AtomicBool::new(false)),
            win_rates: Vec::new(),
            resigner: Resigner::new(Resign::default()),
            resigned: None,
        })
    }

    /// Plays a move found by the engine, if one is waiting, or resigns the game in its name.
    fn collect(&mut self) {
        let (found, report) = {
            let mut live = lock(&self.live);
            (live.found.take(), live.report.take())
        };
        if let Some(action) = found {
            if let Some(why) = self.resigner.consider(report.as_ref()) {
                let player = self.position.to_move();
                self.resigned = Some((player, self.position.resignation(player, &why)));
                return;
            }
            let value = lock(&self.live)
                .analysis
                .as_ref()
                .and_then(|a| a["win_rate"].as_f64());
            if let Some(value) = value {
                self.win_rates.push((self.history.len(), value));
            }
            self.apply(action);
        }
    }

    fn apply(&mut self, action: G::Action) {
        lock(&self.agent).played(&self.position, action);
        self.position.play(action);
        self.history.push(action);
    }

    fn thinking(&self) -> bool {
        lock(&self.live).thinking
    }

    fn idle(&mut self) -> Result<(), Refusal> {
        self.collect();
        if self.thinking() {
            return Err(Refusal::conflict("the engine is thinking"));
        }
        Ok(())
    }

    /// Whether the game is over: played to its end, or resigned.
    fn over(&self) -> bool {
        self.resigned.is_some() || self.position.status().is_over()
    }
}

/// A player's name in the API.
fn player_name(player: Player) -> &'static str {
    match player {
        Player::Black => "black",
        Player::White => "white",
    }
}

/// The analysis of a search's report, for the page: iterations, speed, the most visited
/// moves with their visits and win rates, the expected line, what was proven.
fn analysis<A: std::fmt::Display + Copy + PartialEq>(
    report: &Report<A>,
    elapsed: Duration,
) -> Value {
    let moves: Vec<Value> = report
        .actions
        .iter()
        .take(12)
        .map(|s| {
            json!({
                "move": s.action.to_string(),
                "visits": s.visits,
                // A depth-limited search's mean is its score, not a win rate.
                "win_rate": if s.mean.is_finite() && report.score.is_none() { Some(s.mean) } else { None },
                "proven": s.proof.map(|p| format!("{p:?}").to_lowercase()),
            })
        })
        .collect();
    // The rate of the last search (a slice of the move's time); the total kept in the tree.
    let rate = report.iterations as f64 / report.elapsed.as_secs_f64().max(1e-9);
    json!({
        "iterations": report.iterations.max(report.root_visits),
        "elapsed_ms": elapsed.as_millis() as u64,
        "per_second": rate.round(),
        "threads": report.threads,
        "locked": report.locked,
        "win_rate": report.value().filter(|v| v.is_finite() && report.score.is_none()).or(report.proven.map(|p| match p.outcome {
            game_core::Wdl::Win => 1.0,
            game_core::Wdl::Draw => 0.5,
            game_core::Wdl::Loss => 0.0,
        })),
        "moves": moves,
        "score": report.score,
        "line": report.principal_variation.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "proven": report.proven.map(|p| p.to_string()),
        "best": report.chosen.map(|a| a.to_string()),
        "book": report.book,
    })
}

impl<G: TextGame> Session for GameSession<G> {
    fn state(&mut self) -> Value {
        self.collect();
        let status = self.position.status();
        let (over, winner) = match (status, &self.resigned) {
            (_, Some((loser, _))) => (true, Some(player_name(loser.opponent()))),
            (Status::Ongoing, None) => (false, None),
            (Status::Over(outcome), None) => (true, outcome.winner().map(player_name)),
        };
        let result = match &self.resigned {
            Some((Player::Black, _)) => Some("W+Resign".to_owned()),
            Some((Player::White, _)) => Some("B+Resign".to_owned()),
            None => self.position.final_score(),
        };
        let live = lock(&self.live);
        let cells: Vec<Vec<Option<&str>>> = self
            .position
            .cells()
            .iter()
            .map(|row| row.iter().map(|c| c.map(player_name)).collect())
            .collect();
        json!({
            "game": G::NAME,
            "size": self.position.size_text(),
            "swap": self.position.swap_rule(),
            "agent": self.spec.to_string(),
            "time_ms": self.time.as_millis() as u64,
            "to_move": player_name(self.position.to_move()),
            "cells": cells,
            "legal": if over { Vec::new() } else {
                self.position.legal_actions_vec().iter().map(ToString::to_string).collect()
            },
            "history": self.history.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "over": over,
            "winner": winner,
            "result": result,
            "resigned": self.resigned.as_ref().map(|(_, said)| said.clone()),
            "thinking": live.thinking,
            "analysis": live.analysis.clone(),
            "win_rates": self.win_rates.iter().map(|&(ply, v)| json!({"ply": ply, "win_rate": v})).collect::<Vec<_>>(),
            "board": self.position.to_string(),
        })
    }

    fn play(&mut self, text: &str) -> Result<(), Refusal> {
        self.idle()?;
        if self.resigned.is_some() {
            return Err(Refusal::bad("the game is over"));
        }
        let action = self
            .position
            .parse_move(text)
            .map_err(|e| Refusal::bad(e.to_string()))?;
        self.apply(action);
        Ok(())
    }

    fn think(&mut self) -> Result<(), Refusal> {
        self.idle()?;
        if self.over() {
            return Err(Refusal::conflict("the game is over"));
        }
        lock(&self.live).thinking = true;
        let (agent, live, stop) = (self.agent.clone(), self.live.clone(), self.stop.clone());
        let (position, total) = (self.position.clone(), self.time);
        // Monte-Carlo trees search in slices (tree reuse keeps the tree between them), so the
        // page sees the analysis grow; other agents think in one go.
        let sliced = matches!(self.spec.name(), "uct" | "rave" | "grave" | "best");
        thread::spawn(move || {
            let started = Instant::now();
            let mut agent = lock(&agent);
            let mut choice = None;
            loop {
                let left = total.saturating_sub(started.elapsed());
                let slice = if sliced {
                    left.min(Duration::from_millis(200))
                } else {
                    left
                };
                let budget = Budget::time(slice).with_stop(stop.clone());
                choice = agent.choose(&position, &budget).or(choice);
                if let Some(report) = agent.report() {
                    let mut live = lock(&live);
                    live.analysis = Some(analysis(report, started.elapsed()));
                    live.report = Some(report.clone());
                }
                if started.elapsed() >= total || stop.load(Ordering::Relaxed) || !sliced {
                    break;
                }
            }
            let mut live = lock(&live);
            live.found = if stop.load(Ordering::Relaxed) {
                None
            } else {
                choice
            };
            live.thinking = false;
        });
        Ok(())
    }

    fn undo(&mut self) -> Result<(), Refusal> {
        self.idle()?;
        if self.history.pop().is_none() {
            return Err(Refusal::conflict("there is no move to take back"));
        }
        self.position = self.start.clone();
        // The engine's tree no longer matches the game: it starts afresh from the replay.
        for &action in &self.history {
            self.position.play(action);
        }
        self.win_rates.retain(|&(ply, _)| ply < self.history.len());
        self.resigned = None;
        self.resigner.reset();
        lock(&self.live).analysis = None;
        Ok(())
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
