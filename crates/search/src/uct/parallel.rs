//! UCT on several threads: root parallelisation (independent trees merged at the root) and
//! tree parallelisation (one shared tree, with virtual loss).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError, TryLockError};
use std::time::Instant;

use game_core::{Game, Guide, Knowledge, Reward, mix64};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Leaf, Trace, TreeSearch};
use crate::{ActionStats, Agent, Budget, Report, Uct, UctConfig};

/// UCT on several threads by root parallelisation (Cazenave and Jouandeau 2007): each thread
/// grows its own tree from the same position with its own random numbers, and the root
/// statistics are summed at the end: an action's visits are the sum over the trees, its mean
/// the visit-weighted mean. The action with the most visits in total is played (a proven win
/// first, when a thread's solver found one).
///
/// An iteration budget is split evenly over the threads, so `iterations=N` means N playouts
/// in all, as for one thread; a time budget gives every thread that time. The trees share
/// nothing while they search, so there are no locks, and with one thread this is exactly
/// [`Uct`] (the same seed gives the same game). Each tree keeps its own tree reuse.
///
/// What to expect: on `k` cores, about `k` times the playouts per second; the trees overlap in
/// what they explore, so the strength gained at equal time is less than a single tree with `k`
/// times the playouts would have.
///
/// ```
/// use game_core::testing::TicTacToe;
/// use search::{Agent, Budget, RootParallel, UctConfig};
///
/// let mut agent = RootParallel::new(2, UctConfig::default(), game_core::WinDrawLoss::default(), 1);
/// let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
/// assert_eq!(agent.choose(&position, &Budget::iterations(4_000)), Some("c1".parse().unwrap()));
/// assert_eq!(agent.report().unwrap().iterations, 4_000);
/// ```
#[derive(Clone, Debug)]
pub struct RootParallel<G: Game, R, K = Knowledge> {
    workers: Vec<Uct<G, R, K>>,
    report: Option<Report<G::Action>>,
}

impl<G, R> RootParallel<G, R>
where
    G: Game + Send + Sync,
    R: Reward<G> + Clone + Send,
{
    /// `threads` UCT searches (at least one) with these settings and reward; thread 0 is
    /// seeded with `seed`, the others with seeds derived from it.
    #[must_use]
    pub fn new(threads: usize, config: UctConfig, reward: R, seed: u64) -> Self {
        RootParallel::with_knowledge(threads, config, reward, Knowledge::NONE, seed)
    }
}

impl<G, R, K> RootParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Clone + Send,
    K: Guide<G> + Clone + Send,
{
    /// [`new`](RootParallel::new) with what the game knows (see [`Uct::with_knowledge`]).
    #[must_use]
    pub fn with_knowledge(
        threads: usize,
        config: UctConfig,
        reward: R,
        knowledge: K,
        seed: u64,
    ) -> Self {
        let mut workers: Vec<Uct<G, R, K>> = (1..threads.max(1) as u64)
            .map(|k| {
                let seed = mix64(seed ^ mix64(k));
                Uct::with_knowledge(config, reward.clone(), knowledge.clone(), seed)
            })
            .collect();
        workers.insert(0, Uct::with_knowledge(config, reward, knowledge, seed));
        RootParallel {
            workers,
            report: None,
        }
    }

    /// The number of threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.workers.len()
    }
}

impl<G, R, K> Agent<G> for RootParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Clone + Send,
    K: Guide<G> + Clone + Send,
{
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if let [only] = self.workers.as_mut_slice() {
            let action = only.choose(position, budget);
            self.report = only.report().cloned();
            return action;
        }
        let started = Instant::now();
        let threads = self.workers.len() as u64;
        let mut share = budget.clone();
        share.iterations = budget.iterations.map(|n| n.div_ceil(threads));
        let mut remaining = budget.iterations;
        let budgets: Vec<Budget> = (0..threads)
            .map(|_| {
                let mut b = share.clone();
                if let (Some(left), Some(each)) = (remaining.as_mut(), share.iterations) {
                    b.iterations = Some(each.min(*left));
                    *left -= each.min(*left);
                }
                b
            })
            .collect();
        std::thread::scope(|scope| {
            for (worker, budget) in self.workers.iter_mut().zip(&budgets) {
                scope.spawn(move || worker.choose(position, budget));
            }
        });
        self.report = merge(
            self.workers.iter().filter_map(Uct::report),
            started.elapsed(),
        );
        self.report.as_ref().and_then(|r| r.chosen)
    }

    fn played(&mut self, position: &G, action: G::Action) {
        for worker in &mut self.workers {
            worker.played(position, action);
        }
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}

/// The reports of the threads as one: root statistics summed, the most visited action chosen.
fn merge<'a, A: Copy + Eq + std::hash::Hash + 'a>(
    reports: impl Iterator<Item = &'a Report<A>>,
    elapsed: std::time::Duration,
) -> Option<Report<A>> {
    let reports: Vec<&Report<A>> = reports.collect();
    let first = reports.first()?;
    let mut totals: HashMap<A, (u64, f64, Option<game_core::Wdl>)> = HashMap::new();
    let mut order = Vec::new();
    for report in &reports {
        for stats in &report.actions {
            let entry = totals.entry(stats.action).or_insert_with(|| {
                order.push(stats.action);
                (0, 0.0, None)
            });
            entry.0 += stats.visits;
            if stats.visits > 0 && stats.mean.is_finite() {
                entry.1 += stats.mean * stats.visits as f64;
            }
            entry.2 = entry.2.or(stats.proof);
        }
    }
    let mut actions: Vec<ActionStats<A>> = order
        .iter()
        .map(|&action| {
            let (visits, sum, proof) = totals[&action];
            let mean = match proof {
                Some(game_core::Wdl::Win) => f64::INFINITY,
                Some(game_core::Wdl::Loss) => f64::NEG_INFINITY,
                _ if visits == 0 => f64::NAN,
                _ => sum / visits as f64,
            };
            ActionStats {
                action,
                visits,
                mean,
                proof,
            }
        })
        .collect();
    actions.sort_by_key(|s| std::cmp::Reverse(s.visits));
    let rank = |s: &ActionStats<A>| match s.proof {
        Some(game_core::Wdl::Win) => 2,
        Some(game_core::Wdl::Loss) => 0,
        _ => 1,
    };
    let chosen = actions
        .iter()
        .max_by(|a, b| rank(a).cmp(&rank(b)).then(a.visits.cmp(&b.visits)))
        .map(|s| s.action)
        .or(first.chosen);
    let principal_variation = reports
        .iter()
        .find(|r| r.principal_variation.first() == chosen.as_ref())
        .map_or_else(
            || chosen.into_iter().collect(),
            |r| r.principal_variation.clone(),
        );
    let mut report = Report::new(chosen, reports.iter().map(|r| r.iterations).sum(), elapsed);
    report.root_visits = reports.iter().map(|r| r.root_visits).sum();
    report.actions = actions;
    report.principal_variation = principal_variation;
    report.nodes = reports.iter().map(|r| r.nodes).sum();
    report.proof = reports.iter().find_map(|r| r.proof);
    Some(report)
}

/// How many times a thread of [`TreeParallel`] tries the tree's lock before it sleeps on it.
const SPINS: u32 = 4_000;

/// UCT on several threads by tree parallelisation (Chaslot, Winands and van den Herik 2008):
/// the threads grow one shared tree. A thread holds the tree's lock while it selects a path
/// and expands, and again while it backs up the result; the playout, most of an iteration's
/// work in most games, runs without it, so the threads' playouts overlap.
///
/// While a thread plays out, its path counts a *virtual loss*: every node on it has one more
/// visit, valued as a loss for the player who moved into it (the reward's value of a loss at
/// the root position; 0 for win/draw/loss rewards). Other threads selecting meanwhile then
/// see that path as worse and spread out over other moves instead of all waiting on the
/// same one; backpropagation replaces the virtual loss by the real result, so the statistics
/// end up exactly those of the iterations played.
///
/// Every [`UctConfig`] option works here (solver, RAVE, GRAVE, tree reuse, node cap); with all
/// children expanded at once, the playouts of a node's new children run under the lock. With
/// one thread this is exactly [`Uct`] (the same seed gives the same game); with more, the
/// order in which the threads take the lock varies, so results are not reproducible.
///
/// What to expect: the lock serialises selection, expansion and backpropagation, so the
/// playouts per second grow with the threads only while those take a small share of an
/// iteration (Connect Four more than Hex 11x11, where a selection weighs 121 children); on
/// many cores a single lock becomes the limit. Unlike root parallelisation, every playout
/// lands in the one tree, so deep lines get the statistics of all threads.
///
/// ```
/// use game_core::testing::TicTacToe;
/// use search::{Agent, Budget, TreeParallel, UctConfig};
///
/// let mut agent = TreeParallel::new(2, UctConfig::default(), game_core::WinDrawLoss::default(), 1);
/// let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
/// assert_eq!(agent.choose(&position, &Budget::iterations(4_000)), Some("c1".parse().unwrap()));
/// assert_eq!(agent.report().unwrap().root_visits, 4_000);
/// ```
#[derive(Debug)]
pub struct TreeParallel<G: Game, R, K = Knowledge> {
    uct: Uct<G, R, K>,
    /// The game's knowledge, for the playouts each thread runs outside the lock.
    knowledge: K,
    workers: Vec<Worker>,
}

/// What each thread of [`TreeParallel`] keeps to itself: the random numbers of its playouts,
/// and what its iterations write as they go (the path, the playout's marks).
#[derive(Debug)]
struct Worker {
    rng: Xoshiro256PlusPlus,
    trace: Trace,
}

impl<G, R> TreeParallel<G, R>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send,
{
    /// UCT on `threads` threads (at least one) sharing one tree, with these settings and
    /// reward; the tree's own random numbers are seeded with `seed`, each thread's playouts
    /// with a seed derived from it.
    #[must_use]
    pub fn new(threads: usize, config: UctConfig, reward: R, seed: u64) -> Self {
        TreeParallel::with_knowledge(threads, config, reward, Knowledge::NONE, seed)
    }
}

impl<G, R, K> TreeParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send,
    K: Guide<G> + Clone + Send + Sync,
{
    /// [`new`](TreeParallel::new) with what the game knows (see [`Uct::with_knowledge`]).
    #[must_use]
    pub fn with_knowledge(
        threads: usize,
        config: UctConfig,
        reward: R,
        knowledge: K,
        seed: u64,
    ) -> Self {
        TreeParallel {
            knowledge: knowledge.clone(),
            uct: Uct::with_knowledge(config, reward, knowledge, seed),
            workers: (1..=threads.max(1) as u64)
                .map(|k| Worker {
                    rng: Xoshiro256PlusPlus::seed_from_u64(mix64(seed ^ mix64(k))),
                    trace: Trace::default(),
                })
                .collect(),
        }
    }

    /// The number of threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The search of one thread: iterations until the budget is spent; returns how many.
    fn work(
        search: &Mutex<&mut TreeSearch<G::Action, R, K>>,
        knowledge: &K,
        worker: &mut Worker,
        position: &G,
        budget: &Budget,
        left: &AtomicI64,
        losses: [f64; 2],
    ) -> u64 {
        // Time and the stop flag, per thread; the iteration count is shared, in `left`.
        let clock = Budget {
            iterations: None,
            ..budget.clone()
        };
        let timed = clock.time.is_some() || clock.stop.is_some();
        if !timed && budget.iterations.is_none() {
            return 0; // no limit at all: a search does nothing
        }
        let mut meter = clock.start();
        let lock = || {
            // The lock is held for about a microsecond at a time: waiting for it by spinning
            // is much cheaper than sleeping in the kernel and being woken.
            for _ in 0..SPINS {
                match search.try_lock() {
                    Ok(guard) => return guard,
                    Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
                    Err(TryLockError::WouldBlock) => {
                        for _ in 0..32 {
                            std::hint::spin_loop();
                        }
                    }
                }
            }
            search.lock().unwrap_or_else(PoisonError::into_inner)
        };
        let Worker { rng, trace } = worker;
        loop {
            if (timed && !meter.more())
                || (budget.iterations.is_some() && left.fetch_sub(1, Relaxed) <= 0)
            {
                break;
            }
            let mut shared = lock();
            if shared.done() {
                break;
            }
            let leaf = match shared.descend(position, trace) {
                Leaf::Played(n) => {
                    left.fetch_sub(n.saturating_sub(1) as i64, Relaxed);
                    meter.count(n);
                    continue;
                }
                Leaf::At(leaf) => leaf,
            };
            shared.add_virtual_loss(trace, losses);
            let proof = trace.leaf(shared.tree());
            let rollout = shared.rollout(knowledge);
            drop(shared);
            let simulation = rollout.simulate(leaf, proof, rng, &mut trace.marked);
            lock().backpropagate(&simulation, trace, Some(losses));
            meter.count(1);
        }
        meter.done()
    }
}

impl<G, R, K> Agent<G> for TreeParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send,
    K: Guide<G> + Clone + Send + Sync,
{
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        let uct = &mut self.uct;
        if self.workers.len() == 1 || position.status().is_over() {
            return uct.choose(position, budget);
        }
        let started = Instant::now();
        uct.set_root(position);
        let losses = uct.search.virtual_losses(position);
        let left = AtomicI64::new(
            budget
                .iterations
                .map_or(i64::MAX, |n| i64::try_from(n).unwrap_or(i64::MAX)),
        );
        let shared = Mutex::new(&mut uct.search);
        let shared = &shared;
        let done: u64 = std::thread::scope(|scope| {
            let threads: Vec<_> = self
                .workers
                .iter_mut()
                .map(|worker| {
                    let left = &left;
                    let knowledge = &self.knowledge;
                    scope.spawn(move || {
                        Self::work(shared, knowledge, worker, position, budget, left, losses)
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().expect("a search thread panicked"))
                .sum()
        });
        uct.conclude(position, done, started.elapsed())
    }

    fn played(&mut self, position: &G, action: G::Action) {
        self.uct.played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.uct.report()
    }
}
