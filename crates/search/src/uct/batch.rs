//! UCT with a batch evaluator: PUCT selection, leaves gathered under virtual loss and
//! evaluated together (a prior for the leaf's children and a value in place of a playout).

use std::fmt;

use game_core::{
    Game, Reward, WinDrawLoss,
    knowledge::{Batch, BatchEvaluator, Knowledge},
};

use super::node::NodeId;
use super::simulate::Simulation;
use super::{Expansion, Leaf, Trace, Uct, UctConfig};
use crate::{Agent, Budget, Report};

/// UCT guided by a [`BatchEvaluator`], AlphaZero's way: a neural network (or any evaluator that
/// is cheaper per position in batches) gives each new leaf a prior over its moves and a value,
/// and the search gathers `batch` leaves before each call.
///
/// Each iteration selects by PUCT (`Q + c·P·sqrt(N)/(1+n)`, [`UctConfig::puct`]) down to a
/// leaf the evaluator has not seen, and counts a *virtual loss* on its path so that the next
/// selections of the same batch spread to other leaves. When the batch is full (or a selection
/// comes back to a leaf already in it, or the budget is spent), the evaluator scores the batch
/// in one call; each leaf gains its children with the evaluator's priors, and its value
/// replaces its virtual loss on the path. Finished games (and, with the solver, proven nodes)
/// are backed up at once, without the evaluator. There are no playouts.
///
/// With batches of one this is the search [`Uct`] makes with the same evaluator as its prior
/// and leaf evaluation (`cutoff=0`): the same choices, visit for visit. Larger batches evaluate
/// leaves chosen with less information (the virtual losses stand in for results not yet in),
/// which costs strength per iteration and buys speed where a call is expensive.
///
/// The tree, its memory cap, tree reuse, the solver and the final choice are [`Uct`]'s.
/// RAVE and `expansion=all` (which need playouts) do not apply and are turned off; every node
/// gains its children when it is evaluated (`expand_after` does not apply either).
///
/// ```
/// use game_core::{Game, testing::TicTacToe, knowledge::{Batch, BatchEvaluator}};
/// use search::{Agent, BatchedUct, Budget, UctConfig};
///
/// /// A stand-in for a network: every move equally likely, every position even.
/// struct Flat;
/// impl BatchEvaluator<TicTacToe> for Flat {
///     fn evaluate(&mut self, batch: &mut Batch<TicTacToe>) {
///         for i in 0..batch.len() {
///             batch.priors_mut(i).fill(1.0);
///             batch.set_value(i, 0.5);
///         }
///     }
/// }
/// let mut agent = BatchedUct::new(UctConfig::default(), Flat, 8, 1);
/// // o to move must block x's row at c1.
/// let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
/// assert_eq!(agent.choose(&position, &Budget::iterations(2_000)), Some("c1".parse().unwrap()));
/// assert_eq!(agent.report().unwrap().iterations, 2_000);
/// ```
pub struct BatchedUct<G: Game, E, R = WinDrawLoss> {
    uct: Uct<G, R>,
    evaluator: E,
    /// The most leaves per call of the evaluator.
    size: usize,
    batch: Batch<G>,
    /// The trace of each leaf in the batch, in the batch's order (and spares, kept for their
    /// buffers).
    traces: Vec<Trace>,
    /// Calls of the evaluator in the last search.
    calls: u64,
}

impl<G: Game, E: BatchEvaluator<G>> BatchedUct<G, E> {
    /// The batched search with these settings and win/draw/loss rewards, calling `evaluator`
    /// with at most `batch` positions at a time (at least one), seeded with `seed`.
    #[must_use]
    pub fn new(config: UctConfig, evaluator: E, batch: usize, seed: u64) -> Self {
        BatchedUct::with_reward(config, WinDrawLoss::default(), evaluator, batch, seed)
    }
}

impl<G: Game, E: BatchEvaluator<G>, R: Reward<G>> BatchedUct<G, E, R> {
    /// [`new`](BatchedUct::new) with another reward.
    #[must_use]
    pub fn with_reward(
        mut config: UctConfig,
        reward: R,
        evaluator: E,
        batch: usize,
        seed: u64,
    ) -> Self {
        config.rave = None;
        config.expansion = Expansion::One;
        let mut uct = Uct::with_knowledge(config, reward, Knowledge::NONE, seed);
        uct.search.tree = super::Tree::new(false, true);
        uct.search.deferred = true;
        BatchedUct {
            uct,
            evaluator,
            size: batch.max(1),
            batch: Batch::new(),
            traces: Vec::new(),
            calls: 0,
        }
    }

    /// The settings (RAVE off, expansion one at a time).
    #[must_use]
    pub fn config(&self) -> &UctConfig {
        self.uct.config()
    }

    /// The most positions per call of the evaluator.
    #[must_use]
    pub fn batch_size(&self) -> usize {
        self.size
    }

    /// How many times the last search called the evaluator (its iterations over this are the
    /// mean batch).
    #[must_use]
    pub fn evaluator_calls(&self) -> u64 {
        self.calls
    }

    /// The evaluator.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// Gives the root its children and priors if it has none yet (a fresh tree): a batch of one
    /// that counts as no iteration.
    fn expand_root(&mut self, position: &G) {
        let search = &mut self.uct.search;
        if search.tree[NodeId::ROOT].len > 0 {
            return;
        }
        self.batch.clear();
        self.batch.push(position.clone());
        self.evaluator.evaluate(&mut self.batch);
        self.calls += 1;
        if search
            .tree
            .expand(NodeId::ROOT, position, search.config.max_nodes)
        {
            search.set_priors(NodeId::ROOT, self.batch.priors(0));
            search.tree.lead_untried(NodeId::ROOT);
        }
    }

    /// Gathers a batch of at most `room` leaves from `root`, evaluates it and backs it up;
    /// returns the iterations it made (leaves evaluated and finished games backed up).
    /// `losses` are the virtual losses to count on the paths of the leaves waiting for the
    /// evaluator (none for batches of one: nothing else is selected while a leaf waits).
    fn iterate(&mut self, root: &G, room: usize, losses: Option<[f64; 2]>) -> u64 {
        let search = &mut self.uct.search;
        self.batch.clear();
        let mut waiting = 0;
        let mut finished = 0;
        while waiting + finished < room {
            if self.traces.len() == waiting {
                self.traces.push(Trace::default());
            }
            let trace = &mut self.traces[waiting];
            let Leaf::At(leaf) = search.descend(root, trace) else {
                unreachable!("the batched search expands one child at a time");
            };
            let node = trace.end();
            let proven = search.config.prove && search.tree[node].proof.wdl().is_some();
            if leaf.status().is_over() || proven {
                let simulation = search.simulate(leaf, trace);
                search.backpropagate(&simulation, trace, None);
                finished += 1;
                continue;
            }
            if self.traces[..waiting].iter().any(|t| t.end() == node) {
                break; // back at a leaf of this batch: evaluate what there is
            }
            if let Some(losses) = losses {
                search.add_virtual_loss(&self.traces[waiting], losses);
            }
            self.batch.push(leaf);
            waiting += 1;
        }
        if waiting > 0 {
            self.evaluator.evaluate(&mut self.batch);
            self.calls += 1;
        }
        for (i, trace) in self.traces[..waiting].iter_mut().enumerate() {
            let node = trace.end();
            let position = self.batch.position(i);
            if search.tree.expand(node, position, search.config.max_nodes) {
                search.set_priors(node, self.batch.priors(i));
                search.tree.lead_untried(node);
            }
            let simulation = Simulation {
                position: position.clone(),
                outcome: game_core::Outcome::Draw,
                plies: 0,
                finished: false,
                value: Some(self.batch.value(i).clamp(0.0, 1.0)),
            };
            search.backpropagate(&simulation, trace, losses);
        }
        (waiting + finished) as u64
    }
}

impl<G: Game, E: BatchEvaluator<G>, R: Reward<G>> Agent<G> for BatchedUct<G, E, R> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            self.uct.report = None;
            return None;
        }
        self.uct.set_root(position);
        self.calls = 0;
        self.expand_root(position);
        let losses = (self.size > 1).then(|| self.uct.search.virtual_losses(position));
        let mut meter = budget.start();
        while (meter.more() || self.uct.search.extends(&mut meter)) && !self.uct.search.done() {
            let room = meter
                .remaining()
                .map_or(self.size, |left| left.min(self.size as u64) as usize);
            let done = self.iterate(position, room, losses);
            meter.count(done);
        }
        self.uct.conclude(position, meter.done(), meter.elapsed())
    }

    fn played(&mut self, position: &G, action: G::Action) {
        self.uct.played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.uct.report()
    }
}

impl<G: Game, E, R> fmt::Debug for BatchedUct<G, E, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchedUct")
            .field("batch_size", &self.size)
            .field("config", &self.uct.search.config)
            .finish_non_exhaustive()
    }
}
