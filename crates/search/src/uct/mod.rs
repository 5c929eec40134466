//! UCT: Monte-Carlo tree search with UCB1 at every node (Kocsis and Szepesvári 2006).
//!
//! Each iteration has four phases:
//!
//! 1. **Selection**: from the root, while every child of the node has been tried, go to the
//!    child with the largest `mean + c * sqrt(ln N / n)` (N the node's visits, n the child's,
//!    means from the point of view of the player choosing).
//! 2. **Expansion**: the first time the search stops at a node it gains a child per legal
//!    action (in random order); one untried child is tried per iteration.
//! 3. **Simulation**: a random playout from the new child (the game's fast `random_playout`).
//! 4. **Backpropagation**: every node on the path counts a visit and adds the reward of the
//!    player who moved into it.
//!
//! Positions are not stored in nodes: each iteration clones the root position and plays the
//! path's actions on it, so a node is 24 bytes.
//!
//! Where each part lives: this file is the agent and the iteration's phases; `tree.rs` the
//! arena of nodes; `select.rs` the choice of a child; `rave.rs` RAVE and GRAVE; `solver.rs`
//! MCTS-Solver's proofs; `report.rs` the final choice and the report; `parallel/` the
//! searches on several threads; `config.rs` the settings.

mod backup;
mod batch;
mod choose;
mod config;
mod examine;
mod expand;
mod node;
mod parallel;
mod rave;
mod report;
mod select;
mod simulate;
mod solver;
mod tree;

pub use batch::BatchedUct;
pub use config::{Expansion, FinalChoice, RaveConfig, UctConfig};
pub use parallel::{RootParallel, TreeParallel};

use std::time::Duration;

use game_core::{
    Game, Outcome, PlayedActions, Player, Reward, WinDrawLoss,
    knowledge::{Examination, Guide, Knowledge},
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::budget::Meter;
use crate::{Agent, Budget, Report};
use node::{NodeId, PRUNED, Proof};
use rave::Rave;
use tree::Tree;

/// The UCT agent: Monte-Carlo tree search on an arena of nodes, with tree reuse between moves.
///
/// # Tree reuse
///
/// Tell the agent every move played ([`Agent::played`]). At its next search, if the position
/// is the old root's position after those moves, the matching subtree becomes the new root with
/// all its statistics and the rest is dropped; otherwise it starts a fresh tree.
///
/// # Memory
///
/// A node is 24 bytes (40 with RAVE and a prior). The tree never grows past
/// [`UctConfig::max_nodes`]: once half of it is used, leaves need more visits to gain children,
/// so that the tree keeps growing, more slowly, where the iterations go; at the cap the search
/// goes on playing out from its leaves.
///
/// ```
/// use game_core::{Game, testing::TicTacToe};
/// use search::{Agent, Budget, Uct};
///
/// let mut uct = Uct::new(1);
/// // o to move must block x's row at c1.
/// let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
/// let action = uct.choose(&position, &Budget::iterations(5_000));
/// assert_eq!(action, Some("c1".parse().unwrap()));
/// let report = uct.report().unwrap();
/// assert_eq!(report.root_visits, 5_000);
/// ```
#[derive(Clone, Debug)]
pub struct Uct<G: Game, R = WinDrawLoss, K = Knowledge> {
    search: TreeSearch<G::Action, R, K>,
    /// What one iteration writes as it goes.
    trace: Trace,
    /// The position at the root of the tree, and the moves played since.
    root: Option<G>,
    played: Vec<G::Action>,
    report: Option<Report<G::Action>>,
}

/// The tree and everything that grows it: what the threads of a tree-parallel search share.
#[derive(Clone, Debug)]
struct TreeSearch<A, R, K> {
    config: UctConfig,
    reward: R,
    /// The game's knowledge: a prior, a playout policy, an evaluator, each optional.
    knowledge: K,
    /// The tree's random numbers (which untried child to try) and, on one thread, the
    /// playouts' too.
    rng: Xoshiro256PlusPlus,
    tree: Tree<A>,
    /// RAVE's and GRAVE's state, when they are on.
    rave: Option<Rave>,
    /// Whether nodes gain their children (and priors) after the selection, from a batch
    /// evaluator ([`BatchedUct`]), instead of when the selection reaches them.
    deferred: bool,
    /// Buffers: the actions and prior weights of a node's new children, and the scores of a
    /// PUCT selection.
    actions: Vec<A>,
    weights: Vec<f32>,
    scores: Vec<f32>,
    /// What the prior found about a node's moves ([`UctConfig::examine`]).
    found: Examination<A>,
    /// Whether a node found no room for its children since the last
    /// [`make_room`](TreeSearch::make_room).
    full: bool,
}

/// What one iteration writes as it goes: its path (each node and the player who moved into
/// it) and, for RAVE, the actions each player played in its playout. Each thread of a parallel
/// search has its own.
#[derive(Clone, Debug, Default)]
struct Trace {
    path: Vec<(NodeId, Player)>,
    marked: PlayedActions,
}

impl Trace {
    /// The node at the end of the path (the root for an empty path).
    fn end(&self) -> NodeId {
        self.path.last().map_or(NodeId::ROOT, |&(id, _)| id)
    }

    /// The end of the path: its node's proof and the player who moved into it.
    fn leaf<A>(&self, tree: &Tree<A>) -> Option<(Proof, Player)> {
        self.path.last().map(|&(id, mover)| (tree[id].proof, mover))
    }
}

/// Where the selection of an iteration ended.
enum Leaf<G> {
    /// At this position (the end of the path), to be played out.
    At(G),
    /// It expanded every child of a node at once and played each out: this many playouts.
    Played(u64),
}

impl<G: Game> Uct<G> {
    /// UCT with the default settings and win/draw/loss rewards, seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Uct::with_config(UctConfig::default(), WinDrawLoss::default(), seed)
    }
}

impl<G: Game, R: Reward<G>> Uct<G, R> {
    /// UCT with these settings and this reward, seeded with `seed`.
    #[must_use]
    pub fn with_config(config: UctConfig, reward: R, seed: u64) -> Self {
        Uct::with_knowledge(config, reward, Knowledge::NONE, seed)
    }
}

impl<G: Game, R: Reward<G>, K: Guide<G>> Uct<G, R, K> {
    /// UCT with these settings, this reward and what the game knows (a prior for selection,
    /// a playout policy, an evaluator for simulations cut short: see [`Knowledge`]), seeded
    /// with `seed`.
    ///
    /// ```
    /// use game_core::{Game, testing::{Cell, TicTacToe}, knowledge::{Knowledge, Prior}};
    /// use search::{Agent, Budget, Uct, UctConfig};
    ///
    /// /// A prior that likes the centre.
    /// struct Centre;
    /// impl Prior<TicTacToe> for Centre {
    ///     fn weigh(&self, _: &TicTacToe, actions: &[Cell], weights: &mut Vec<f32>) {
    ///         weights.extend(actions.iter().map(|&c| if c.to_string() == "b2" { 8.0 } else { 1.0 }));
    ///     }
    /// }
    /// let knowledge = Knowledge::NONE.with_prior(Centre);
    /// let reward = game_core::WinDrawLoss::default();
    /// let mut uct = Uct::with_knowledge(UctConfig::default(), reward, knowledge, 1);
    /// let first = uct.choose(&TicTacToe::new(), &Budget::iterations(2_000));
    /// assert_eq!(first, Some("b2".parse().unwrap()));
    /// ```
    #[must_use]
    pub fn with_knowledge(config: UctConfig, reward: R, knowledge: K, seed: u64) -> Self {
        let prior = knowledge.has_prior();
        Uct {
            search: TreeSearch::new(config, reward, knowledge, prior, seed),
            trace: Trace::default(),
            root: None,
            played: Vec::new(),
            report: None,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &UctConfig {
        &self.search.config
    }

    /// Makes the tree's root `position` (an ongoing game): the subtree reached by the moves
    /// played since the last search, if reuse is on and they lead there; a fresh tree
    /// otherwise.
    fn set_root(&mut self, position: &G) {
        let tree = &mut self.search.tree;
        let mut kept = None;
        if let (true, Some(old)) = (self.search.config.reuse, &self.root) {
            let mut node = Some(NodeId::ROOT);
            let mut at = old.clone();
            for &action in &self.played {
                node = node.and_then(|id| tree.child(id, action));
                if node.is_none() || !at.is_legal(action) {
                    node = None;
                    break;
                }
                at.play(action);
            }
            if at == *position {
                kept = node;
            }
        }
        match kept {
            Some(id) => tree.retain(id),
            None => tree.reset(position),
        }
        self.root = Some(position.clone());
        self.played.clear();
    }

    /// Ends a search from `position` that ran `iterations` in `elapsed`: keeps its report and
    /// returns the action to play.
    fn conclude(&mut self, position: &G, iterations: u64, elapsed: Duration) -> Option<G::Action> {
        let (chosen, report) = self.search.conclude(position, iterations, elapsed);
        self.report = Some(report);
        chosen
    }
}

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    fn new(config: UctConfig, reward: R, knowledge: K, prior: bool, seed: u64) -> Self {
        let rave = config.rave.map(Rave::new);
        TreeSearch {
            config,
            reward,
            knowledge,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            tree: Tree::new(rave.is_some(), prior),
            rave,
            deferred: false,
            actions: Vec::new(),
            weights: Vec::new(),
            scores: Vec::new(),
            found: Examination::default(),
            full: false,
        }
    }

    /// Whether a search whose `meter` has stopped goes on: with [`UctConfig::extend`], once,
    /// when the time alone stopped it and the move to play is unsure ([`Tree::unstable`]).
    fn extends(&self, meter: &mut Meter<'_>) -> bool {
        let factor = self.config.extend;
        factor > 1.0 && self.tree.unstable() && meter.extend(factor)
    }

    /// Whether the solver has decided the root, so that there is nothing left to search.
    fn done(&self) -> bool {
        self.config.prove && self.tree.root_decided()
    }

    /// The tree, to read.
    fn tree(&self) -> &Tree<A> {
        &self.tree
    }

    /// The reward of a loss for each player, in `position`: the virtual loss of tree
    /// parallelisation.
    fn virtual_losses<G>(&self, position: &G) -> [f64; 2]
    where
        G: Game<Action = A>,
        R: Reward<G>,
    {
        Player::BOTH.map(|p| self.reward.reward(position, Outcome::Win(p.opponent()), p))
    }

    /// Prunes the tree ([`Tree::prune`]) to half of [`UctConfig::max_nodes`] once it holds
    /// three quarters (before the doubling of [`UctConfig::expand_threshold`] slows its
    /// growth much), or a node found no room for its children, when [`UctConfig::prune`] is
    /// on: between iterations, on one thread.
    #[inline]
    fn make_room(&mut self) {
        let cap = self.config.max_nodes;
        if self.config.prune && (self.full || self.tree.len() >= cap - cap / 4) {
            self.tree.prune(cap / 2);
        }
        self.full = false;
    }

    /// One iteration (or, when expanding all children at once, one per new child) from `root`,
    /// on one thread; returns how many playouts it ran.
    fn iterate<G>(&mut self, root: &G, trace: &mut Trace) -> u64
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        match self.descend(root, trace) {
            Leaf::Played(n) => n,
            Leaf::At(position) => {
                let simulation = self.simulate(position, trace);
                self.backpropagate(&simulation, trace, None);
                1
            }
        }
    }

    /// Selection and expansion: walks down from `root`, filling the trace's path, to where the
    /// iteration plays out. With all children expanded at once, it also plays them out.
    fn descend<G>(&mut self, root: &G, trace: &mut Trace) -> Leaf<G>
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        let mut position = root.clone();
        trace.path.clear();
        let mut node = NodeId::ROOT;
        if let Some(rave) = &mut self.rave {
            rave.start();
        }
        loop {
            if position.status().is_over() {
                break;
            }
            let mover = position.to_move();
            let leaf = &self.tree[node];
            // A leaf that pruning took the children of gains them again: examined again too,
            // past the visits of its first examination.
            let regrown = leaf.len == 0 && leaf.first == PRUNED;
            if leaf.len == 0
                && (self.deferred
                    || (node != NodeId::ROOT
                        && leaf.visits < self.config.expand_threshold(self.tree.len()))
                    || !self.expand(node, &position))
            {
                // Too young to expand, or the tree is full: play out from this leaf. (Or it
                // waits for a batch evaluator.)
                break;
            }
            let visits = self.tree[node].visits;
            let examine = self
                .config
                .examine
                .is_some_and(|at| visits == at || (regrown && visits > at));
            if examine && self.tree.has_priors() {
                examine::examine(self, node, &position, &trace.path);
                if self.tree[node].proof != Proof::Open && node != NodeId::ROOT {
                    break; // decided: back up its result instead of going on
                }
            }
            if let Some(rave) = &mut self.rave {
                rave.enter(&self.tree, node, &position);
            }
            let (first, tried) = (self.tree[node].first, self.tree[node].tried);
            if self.config.expansion == Expansion::All && tried == 0 {
                let n = self.simulate_all_children(node, &position, trace);
                return Leaf::Played(n);
            }
            let best = self.choose_child(node);
            let tried = usize::from(tried);
            if best >= tried {
                let child = self.tree.try_child_at(node, best);
                self.tree.lead_untried(node);
                position.play(self.tree[child].action);
                trace.path.push((child, mover));
                break;
            }
            let child = first.offset(best);
            position.play(self.tree[child].action);
            trace.path.push((child, mover));
            node = child;
            if self.tree[node].proof != Proof::Open {
                // Decided (by the solver, or by a verdict without it): back up its result
                // instead of playing out.
                break;
            }
        }
        Leaf::At(position)
    }

    /// The end of a search from `position` that ran `iterations` in `elapsed`: the action to
    /// play (by the final choice; a random legal one if no child was tried) and the report.
    fn conclude<G: Game<Action = A>>(
        &mut self,
        position: &G,
        iterations: u64,
        elapsed: Duration,
    ) -> (Option<A>, Report<A>) {
        let chosen = match self.tree.final_choice(self.config.final_choice) {
            Some(id) => Some(self.tree[id].action),
            None => position.random_action(&mut self.rng),
        };
        (chosen, self.tree.report(chosen, iterations, elapsed))
    }
}

impl<G: Game, R: Reward<G>, K: Guide<G>> Agent<G> for Uct<G, R, K> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            self.report = None;
            return None;
        }
        self.set_root(position);
        let mut meter = budget.start();
        while (meter.more() || self.search.extends(&mut meter)) && !self.search.done() {
            let done = self.search.iterate(position, &mut self.trace);
            meter.count(done);
            self.search.make_room();
        }
        self.conclude(position, meter.done(), meter.elapsed())
    }

    fn played(&mut self, _position: &G, action: G::Action) {
        if self.root.is_some() {
            self.played.push(action);
        }
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}
