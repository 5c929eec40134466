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

mod batch;
mod config;
mod parallel;
mod rave;
mod report;
mod select;
mod solver;
mod tree;

pub use batch::BatchedUct;
pub use config::{Expansion, FinalChoice, UctConfig};
pub use parallel::{RootParallel, TreeParallel};

use std::time::Duration;

use game_core::{
    Examination, Game, Guide, Knowledge, Outcome, PlayedActions, Player, Reward, Status, Verdict,
    WinDrawLoss,
};
use rand::{Rng, RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::budget::Meter;
use crate::{Agent, Budget, Report};
use rave::Rave;
use select::{Bias, Puct, ln_visits, select, select_open, select_puct};
use solver::Proof;
use tree::{NodeId, Tree};

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

/// The result of one simulation.
struct Simulation<G> {
    /// The position at the end of the game (or of the path, for a decided one).
    position: G,
    outcome: Outcome,
    /// Plies from the end of the path to the end of the game.
    plies: u32,
    /// Whether the game was already over at the end of the path.
    finished: bool,
    /// For a simulation cut short: the evaluator's win probability for the player to move in
    /// `position` (which goes on); `outcome` is then meaningless.
    value: Option<f64>,
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
    /// use game_core::{Game, Knowledge, Prior, testing::{Cell, TicTacToe}};
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
        let rave = (config.rave > 0.0)
            .then(|| Rave::new(config.rave as f32, config.grave, config.skip_rave));
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
        self.config.solver && self.tree.root_decided()
    }

    /// The tree, to read.
    fn tree(&self) -> &Tree<A> {
        &self.tree
    }

    /// How this search's simulations run, with `knowledge` (the tree's own, or a thread's
    /// copy of it for the simulations it runs outside the lock).
    fn rollout<'k>(&self, knowledge: &'k K) -> Rollout<'k, K> {
        Rollout {
            knowledge,
            cutoff: self.config.cutoff,
            record: self.rave.is_some(),
        }
    }

    /// The simulation phase on one thread, from `position` at the end of the trace's path.
    fn simulate<G>(&mut self, position: G, trace: &mut Trace) -> Simulation<G>
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        let leaf = trace.leaf(&self.tree);
        let rollout = self.rollout(&self.knowledge);
        rollout.simulate(position, leaf, &mut self.rng, &mut trace.marked)
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
        let c = self.config.exploration as f32;
        if let Some(rave) = &mut self.rave {
            rave.start();
        }
        loop {
            if position.status().is_over() {
                break;
            }
            let mover = position.to_move();
            let leaf = &self.tree[node];
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
            if self.config.examine > 0
                && self.tree[node].visits == self.config.examine
                && self.tree.has_priors()
            {
                self.examine(node, &position, &trace.path);
                if self.tree[node].proof != Proof::Open && node != NodeId::ROOT {
                    break; // decided: back up its result instead of going on
                }
            }
            if let Some(rave) = &mut self.rave {
                rave.enter(&self.tree, node, &position);
            }
            // The fields the rest needs, not a copy of the node (which would go to the stack).
            let current = &self.tree[node];
            let (visits, first, tried) = (current.visits, current.first, current.tried);
            if self.config.expansion == Expansion::All && tried == 0 {
                let n = self.simulate_all_children(node, &position, trace);
                return Leaf::Played(n);
            }
            let children = self.tree.children(current);
            let log_visits = ln_visits(visits);
            // The place of the child to go to; an untried one (at `tried` or after) is tried.
            // With RAVE and a prior, RAVE's selection with a progressive bias if there is one,
            // else PUCT's with the AMAF means blended in.
            let has_priors = self.tree.has_priors();
            let biased = has_priors && self.config.bias > 0.0;
            let mut best = if let Some(rave) = &mut self.rave
                && (biased || !has_priors)
            {
                // RAVE, over the tried and untried children alike.
                let bias = biased.then(|| Bias {
                    priors: self.tree.priors(current),
                    weight: self.config.bias as f32,
                });
                rave.select(&self.tree, node, c * log_visits.sqrt(), bias, &mut self.rng)
            } else if has_priors {
                // PUCT, over the tried and untried children alike.
                let puct = Puct {
                    scale: self.config.puct as f32 * (visits as f32).sqrt(),
                    fpu: self.config.fpu as f32,
                };
                let priors = self.tree.priors(current);
                select_puct(
                    children,
                    priors,
                    usize::from(tried),
                    puct,
                    self.rave
                        .as_ref()
                        .map(|rave| rave.puct_view(&self.tree, node)),
                    true,
                    &mut self.scores,
                )
            } else if !current.fully_tried() {
                // UCT: the untried children first, in a random order: one random number a
                // try (untried children have no statistics and no children, so trying one
                // moves nothing else), instead of a shuffle when the node is expanded.
                usize::from(tried) + self.rng.random_range(0..usize::from(current.len - tried))
            } else {
                select(children, c, log_visits)
            };
            let tried = usize::from(tried);
            if self.config.solver && best < tried && children[best].proof == Proof::Draw {
                // A proven draw has nothing left to learn; while other children are open, the
                // iteration goes to one of those instead (else the proof of the node waits for
                // selection to explore moves that look worse than the draw): an untried one
                // first (the leading one), else the best open one by UCB1.
                if tried < children.len() {
                    best = tried;
                } else if let Some(open) = select_open(children, c, log_visits) {
                    best = open;
                }
            }
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

    /// Gives `node` its children (if the tree has room), with their prior probabilities when
    /// there is a prior; returns whether it did.
    fn expand<G>(&mut self, node: NodeId, position: &G) -> bool
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        if !self.tree.expand(node, position, self.config.max_nodes) {
            return false;
        }
        if self.tree.has_priors() {
            self.load_actions(node);
            let mut weights = std::mem::take(&mut self.weights);
            weights.clear();
            self.knowledge.weigh(position, &self.actions, &mut weights);
            self.set_priors(node, &weights);
            self.tree.lead_untried(node);
            self.weights = weights;
        }
        true
    }

    /// Puts the actions of `node`'s children, in their order, into the `actions` buffer.
    fn load_actions(&mut self, node: NodeId) {
        let children = self.tree.children(&self.tree[node]);
        self.actions.clear();
        self.actions
            .extend(children.iter().map(|child| child.action));
    }

    /// Asks the prior what is proven about the moves of `node` (expanded; at `position`, the
    /// end of `path`): a losing move's prior becomes 0 and a winning move takes the whole prior;
    /// with the solver, the decided children are marked tried and proven, and the proofs
    /// carried up `path`. Nothing is done with verdicts that are all alike. Then the replies
    /// it advises are favoured ([`favour_replies`](Self::favour_replies)).
    fn examine<G>(&mut self, node: NodeId, position: &G, path: &[(NodeId, Player)])
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        self.load_actions(node);
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.knowledge.examine(position, &self.actions, &mut found);
        self.weigh_by_verdicts(node, position, path, &mut found.verdicts);
        if !found.replies.is_empty() && self.tree[node].proof == Proof::Open {
            self.favour_replies(node, position, &found.replies);
        }
        self.found = found;
    }

    /// What [`examine`](Self::examine) does with the `verdicts` on the moves of `node`.
    fn weigh_by_verdicts<G>(
        &mut self,
        node: NodeId,
        position: &G,
        path: &[(NodeId, Player)],
        verdicts: &mut [Verdict],
    ) where
        G: Game<Action = A>,
        R: Reward<G>,
    {
        if !self.config.solver {
            // The verdicts decide the node itself when the player to move has a winning move
            // or every move loses. Without the solver the result is not carried up the path
            // (the parent goes on choosing by means, which against a fallible opponent
            // finds the move that resists best); it stands for the node's playouts instead,
            // as a finished game's would, so that its mean tends to the proven value. At the
            // root it is what the report proves (the search goes on choosing the move).
            self.tree[node].proof = decided_by(verdicts, self.actions.len());
        }
        let mut weights = std::mem::take(&mut self.weights);
        weights.clear();
        weights.extend_from_slice(self.tree.priors(&self.tree[node]));
        if !weigh_verdicts(&mut weights, verdicts) {
            self.weights = weights;
            return;
        }
        self.set_priors(node, &weights);
        self.weights = weights;
        if self.config.solver {
            // The decided untried children become tried (ahead of the others), so that the
            // node's proof can count them; the verdicts follow the children's moves.
            let (tried, len) = (self.tree[node].tried, self.tree[node].len);
            let mut next = usize::from(tried);
            for offset in usize::from(tried)..usize::from(len) {
                if verdicts[offset] != Verdict::Unknown {
                    self.tree.try_child_at(node, offset);
                    verdicts.swap(next, offset);
                    next += 1;
                }
            }
            let first = self.tree[node].first;
            let draw = self
                .reward
                .reward(position, Outcome::Draw, position.to_move());
            for (offset, &verdict) in verdicts.iter().enumerate().take(next) {
                let proof = Proof::from(verdict);
                let child = &mut self.tree[first.offset(offset)];
                if proof != Proof::Open && child.proof == Proof::Open {
                    child.prove(proof, draw);
                }
            }
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            self.tree.propagate_proofs(path, draws);
        }
        self.tree.lead_untried(node);
    }

    /// Follows the `replies` an examination of `node` (at `position`) advised: for each move
    /// with replies, its child (expanded now if it was not, and the tree has room) gains
    /// [`UctConfig::reply`] of prior on each advised reply whose prior is above 0 (a move its
    /// own examination proved lost, or an inferior one, stays out), and the priors are
    /// normalised again. Replies to unknown moves, or not legal after them, are ignored.
    fn favour_replies<G>(&mut self, node: NodeId, position: &G, replies: &[(A, A)])
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        let bonus = self.config.reply as f32;
        if bonus <= 0.0 || self.deferred {
            return;
        }
        for action in advised_moves(replies) {
            let Some(child) = self.tree.child(node, action) else {
                continue;
            };
            if self.tree[child].proof != Proof::Open {
                continue;
            }
            if self.tree[child].len == 0 && !self.expand(child, &position.after(action)) {
                continue; // the game is over there, or the tree is full
            }
            let mut weights = std::mem::take(&mut self.weights);
            weights.clear();
            weights.extend_from_slice(self.tree.priors(&self.tree[child]));
            let children = self.tree.children(&self.tree[child]);
            let index_of = |reply| children.iter().position(|c| c.action == reply);
            if raise_replies(&mut weights, replies, action, bonus, index_of) {
                self.set_priors(child, &weights);
                self.tree.lead_untried(child);
            }
            self.weights = weights;
        }
    }

    /// Sets the priors of `node`'s children (just expanded, in the order of the position's
    /// legal actions) from a prior's `weights`, normalised to sum to 1; uniform when the
    /// weights sum to 0 or are not one finite weight of at least 0 per child.
    fn set_priors(&mut self, node: NodeId, weights: &[f32]) {
        normalise_priors(self.tree.priors_mut(node), weights);
    }

    /// Expansion of every child at once: one playout from each new child of `node` (with the
    /// tree's random numbers, also on several threads), backed up at once.
    fn simulate_all_children<G>(&mut self, node: NodeId, position: &G, trace: &mut Trace) -> u64
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        let mover = position.to_move();
        self.tree.try_all_children(node);
        let path_len = trace.path.len();
        let current = self.tree[node];
        for child in current.child_ids() {
            trace.path.truncate(path_len);
            trace.path.push((child, mover));
            let start = position.after(self.tree[child].action);
            let simulation = self.simulate(start, trace);
            self.backpropagate(&simulation, trace, None);
        }
        u64::from(current.len)
    }

    /// Counts the iteration now under way on `trace`'s path as a loss for every player who
    /// moved there (tree parallelisation's virtual loss), so that other threads selecting
    /// meanwhile prefer other paths. [`backpropagate`](Self::backpropagate) with
    /// `virtual_loss` replaces it by the real result.
    fn add_virtual_loss(&mut self, trace: &Trace, losses: [f64; 2]) {
        self.tree[NodeId::ROOT].visits += 1;
        for &(id, mover) in &trace.path {
            self.tree[id].record(losses[mover.index()]);
        }
    }

    /// Backs the result of `simulation` up the trace's path (replacing the virtual loss
    /// `virtual_loss` the path's nodes already count, if any); with the solver, a finished game
    /// at the end of the path proves its node, and new proofs are carried up the path.
    fn backpropagate<G>(
        &mut self,
        simulation: &Simulation<G>,
        trace: &mut Trace,
        virtual_loss: Option<[f64; 2]>,
    ) where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        let Simulation {
            position,
            outcome,
            plies,
            finished,
            ..
        } = simulation;
        let (outcome, plies) = (*outcome, *plies);
        if let (true, true, Some(&(id, mover))) = (*finished, self.config.solver, trace.path.last())
        {
            let draw = self.reward.reward(position, Outcome::Draw, mover);
            self.tree[id].prove(outcome.for_player(mover).into(), draw);
        }
        let rewards = rewards(&self.reward, simulation);
        if virtual_loss.is_none() {
            self.tree[NodeId::ROOT].visits += 1;
        }
        let depth = trace.path.len();
        for (i, &(id, mover)) in trace.path.iter().enumerate() {
            let value = self
                .config
                .decayed(rewards[mover.index()], (depth - 1 - i) as u32 + plies);
            let node = &mut self.tree[id];
            match virtual_loss {
                None => node.record(value),
                Some(losses) => node.revise(value - losses[mover.index()]),
            }
        }
        if let Some(rave) = &mut self.rave {
            rave.update(
                &mut self.tree,
                &trace.path,
                &mut trace.marked,
                position,
                rewards,
            );
        }
        if self.config.solver {
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            self.tree.propagate_proofs(&trace.path, draws);
        }
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

/// The moves an examination's `replies` advise answers to, each once (in the order of their
/// first pair).
fn advised_moves<A: Copy + PartialEq>(replies: &[(A, A)]) -> impl Iterator<Item = A> + '_ {
    replies
        .iter()
        .enumerate()
        .filter(|&(i, &(action, _))| !replies[..i].iter().any(|&(earlier, _)| earlier == action))
        .map(|(_, &(action, _))| action)
}

/// Adds `bonus` to the weights (the priors of `action`'s child's children) of the replies
/// `replies` advise after `action`, each found by `index_of` among those children, where the
/// weight is above 0 (a move its own examination proved lost, or an inferior one, stays out).
/// Returns whether any was raised.
fn raise_replies<A: Copy + PartialEq>(
    weights: &mut [f32],
    replies: &[(A, A)],
    action: A,
    bonus: f32,
    index_of: impl Fn(A) -> Option<usize>,
) -> bool {
    let mut raised = false;
    for &(_, reply) in replies.iter().filter(|&&(a, _)| a == action) {
        if let Some(j) = index_of(reply)
            && weights[j] > 0.0
        {
            weights[j] += bonus;
            raised = true;
        }
    }
    raised
}

/// The priors `weights` (one per move) again after [`Prior::examine`](game_core::Prior::examine)
/// gave `verdicts` for the same moves: a losing move weighs 0, and when some move wins, every
/// move that does not. When that leaves no weight at all (the prior had given 0 to every
/// move still in, as Hex's does to the cells its fill-in colours, which its connections may
/// need), each move still in weighs 1: a verdict outranks the prior. Returns `false` (and
/// leaves `weights` as they were) when the verdicts are not one per move or are all alike,
/// which is left to the search: every move lost, against a fallible opponent the move that
/// resists best is still worth finding (a proven loss would play any); every move won, the
/// search still picks a good one (a proven win would play any, and leave the rest to the next
/// move's knowledge; Hex calls only the moves that close its connection wins then). Neither
/// proof is needed, as the parent, examined first, has seen the move into this node decide.
fn weigh_verdicts(weights: &mut [f32], verdicts: &[Verdict]) -> bool {
    let alike = |verdict| verdicts.iter().all(|&v| v == verdict);
    if verdicts.len() != weights.len()
        || alike(Verdict::Unknown)
        || alike(Verdict::Loss)
        || alike(Verdict::Win)
    {
        return false;
    }
    let any_win = verdicts.contains(&Verdict::Win);
    let out = |verdict| verdict == Verdict::Loss || (any_win && verdict != Verdict::Win);
    for (weight, &verdict) in weights.iter_mut().zip(verdicts) {
        if out(verdict) {
            *weight = 0.0;
        }
    }
    if weights.iter().all(|&w| w <= 0.0) {
        for (weight, &verdict) in weights.iter_mut().zip(verdicts) {
            *weight = if out(verdict) { 0.0 } else { 1.0 };
        }
    }
    true
}

/// What `verdicts` on the `moves` moves of a position prove about the node it is, for the
/// player who moved into it: a loss when a move wins, a win when every move loses, open
/// otherwise (also when there is not one verdict a move).
fn decided_by(verdicts: &[Verdict], moves: usize) -> Proof {
    if verdicts.len() != moves {
        Proof::Open
    } else if verdicts.contains(&Verdict::Win) {
        Proof::Loss
    } else if !verdicts.is_empty() && verdicts.iter().all(|&v| v == Verdict::Loss) {
        Proof::Win
    } else {
        Proof::Open
    }
}

/// Writes into `priors` (one per child, in the order of the position's legal actions) a
/// prior's `weights` normalised to sum to 1; uniform when the weights sum to 0 or are not one
/// finite weight of at least 0 per child.
fn normalise_priors(priors: &mut [f32], weights: &[f32]) {
    let n = priors.len();
    let valid = weights.len() == n && weights.iter().all(|w| w.is_finite() && *w >= 0.0);
    debug_assert!(
        valid,
        "a prior gives one weight, finite and at least 0, per action"
    );
    let sum: f32 = if valid { weights.iter().sum() } else { 0.0 };
    if sum > 0.0 {
        for (p, w) in priors.iter_mut().zip(weights) {
            *p = w / sum;
        }
    } else {
        priors.fill(1.0 / n as f32);
    }
}

/// The reward of a simulation's result for each player: the reward of the finished game, or,
/// for a simulation cut short, the evaluator's win probability put between a loss and a win.
fn rewards<G: Game, R: Reward<G>>(reward: &R, simulation: &Simulation<G>) -> [f64; 2] {
    let position = &simulation.position;
    match simulation.value {
        Some(p) => Player::BOTH.map(|q| {
            let win = reward.reward(position, Outcome::Win(q), q);
            let loss = reward.reward(position, Outcome::Win(q.opponent()), q);
            let p = if q == position.to_move() { p } else { 1.0 - p };
            loss + p * (win - loss)
        }),
        None => Player::BOTH.map(|p| reward.reward(position, simulation.outcome, p)),
    }
}

/// How simulations run: with the game's knowledge (its playout policy and evaluator), cut
/// short after `cutoff` plies when there is an evaluator, marking the actions played when
/// `record` (RAVE).
struct Rollout<'a, K> {
    knowledge: &'a K,
    cutoff: Option<u32>,
    record: bool,
}

impl<K> Rollout<'_, K> {
    /// The simulation phase from `position` (the end of the path, whose node's proof and
    /// mover are `leaf`): a playout (by the policy, else the game's random playout), marking in
    /// `played` the actions each player plays when recording (in games that number their
    /// actions; emptied first); a position the solver has decided is not played out, its
    /// proven result stands for it; with a cut-off, a game still going after `cutoff` plies is
    /// scored by the evaluator.
    fn simulate<G, Rg>(
        &self,
        mut position: G,
        leaf: Option<(Proof, Player)>,
        rng: &mut Rg,
        played: &mut PlayedActions,
    ) -> Simulation<G>
    where
        G: Game,
        K: Guide<G>,
        Rg: Rng,
    {
        let space = if self.record {
            position.action_space()
        } else {
            None
        };
        if let Some(space) = space {
            played.clear(space);
        }
        let marks = space.map(|_| played);
        let mut value = None;
        let (outcome, plies, finished) = match position.status() {
            Status::Over(outcome) => (outcome, 0, true),
            Status::Ongoing => match leaf.and_then(|(proof, mover)| Some((proof.wdl()?, mover))) {
                Some((proven, mover)) => (proven.to_outcome(mover), 0, false),
                None => match self.cutoff {
                    Some(limit) => {
                        let (plies, status) =
                            self.knowledge.play_plies(&mut position, rng, limit, marks);
                        match status {
                            Status::Over(outcome) => (outcome, plies, false),
                            Status::Ongoing => {
                                value = Some(self.knowledge.evaluate(&position).unwrap_or(0.5));
                                (Outcome::Draw, plies, false)
                            }
                        }
                    }
                    None => {
                        let playout = self.knowledge.play_out(&mut position, rng, marks);
                        (playout.outcome, playout.plies, false)
                    }
                },
            },
        };
        Simulation {
            position,
            outcome,
            plies,
            finished,
            value,
        }
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

#[cfg(test)]
mod tests {
    use super::tree::Node;

    #[test]
    fn verdicts_outrank_a_prior_that_weighs_every_move_left_at_0() {
        use game_core::Verdict::{Loss, Unknown, Win};
        // The winning moves take the whole prior, and keep it when the prior gave them none.
        let mut weights = [0.0, 0.5, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Win, Unknown, Win, Loss]
        ));
        assert_eq!(weights, [1.0, 0.0, 1.0, 0.0]);
        let mut weights = [3.0, 0.5, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Win, Unknown, Win, Loss]
        ));
        assert_eq!(weights, [3.0, 0.0, 0.0, 0.0]);
        // Without a win: the moves not lost, when the prior left them nothing.
        let mut weights = [0.0, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Unknown, Unknown, Loss]
        ));
        assert_eq!(weights, [1.0, 1.0, 0.0]);
        // Verdicts all alike are left to the search.
        let mut weights = [0.0, 0.0];
        assert!(!super::weigh_verdicts(&mut weights, &[Win, Win]));
        assert_eq!(weights, [0.0, 0.0]);
    }

    #[test]
    fn nodes_are_24_bytes_for_every_game_here() {
        assert_eq!(size_of::<Node<games_connect4::Column>>(), 24);
        assert_eq!(size_of::<Node<games_othello::Move>>(), 24);
        assert_eq!(size_of::<Node<games_hex::Move>>(), 24);
        assert_eq!(size_of::<Node<game_core::testing::Cell>>(), 24);
    }
}
