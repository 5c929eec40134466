//! Flat Monte-Carlo and UCB1: bandits over the root actions, random playouts below them.
//!
//! Neither builds a tree: each iteration plays one root action and then random moves to the
//! end. Flat Monte-Carlo spreads the playouts evenly; UCB1 (Auer, Cesa-Bianchi and Fischer
//! 2002) spends more of them on the actions that look best, while still trying the others
//! `c * sqrt(ln N / n)` worth. Both choose the action with the best mean reward.

mod config;

pub use config::Policy;

use game_core::{Game, Reward, Status, WinDrawLoss};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{ActionStats, Agent, Budget, Report};

/// A flat Monte-Carlo agent ([`Policy::Uniform`]) or a UCB1 bandit ([`Policy::Ucb1`]), with
/// reward `R`.
///
/// ```
/// use game_core::{Game, testing::TicTacToe};
/// use search::{Agent, Budget, Flat};
///
/// // x to move can win at c1.
/// let position: TicTacToe = "xx.\noo.\n...".parse().unwrap();
/// let mut mc = Flat::monte_carlo(1);
/// assert_eq!(mc.choose(&position, &Budget::iterations(2000)), Some("c1".parse().unwrap()));
/// let mut ucb1 = Flat::ucb1(0.7, 1);
/// assert_eq!(ucb1.choose(&position, &Budget::iterations(2000)), Some("c1".parse().unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct Flat<G: Game, R = WinDrawLoss> {
    policy: Policy,
    reward: R,
    rng: Xoshiro256PlusPlus,
    report: Option<Report<G::Action>>,
}

impl<G: Game> Flat<G> {
    /// Flat Monte-Carlo with win/draw/loss rewards (1 / 0.5 / 0).
    #[must_use]
    pub fn monte_carlo(seed: u64) -> Self {
        Flat::new(Policy::Uniform, WinDrawLoss::default(), seed)
    }

    /// UCB1 with exploration constant `c` and win/draw/loss rewards.
    #[must_use]
    pub fn ucb1(c: f64, seed: u64) -> Self {
        Flat::new(Policy::Ucb1 { c }, WinDrawLoss::default(), seed)
    }
}

impl<G: Game, R: Reward<G>> Flat<G, R> {
    /// An agent with any policy and reward, its generator seeded with `seed`.
    #[must_use]
    pub fn new(policy: Policy, reward: R, seed: u64) -> Self {
        Flat {
            policy,
            reward,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            report: None,
        }
    }

    /// One playout after `action`: the reward for the player who played it.
    fn sample(&mut self, position: &G, action: G::Action) -> f64 {
        let mover = position.to_move();
        let mut end = position.after(action);
        let outcome = match end.status() {
            Status::Over(outcome) => outcome,
            Status::Ongoing => end.random_playout(&mut self.rng).outcome,
        };
        self.reward.reward(&end, outcome, mover)
    }
}

impl<G: Game, R: Reward<G>> Agent<G> for Flat<G, R> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        let mut actions = position.legal_actions_vec();
        if actions.is_empty() {
            self.report = None;
            return None;
        }
        // In random order: equal means (frequent with few playouts per action) are then broken
        // at random, not always towards the end of the game's move list.
        actions.shuffle(&mut self.rng);
        let mut visits = vec![0u64; actions.len()];
        let mut sums = vec![0f64; actions.len()];
        let mut meter = budget.start();
        while meter.more() {
            let done = meter.done();
            let arm = match self.policy {
                Policy::Uniform => (done % actions.len() as u64) as usize,
                Policy::Ucb1 { .. } if (done as usize) < actions.len() => done as usize,
                Policy::Ucb1 { c } => {
                    let log_total = (done as f64).ln();
                    let score = |i: usize| {
                        sums[i] / visits[i] as f64 + c * (log_total / visits[i] as f64).sqrt()
                    };
                    (0..actions.len())
                        .max_by(|&a, &b| score(a).total_cmp(&score(b)))
                        .expect("actions")
                }
            };
            let reward = self.sample(position, actions[arm]);
            visits[arm] += 1;
            sums[arm] += reward;
            meter.count(1);
        }
        let mean = |i: usize| {
            if visits[i] == 0 {
                f64::NAN
            } else {
                sums[i] / visits[i] as f64
            }
        };
        let best = (0..actions.len())
            .filter(|&i| visits[i] > 0)
            .max_by(|&a, &b| mean(a).total_cmp(&mean(b)));
        let chosen = match best {
            Some(i) => actions[i],
            None => position.random_action(&mut self.rng)?,
        };
        let mut stats: Vec<ActionStats<G::Action>> = (0..actions.len())
            .map(|i| ActionStats {
                action: actions[i],
                visits: visits[i],
                mean: mean(i),
                proof: None,
            })
            .collect();
        stats.sort_by_key(|s| std::cmp::Reverse(s.visits));
        let mut report = Report::new(Some(chosen), meter.done(), meter.elapsed());
        report.root_visits = meter.done();
        report.actions = stats;
        self.report = Some(report);
        Some(chosen)
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}
