//! Tree parallelisation under one lock: what [`TreeParallel`](super::TreeParallel) runs for
//! the options the lock-free tree does not have (RAVE and GRAVE under PUCT, every child
//! expanded at once).

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError, TryLockError};
use std::time::Instant;

use game_core::{Game, Reward, knowledge::Guide, mix64};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::uct::{Leaf, Trace, TreeSearch};
use crate::{Agent, Budget, Report, Uct, UctConfig};

/// How many times a thread of [`Locked`] tries the tree's lock before it sleeps on it.
const SPINS: u32 = 4_000;

/// Tree parallelisation (Chaslot, Winands and van den Herik 2008) under one lock: a thread
/// holds the tree's lock while it selects a path and expands, and again while it backs up the
/// result; the playout runs without it. Virtual loss as in the lock-free tree. Every
/// [`UctConfig`] option works here; with all children expanded at once, the playouts of a
/// node's new children run under the lock. With one thread this is exactly [`Uct`].
#[derive(Debug)]
pub(super) struct Locked<G: Game, R, K> {
    uct: Uct<G, R, K>,
    /// The game's knowledge, for the playouts each thread runs outside the lock.
    knowledge: K,
    workers: Vec<Worker>,
}

/// What each thread of [`Locked`] keeps to itself: the random numbers of its playouts,
/// and what its iterations write as they go (the path, the playout's marks).
#[derive(Debug)]
struct Worker {
    rng: Xoshiro256PlusPlus,
    trace: Trace,
}

impl<G, R, K> Locked<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send,
    K: Guide<G> + Clone + Send + Sync,
{
    /// On `threads` threads, with these settings, reward and knowledge; seeded with `seed`.
    pub(super) fn with_knowledge(
        threads: usize,
        config: UctConfig,
        reward: R,
        knowledge: K,
        seed: u64,
    ) -> Self {
        Locked {
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
    pub(super) fn threads(&self) -> usize {
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
        let Some((clock, timed)) = super::thread_clock(budget) else {
            return 0;
        };
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

impl<G, R, K> Agent<G> for Locked<G, R, K>
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
        let chosen = uct.conclude(position, done, started.elapsed());
        if let Some(report) = &mut uct.report {
            report.threads = self.workers.len();
            report.locked = true;
        }
        chosen
    }

    fn played(&mut self, position: &G, action: G::Action) {
        self.uct.played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.uct.report()
    }
}
