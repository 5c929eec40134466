//! Depth-limited search: the reference minimax, NegaMax and alpha-beta, and the production
//! alpha-beta agent (iterative deepening, principal variation search, a transposition table,
//! move ordering, a time limit).

mod config;
pub mod reference;
mod table;

pub use config::AlphaBetaConfig;

use std::collections::HashMap;
use std::time::Instant;

use game_core::{Evaluator, Game, Status};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{ActionStats, Agent, Budget, Report, score};
use table::{Bound, Table};

/// How often, in positions, the search looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// The production alpha-beta agent, NegaMax form, over an [`Evaluator`].
///
/// - **Iterative deepening**: depth 1, 2, 3, ... until the depth limit or the time is up; the
///   answer is the best move of the deepest completed depth, and each depth starts with the
///   best moves the previous one found.
/// - **Principal variation search**: the first move gets the full window, the others a null
///   window that only asks "is it better?", re-searched when it is.
/// - **Transposition table** keyed by [`Game::position_hash`], of fixed memory (see
///   [`AlphaBetaConfig`]), storing value, bound, depth and best move.
/// - **Move ordering**: the table's move, then two killer moves per ply, then by history score.
/// - **Time**: the clock is read every 1024 positions, never per position.
/// - Wins and losses are scored by distance ([`score::WIN`]): the quickest win, the slowest
///   loss. With an evaluator that returns 0, the search solves whatever it sees to the end.
///
/// ```
/// use games_connect4::Connect4;
/// use search::{AlphaBeta, Agent, Budget, score};
///
/// // Black to move wins at once in column 4.
/// let position: Connect4 = "414141".parse()?;
/// let mut agent = AlphaBeta::new(|_: &Connect4| 0);
/// agent.set_depth(6);
/// assert_eq!(agent.choose(&position, &Budget::default()), Some("4".parse()?));
/// assert_eq!(agent.report().unwrap().score, Some(score::WIN - 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AlphaBeta<G: Game, E> {
    config: AlphaBetaConfig,
    evaluator: E,
    table: Option<Table<G::Action>>,
    killers: Vec<[Option<G::Action>; 2]>,
    history: History<G::Action>,
    /// One move list per ply, reused: each move with its ordering score.
    lists: Vec<Vec<(u64, G::Action)>>,
    nodes: u64,
    deadline: Option<Instant>,
    budget: Budget,
    aborted: bool,
    root_best: Option<G::Action>,
    rng: Xoshiro256PlusPlus,
    report: Option<Report<G::Action>>,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// An agent with the default settings and this evaluator.
    pub fn new(evaluator: E) -> Self {
        AlphaBeta::with_config(AlphaBetaConfig::default(), evaluator)
    }

    /// An agent with these settings and this evaluator.
    pub fn with_config(config: AlphaBetaConfig, evaluator: E) -> Self {
        AlphaBeta {
            table: (config.table_bytes > 0).then(|| Table::with_bytes(config.table_bytes)),
            config,
            evaluator,
            killers: Vec::new(),
            history: History::Hashed(HashMap::new()),
            lists: Vec::new(),
            nodes: 0,
            deadline: None,
            budget: Budget::default(),
            aborted: false,
            root_best: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            report: None,
        }
    }

    /// Sets the deepest depth of iterative deepening.
    pub fn set_depth(&mut self, depth: u32) {
        self.config.max_depth = depth;
    }

    /// Forgets everything learnt: the table, the killers and the history.
    pub fn clear(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        self.killers.clear();
        self.history = History::Hashed(HashMap::new());
    }

    /// Searches `position` to exactly `depth` plies (no iterative deepening, no time limit) and
    /// returns its value for the player to move.
    pub fn value(&mut self, position: &G, depth: u32) -> i32 {
        self.aborted = false;
        self.deadline = None;
        self.budget = Budget::default();
        self.search(position, depth, 0, -score::WIN - 1, score::WIN + 1)
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let told = self
                .budget
                .stop
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
            let full = self.budget.iterations.is_some_and(|n| self.nodes >= n);
            self.aborted |= late || told || full;
        }
        self.aborted
    }

    fn search(&mut self, position: &G, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Status::Over(outcome) = position.status() {
            return score::terminal(outcome, position.to_move(), ply);
        }
        if depth == 0 {
            return self
                .evaluator
                .evaluate(position)
                .clamp(-score::MAX_EVAL, score::MAX_EVAL);
        }
        let key = position.position_hash();
        let mut hash_move = None;
        if let Some(entry) = self.table.as_ref().and_then(|t| t.probe(key)) {
            hash_move = entry.best;
            if u32::from(entry.depth) >= depth {
                let value = entry.value(ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if usable && ply > 0 {
                    return value;
                }
            }
        }

        let ply_index = ply as usize;
        if self.lists.len() <= ply_index {
            self.lists.resize_with(ply_index + 1, Vec::new);
        }
        if self.killers.len() <= ply_index {
            self.killers.resize(ply_index + 1, [None, None]);
        }
        let mut moves = std::mem::take(&mut self.lists[ply_index]);
        moves.clear();
        position.legal_actions(&mut Unscored(&mut moves));
        if self.config.ordering {
            self.order(position, &mut moves, hash_move, ply_index);
        }

        let original_alpha = alpha;
        let mut best = -score::WIN - 1;
        let mut best_move = None;
        for (i, &(_, action)) in moves.iter().enumerate() {
            let child = position.after(action);
            let value = if i == 0 || !self.config.pvs {
                -self.search(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.search(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                best_move = Some(action);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                let killers = &mut self.killers[ply_index];
                if killers[0] != Some(action) {
                    killers[1] = killers[0];
                    killers[0] = Some(action);
                }
                self.history
                    .reward(position, action, u64::from(depth) * u64::from(depth));
                break;
            }
        }
        self.lists[ply_index] = moves;
        if self.aborted {
            return 0;
        }
        if ply == 0 {
            self.root_best = best_move;
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(table) = &mut self.table {
            table.store(key, best, ply, depth, bound, best_move);
        }
        best
    }

    /// The hash move first, then this ply's killers, then the rest, killers and the rest each
    /// by history score; ties keep the game's order. Each move's rank is computed once, into
    /// its score (not once per comparison of the sort).
    fn order(
        &self,
        position: &G,
        moves: &mut [(u64, G::Action)],
        hash_move: Option<G::Action>,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        // History scores stay below 2^62, killers above 2^63, the hash move above all.
        for (score, action) in moves.iter_mut() {
            let a = Some(*action);
            let history = self.history.score(position, *action).min(1 << 62);
            *score = if a == hash_move {
                u64::MAX
            } else if a == killers[0] || a == killers[1] {
                (1 << 63) + history
            } else {
                history
            };
        }
        moves.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// The line the table holds from `position`, up to `depth` moves.
    fn principal_variation(&self, position: &G, depth: u32) -> Vec<G::Action> {
        let mut line = Vec::new();
        let mut at = position.clone();
        while line.len() < depth as usize {
            let Some(action) = self
                .table
                .as_ref()
                .and_then(|t| t.probe(at.position_hash()))
                .and_then(|e| e.best)
            else {
                break;
            };
            if !at.is_legal(action) {
                break;
            }
            line.push(action);
            at.play(action);
        }
        line
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for AlphaBeta<G, E> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            self.report = None;
            return None;
        }
        let started = Instant::now();
        self.budget = budget.clone();
        self.deadline = budget.time.map(|t| started + t);
        self.nodes = 0;
        self.aborted = false;
        self.killers.clear();
        let mut completed = None;
        for depth in 1..=self.config.max_depth.max(1) {
            self.root_best = None;
            let value = self.search(position, depth, 0, -score::WIN - 1, score::WIN + 1);
            if self.aborted {
                break;
            }
            completed = Some((depth, value, self.root_best));
            if score::is_decisive(value) && (score::WIN - value.abs()) as u32 <= depth {
                break; // a forced result within the horizon: deeper search cannot change it
            }
        }
        let (depth, value, best) = completed.map_or((0, None, None), |(d, v, b)| (d, Some(v), b));
        let chosen = best.or_else(|| position.random_action(&mut self.rng));
        let mut principal_variation = if completed.is_some() {
            self.principal_variation(position, depth)
        } else {
            Vec::new()
        };
        if principal_variation.first() != chosen.as_ref() {
            principal_variation = chosen.into_iter().collect();
        }
        let mut report = Report::new(chosen, self.nodes, started.elapsed());
        report.actions = chosen
            .map(|a| ActionStats {
                action: a,
                visits: 0,
                mean: value.map_or(f64::NAN, f64::from),
                proof: value.and_then(score::proof),
            })
            .into_iter()
            .collect();
        report.principal_variation = principal_variation;
        report.nodes = self.nodes as usize;
        report.depth = depth;
        report.score = value;
        report.proven = value
            .and_then(score::proof)
            .map(game_core::solve::Proven::new);
        self.report = Some(report);
        chosen
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}

/// Which reference algorithm a [`Reference`] agent runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Plain {
    /// [`reference::minimax`].
    Minimax,
    /// [`reference::negamax`].
    NegaMax,
    /// [`reference::alphabeta`].
    AlphaBeta,
}

/// An agent around a reference algorithm: it searches each move to a fixed depth and plays the
/// first move of best value. For teaching and testing; [`AlphaBeta`] is the one to play with.
#[derive(Debug)]
pub struct Reference<G: Game, E> {
    algorithm: Plain,
    depth: u32,
    evaluator: E,
    report: Option<Report<G::Action>>,
}

impl<G: Game, E: Evaluator<G>> Reference<G, E> {
    /// An agent running `algorithm` to `depth` plies (at least 1) with `evaluator`.
    pub fn new(algorithm: Plain, depth: u32, evaluator: E) -> Self {
        Reference {
            algorithm,
            depth: depth.max(1),
            evaluator,
            report: None,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for Reference<G, E> {
    fn choose(&mut self, position: &G, _budget: &Budget) -> Option<G::Action> {
        let started = Instant::now();
        // Count the positions evaluated, for the report.
        let evaluations = std::cell::Cell::new(0_u64);
        let counting = |position: &G| {
            evaluations.set(evaluations.get() + 1);
            self.evaluator.evaluate(position)
        };
        let value_of = |child: &G| -> i32 {
            let below = match self.algorithm {
                Plain::Minimax => reference::minimax(child, self.depth - 1, &counting),
                Plain::NegaMax => reference::negamax(child, self.depth - 1, &counting),
                Plain::AlphaBeta => reference::alphabeta(child, self.depth - 1, &counting),
            };
            // A child's value is for the opponent, one ply further from the root.
            let mine = -below;
            if score::is_decisive(mine) {
                mine - mine.signum()
            } else {
                mine
            }
        };
        let mut best: Option<(G::Action, i32)> = None;
        for action in position.legal_actions_vec() {
            let value = value_of(&position.after(action));
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((action, value));
            }
        }
        let (chosen, value) = (best.map(|b| b.0), best.map(|b| b.1));
        let mut report = Report::new(chosen, evaluations.get(), started.elapsed());
        report.nodes = evaluations.get() as usize;
        report.depth = self.depth;
        report.score = value;
        report.proven = value
            .and_then(score::proof)
            .map(game_core::solve::Proven::new);
        self.report = Some(report);
        chosen
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}

/// Appends moves to a scored move list, each with score 0.
struct Unscored<'a, A>(&'a mut Vec<(u64, A)>);

impl<A> Extend<A> for Unscored<'_, A> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(|a| (0, a)));
    }
}

/// The history heuristic's scores: for each move, the sum of `depth²` over the cut-offs it
/// caused. Indexed by [`Game::action_index`] for games with numbered actions (a load per
/// move); in a hash map for the others.
#[derive(Debug)]
enum History<A> {
    Indexed(Vec<u64>),
    Hashed(HashMap<A, u64>),
}

impl<A: Copy + Eq + std::hash::Hash> History<A> {
    fn score<G: Game<Action = A>>(&self, position: &G, action: A) -> u64 {
        match self {
            History::Indexed(scores) => scores
                .get(position.action_index(action))
                .copied()
                .unwrap_or(0),
            History::Hashed(scores) => scores.get(&action).copied().unwrap_or(0),
        }
    }

    fn reward<G: Game<Action = A>>(&mut self, position: &G, action: A, amount: u64) {
        if let (History::Hashed(scores), Some(size)) = (&*self, position.action_space())
            && scores.is_empty()
        {
            // The first cut-off: numbered actions from now on.
            *self = History::Indexed(vec![0; size]);
        }
        match self {
            History::Indexed(scores) => {
                if let Some(score) = scores.get_mut(position.action_index(action)) {
                    *score += amount;
                }
            }
            History::Hashed(scores) => *scores.entry(action).or_insert(0) += amount,
        }
    }
}
