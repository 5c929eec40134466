//! Root parallelisation: a tree per thread, merged at the root.

use std::collections::HashMap;
use std::time::Instant;

use game_core::{
    Game, Reward,
    knowledge::{Guide, Knowledge},
    mix64,
};

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
        )
        .map(|report| Report {
            threads: self.workers.len(),
            ..report
        });
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
    report.proven = reports.iter().find_map(|r| r.proven);
    Some(report)
}
