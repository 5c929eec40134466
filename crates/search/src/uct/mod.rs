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

mod config;
mod parallel;
mod tree;

pub use config::{Expansion, FinalChoice, UctConfig};
pub use parallel::{RootParallel, TreeParallel};

use game_core::{Game, Outcome, PlayedActions, Player, Reward, Status, Wdl, WinDrawLoss};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{ActionStats, Agent, Budget, Report};
use tree::{NodeId, Proof, ROOT, Tree};

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
/// A node is 24 bytes. The tree stops growing at [`UctConfig::max_nodes`]; the search then
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
pub struct Uct<G: Game, R = WinDrawLoss> {
    config: UctConfig,
    reward: R,
    rng: Xoshiro256PlusPlus,
    tree: Tree<G::Action>,
    /// The position at the root of `tree`, and the moves played since.
    root: Option<G>,
    played: Vec<G::Action>,
    /// The path of one iteration: a node and the player who moved into it.
    path: Vec<(NodeId, Player)>,
    /// RAVE: the actions each player played from the current point of the path on (in the
    /// last playout, then also on the path as the update climbs it).
    marked: PlayedActions,
    /// RAVE: the children whose AMAF statistics an iteration updates at one node.
    hits: Vec<u32>,
    /// RAVE: the weight of the AMAF mean by visits, and the scores of one selection.
    rave_weights: RaveWeights,
    scores: Vec<f32>,
    /// RAVE: the AMAF statistics selection uses for the children of the current node, and
    /// (GRAVE) those of the reference node by action index, with the node they were built for.
    amaf_view: Vec<tree::Amaf>,
    reference_amaf: Vec<tree::Amaf>,
    reference_built: Option<NodeId>,
    report: Option<Report<G::Action>>,
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
        Uct {
            config,
            reward,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            tree: Tree::new(config.rave > 0.0),
            marked: PlayedActions::default(),
            hits: Vec::new(),
            rave_weights: RaveWeights::new(config.rave as f32),
            scores: Vec::new(),
            amaf_view: Vec::new(),
            reference_amaf: Vec::new(),
            reference_built: None,
            root: None,
            played: Vec::new(),
            path: Vec::new(),
            report: None,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &UctConfig {
        &self.config
    }

    /// Makes the tree's root `position`: the subtree reached by the moves played since the
    /// last search, if reuse is on and they lead there; a fresh tree otherwise.
    fn set_root(&mut self, position: &G) {
        let mut kept = None;
        if let (true, Some(old)) = (self.config.reuse, &self.root) {
            let mut node = Some(ROOT);
            let mut at = old.clone();
            for &action in &self.played {
                node = node.and_then(|id| self.tree.child(id, action));
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
            Some(id) => self.tree.retain(id),
            None => self.tree.reset(),
        }
        self.root = Some(position.clone());
        self.played.clear();
    }

    /// One iteration (or, when expanding all children at once, one per new child); returns
    /// how many playouts it ran.
    fn iterate(&mut self, root: &G) -> u64 {
        match self.select(root) {
            Leaf::Played(n) => n,
            Leaf::At(position) => {
                self.simulate_and_backpropagate(position);
                1
            }
        }
    }

    /// Selection and expansion: walks down from the root, filling `path`, to where the
    /// iteration plays out. With all children expanded at once, it also plays them out.
    fn select(&mut self, root: &G) -> Leaf<G> {
        let mut position = root.clone();
        self.path.clear();
        let mut node = ROOT;
        let c = self.config.exploration;
        // GRAVE: the closest node on the path with enough visits.
        let mut reference = ROOT;
        self.reference_built = None;
        loop {
            if position.status().is_over() {
                break;
            }
            let mover = position.to_move();
            let leaf = self.tree.nodes[node as usize];
            if leaf.len == 0
                && ((node != ROOT && leaf.visits < self.config.expand_after)
                    || !self.tree.expand(node, &position, self.config.max_nodes))
            {
                break; // too young to expand, or the tree is full: play out from this leaf
            }
            let current = self.tree.nodes[node as usize];
            if self.config.rave > 0.0 {
                if self.config.grave > 0 && current.visits >= self.config.grave {
                    reference = node;
                }
                self.fill_amaf_view(node, reference, &position);
            }
            if current.tried < current.len {
                if self.config.expansion == Expansion::All && current.tried == 0 {
                    return Leaf::Played(self.simulate_all_children(node, &position));
                }
                let child = if self.config.rave > 0.0 {
                    self.tree
                        .try_best_amaf_child(node, &self.amaf_view, &mut self.rng)
                } else {
                    self.tree.try_child(node, &mut self.rng)
                };
                position.play(
                    self.tree.nodes[child as usize]
                        .action
                        .expect("a child has an action"),
                );
                self.path.push((child, mover));
                break;
            }

            let children = &self.tree.nodes[current.children()];
            let log_visits = ln_visits(current.visits);
            let mut best = if self.config.rave > 0.0 {
                select_rave(
                    children,
                    &self.amaf_view,
                    c as f32 * log_visits.sqrt(),
                    &self.rave_weights,
                    &mut self.scores,
                )
            } else {
                select(children, c as f32, log_visits)
            };
            if self.config.solver && children[best].proof == Proof::Draw {
                // A proven draw has nothing left to learn; while other children are open, the
                // iteration goes to the best of those instead (else the proof of the node waits
                // for UCB to explore moves that look worse than the draw).
                if let Some(open) = select_open(children, c as f32, log_visits) {
                    best = open;
                }
            }
            let child = current.first + best as NodeId;
            position.play(
                self.tree.nodes[child as usize]
                    .action
                    .expect("a child has an action"),
            );
            self.path.push((child, mover));
            node = child;
            if self.config.solver && self.tree.nodes[node as usize].proof != Proof::Open {
                break; // decided: back up its result instead of playing out
            }
        }
        Leaf::At(position)
    }

    /// The end of the path: its node's proof and the player who moved into it.
    fn leaf(&self) -> Option<(Proof, Player)> {
        self.path
            .last()
            .map(|&(id, mover)| (self.tree.nodes[id as usize].proof, mover))
    }

    /// Plays out from `position` (the end of the path) and backs the result up the path.
    fn simulate_and_backpropagate(&mut self, position: G) {
        let rave = self.config.rave > 0.0;
        let simulation = simulate(position, self.leaf(), rave, &mut self.rng, &mut self.marked);
        self.backpropagate(&simulation, None);
    }

    /// Counts the iteration now under way on its path as a loss for every player who moved
    /// there (tree parallelisation's virtual loss), so that other threads selecting meanwhile
    /// prefer other paths. [`backpropagate`](Self::backpropagate) with `virtual_loss` replaces
    /// it by the real result.
    fn add_virtual_loss(&mut self, losses: [f64; 2]) {
        self.tree.nodes[ROOT as usize].visits += 1;
        for &(id, mover) in &self.path {
            self.tree.nodes[id as usize].record(losses[mover.index()]);
        }
    }

    /// Backs the result of `simulation` up the path (replacing the virtual loss `virtual_loss`
    /// the path's nodes already count, if any); with the solver, a finished game at the end of
    /// the path proves its node, and new proofs are carried up the path.
    fn backpropagate(&mut self, simulation: &Simulation<G>, virtual_loss: Option<[f64; 2]>) {
        let Simulation {
            position,
            outcome,
            plies,
            finished,
        } = simulation;
        let (outcome, plies) = (*outcome, *plies);
        if let (true, true, Some(&(id, mover))) = (*finished, self.config.solver, self.path.last())
        {
            let proof = match outcome.for_player(mover) {
                Wdl::Win => Proof::Win,
                Wdl::Draw => Proof::Draw,
                Wdl::Loss => Proof::Loss,
            };
            let draw = self.reward.reward(position, Outcome::Draw, mover);
            self.tree.nodes[id as usize].prove(proof, draw);
        }
        let rewards = Player::BOTH.map(|p| self.reward.reward(position, outcome, p));
        if virtual_loss.is_none() {
            self.tree.nodes[ROOT as usize].visits += 1;
        }
        let depth = self.path.len();
        for (i, &(id, mover)) in self.path.iter().enumerate() {
            let mut value = rewards[mover.index()];
            if self.config.decay != 1.0 {
                let to_end = (depth - 1 - i) as i32 + plies as i32;
                value *= self.config.decay.powi(to_end);
            }
            let node = &mut self.tree.nodes[id as usize];
            match virtual_loss {
                None => node.record(value),
                Some(losses) => node.revise(value - losses[mover.index()]),
            }
        }
        if self.config.rave > 0.0 {
            self.update_amaf(position, rewards);
        }
        if self.config.solver {
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            self.propagate_proofs(draws);
        }
    }

    /// Puts in `amaf_view` the AMAF statistics selection uses for the children of `node`: their
    /// own with RAVE (or when `reference` is `node`), else (GRAVE) those of the same moves at
    /// `reference`.
    fn fill_amaf_view(&mut self, node: NodeId, reference: NodeId, position: &G) {
        let children = self.tree.nodes[node as usize].children();
        self.amaf_view.clear();
        let space = position.action_space();
        let Some(space) = space.filter(|_| reference != node && self.config.grave > 0) else {
            self.amaf_view.extend_from_slice(&self.tree.amaf[children]);
            return;
        };
        if self.reference_built != Some(reference) {
            self.reference_amaf.clear();
            self.reference_amaf.resize(space, tree::Amaf::default());
            for amaf in &self.tree.amaf[self.tree.nodes[reference as usize].children()] {
                self.reference_amaf[amaf.index as usize] = *amaf;
            }
            self.reference_built = Some(reference);
        }
        for child in &self.tree.amaf[children] {
            self.amaf_view
                .push(self.reference_amaf[child.index as usize]);
        }
    }

    /// RAVE's backpropagation: from the end of the path up, each node's children whose move
    /// the player choosing there played later in this iteration (in the path below or in the
    /// playout) count the iteration's result for that player.
    fn update_amaf(&mut self, position: &G, rewards: [f64; 2]) {
        if position.action_space().is_none() {
            return;
        }
        for k in (0..self.path.len()).rev() {
            let (id, mover) = self.path[k];
            let action = self.tree.nodes[id as usize]
                .action
                .expect("a child has an action");
            self.marked.insert(mover, position.action_index(action));
            let parent = if k == 0 { ROOT } else { self.path[k - 1].0 };
            let reward = rewards[mover.index()];
            let amaf = &mut self.tree.amaf[self.tree.nodes[parent as usize].children()];
            // First the children to update, listed without a branch (whether a child's move
            // was played later is a coin toss for the branch predictor), then their updates.
            let hits = &mut self.hits;
            hits.resize(amaf.len(), 0);
            let mut count = 0;
            for (c, entry) in amaf.iter().enumerate() {
                hits[count] = c as u32;
                count += usize::from(self.marked.contains(mover, entry.index as usize));
            }
            for &c in &hits[..count] {
                amaf[c as usize].record(reward);
            }
        }
    }

    /// Carries proofs up the path: from its end, each node that its children now decide is
    /// marked, up to the first that stays open (or the root). `draws` is the draw's reward
    /// for each player.
    fn propagate_proofs(&mut self, draws: [f64; 2]) {
        for i in (0..self.path.len()).rev() {
            let (id, mover) = self.path[i];
            if self.tree.nodes[id as usize].proof == Proof::Open {
                let proof = self.tree.proof_from_children(id);
                if proof == Proof::Open {
                    return;
                }
                self.tree.nodes[id as usize].prove(proof, draws[mover.index()]);
            }
        }
        let proof = self.tree.proof_from_children(ROOT);
        if proof != Proof::Open {
            self.tree.nodes[ROOT as usize].prove(proof, 0.0);
        }
    }

    /// The result the solver proved for the player to move at the root, if any.
    fn root_proof(&self) -> Option<Wdl> {
        // The root's proof is for the player who moved into it: the other side.
        match self.tree.nodes[ROOT as usize].proof {
            Proof::Open => None,
            Proof::Win => Some(Wdl::Loss),
            Proof::Draw => Some(Wdl::Draw),
            Proof::Loss => Some(Wdl::Win),
        }
    }

    /// Expansion of every child at once: one playout from each new child of `node`.
    fn simulate_all_children(&mut self, node: NodeId, position: &G) -> u64 {
        let mover = position.to_move();
        let current = self.tree.nodes[node as usize];
        self.tree.nodes[node as usize].tried = current.len;
        let path_len = self.path.len();
        for child in current.children() {
            let action = self.tree.nodes[child]
                .action
                .expect("a child has an action");
            self.path.truncate(path_len);
            self.path.push((child as NodeId, mover));
            self.simulate_and_backpropagate(position.after(action));
        }
        u64::from(current.len)
    }

    /// The root child to play, by the configured final choice.
    fn final_choice(&self) -> Option<NodeId> {
        let root = &self.tree.nodes[ROOT as usize];
        let tried = root.first as usize..root.first as usize + root.tried as usize;
        // A proven win first, a proven loss last; then by the configured choice.
        // With a proven draw at hand, an open child is only worth more if its mean says so
        // (the draw's visits stop growing once it is proven, so visits alone would not tell).
        let children = &self.tree.nodes[tried.clone()];
        let draw = children
            .iter()
            .filter(|n| n.proof == Proof::Draw)
            .map(|n| n.mean)
            .reduce(f32::max);
        let rank = |n: &tree::Node<G::Action>| match (n.proof, draw) {
            (Proof::Win, _) => 3,
            (Proof::Open, Some(d)) if n.mean > d => 2,
            (Proof::Draw, _) => 1,
            (Proof::Open, Some(_)) => 0,
            (Proof::Open, None) => 1,
            (Proof::Loss, _) => -1,
        };
        let key = |i: &usize| {
            let n = &self.tree.nodes[*i];
            let (first, second) = match self.config.final_choice {
                FinalChoice::MostVisits => (f64::from(n.visits), n.mean()),
                FinalChoice::BestMean => (n.mean(), f64::from(n.visits)),
                FinalChoice::MostWins => (n.mean() * f64::from(n.visits), f64::from(n.visits)),
            };
            (rank(n), first, second)
        };
        tried
            .max_by(|a, b| {
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0)
                    .then(ka.1.total_cmp(&kb.1))
                    .then(ka.2.total_cmp(&kb.2))
            })
            .map(|i| i as NodeId)
    }

    fn make_report(
        &self,
        chosen: Option<G::Action>,
        iterations: u64,
        elapsed: std::time::Duration,
    ) -> Report<G::Action> {
        let nodes = &self.tree.nodes;
        let root = &nodes[ROOT as usize];
        let mut actions: Vec<ActionStats<G::Action>> = nodes[root.children()]
            .iter()
            .map(|n| ActionStats {
                action: n.action.expect("a child"),
                visits: u64::from(n.visits),
                mean: n.mean(),
                proof: match n.proof {
                    Proof::Open => None,
                    Proof::Win => Some(Wdl::Win),
                    Proof::Draw => Some(Wdl::Draw),
                    Proof::Loss => Some(Wdl::Loss),
                },
            })
            .collect();
        actions.sort_by_key(|s| std::cmp::Reverse(s.visits));
        let mut principal_variation = Vec::new();
        let mut node = root;
        while let Some(best) = nodes[node.children()]
            .iter()
            .filter(|n| n.visits > 0)
            .max_by_key(|n| n.visits)
        {
            principal_variation.push(best.action.expect("a child"));
            node = best;
        }
        Report {
            chosen,
            iterations,
            elapsed,
            root_visits: u64::from(root.visits),
            actions,
            principal_variation,
            nodes: self.tree.len(),
            depth: 0,
            score: None,
            proof: self.root_proof(),
        }
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
}

/// The simulation phase: a random playout from `position` (the end of the path, whose node's
/// proof and mover are `leaf`), marking in `played` the actions each player plays when
/// `record` (for RAVE, in games that number their actions; emptied first); a position the
/// solver has decided is not played out, its proven result stands for it.
fn simulate<G: Game, Rg: rand::Rng>(
    mut position: G,
    leaf: Option<(Proof, Player)>,
    record: bool,
    rng: &mut Rg,
    played: &mut PlayedActions,
) -> Simulation<G> {
    let space = if record {
        position.action_space()
    } else {
        None
    };
    if let Some(space) = space {
        played.clear(space);
    }
    let (outcome, plies, finished) = match position.status() {
        Status::Over(outcome) => (outcome, 0, true),
        Status::Ongoing => match leaf {
            Some((Proof::Win, mover)) => (Outcome::Win(mover), 0, false),
            Some((Proof::Loss, mover)) => (Outcome::Win(mover.opponent()), 0, false),
            Some((Proof::Draw, _)) => (Outcome::Draw, 0, false),
            Some((Proof::Open, _)) | None => {
                let playout = match space {
                    Some(_) => position.random_playout_marked(rng, played),
                    None => position.random_playout(rng),
                };
                (playout.outcome, playout.plies, false)
            }
        },
    };
    Simulation {
        position,
        outcome,
        plies,
        finished,
    }
}

/// `ln(n)` of a visit count, for the exploration term: from a table for the counts below 4096
/// that most nodes on a path have, else by `f32::ln`. The table holds what `f32::ln` gives, so
/// the search is the same; the call to the logarithm was 7-9% of a Connect Four search.
#[inline]
fn ln_visits(n: u32) -> f32 {
    const SMALL: usize = 4096;
    static TABLE: std::sync::OnceLock<[f32; SMALL]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| std::array::from_fn(|i| (i as f32).ln()));
    match table.get(n as usize) {
        Some(&ln) => ln,
        None => (n as f32).ln(),
    }
}

/// How many children [`select`] weighs side by side.
const LANES: usize = 8;

/// The index of the child with the largest UCB1 score `mean + c * sqrt(ln N / n)` (the first
/// one on a tie); every child has been tried.
///
/// This loop is the largest cost of an iteration in games with many moves (121 children per
/// node on an empty 11x11 Hex board), so each child costs one multiply-add: nodes keep their
/// mean and `1 / sqrt(n)` ([`tree::Node::record`]), and `c * sqrt(ln N)` is computed once.
///
/// With many children, a single running maximum makes every child wait for the comparison of
/// the one before. So the best score is first found with [`LANES`] independent running maxima
/// (no indices), then the first child with that score is looked up, a chunk of [`LANES`] at a
/// time: the scores are computed the same way both times, so the equality is exact. (Measured
/// and dropped: lanes that each kept their best index, 17% slower on Hex; the means and
/// `1 / sqrt(n)` in columns of their own, outside the nodes, 10-13% faster on Hex 11x11 but
/// 20% slower on Connect Four, whose narrow, deep trees then touch three cache lines per node;
/// siblings in groups of eight, each field of the eight side by side, 2-11% faster on Hex and
/// 6-10% slower on Connect Four: see `docs/benchmarks.md`.)
#[inline]
fn select<A>(children: &[tree::Node<A>], c: f32, log_parent_visits: f32) -> usize {
    let scale = c * log_parent_visits.sqrt();
    let score = |child: &tree::Node<A>| child.mean + scale * child.inv_sqrt_visits;
    if children.len() < 2 * LANES {
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            let s = score(child);
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        return best;
    }
    let chunks = children.chunks_exact(LANES);
    let mut lanes = [f32::NEG_INFINITY; LANES];
    for chunk in chunks.clone() {
        for (lane, child) in lanes.iter_mut().zip(chunk) {
            let s = score(child);
            // `if`, not `f32::max`: the processor's max instruction as it is (scores are
            // never NaN), without the extra instructions `max` needs to ignore NaN.
            if s > *lane {
                *lane = s;
            }
        }
    }
    let best = chunks
        .remainder()
        .iter()
        .map(score)
        .chain(lanes)
        .fold(f32::NEG_INFINITY, f32::max);
    let first_in = |children: &[tree::Node<A>]| children.iter().position(|c| score(c) == best);
    let mut start = 0;
    for chunk in chunks.clone() {
        if chunk.iter().fold(false, |hit, c| hit | (score(c) == best)) {
            return start + first_in(chunk).unwrap_or(0);
        }
        start += LANES;
    }
    start + first_in(chunks.remainder()).unwrap_or(0)
}

/// RAVE's weight `β = sqrt(k / (3n + k))` of a child's AMAF mean, by the child's visits `n`:
/// from a table for the counts below 4096, else computed. The table holds the computed values,
/// so selection is the same either way; it saves a division and a square root per child.
#[derive(Clone, Debug)]
struct RaveWeights {
    k: f32,
    table: Vec<f32>,
}

impl RaveWeights {
    /// The weights for `k` (no table when RAVE is off, `k = 0`).
    fn new(k: f32) -> Self {
        let table = if k > 0.0 {
            (0..4096).map(|n| Self::compute(k, n)).collect()
        } else {
            Vec::new()
        };
        RaveWeights { k, table }
    }

    fn compute(k: f32, visits: u32) -> f32 {
        (k / (3.0 * visits as f32 + k)).sqrt()
    }

    #[inline]
    fn get(&self, visits: u32) -> f32 {
        match self.table.get(visits as usize) {
            Some(&beta) => beta,
            None => Self::compute(self.k, visits),
        }
    }
}

/// RAVE's selection: the child with the largest `(1 - β) mean + β amaf + c sqrt(ln N / n)`
/// (`scale` is `c sqrt(ln N)`), the first one on a tie; `β` is 0 while the child has no AMAF
/// statistics. Every child has been tried. A proven child keeps its exact value (a proven
/// win's or loss's infinite mean makes its score NaN, which never wins: selection stops at a
/// proven node's parent before it gets here).
///
/// The scores are written first, then their maximum is found with [`LANES`] independent running
/// maxima and then its first position (as in [`select`]), instead of one running maximum and
/// its index that makes each child wait for the comparison of the one before.
fn select_rave<A>(
    children: &[tree::Node<A>],
    amaf: &[tree::Amaf],
    scale: f32,
    weights: &RaveWeights,
    scores: &mut Vec<f32>,
) -> usize {
    scores.clear();
    scores.extend(children.iter().zip(amaf).map(|(child, amaf)| {
        let beta = if amaf.visits == 0 || child.proof != Proof::Open {
            0.0
        } else {
            weights.get(child.visits)
        };
        child.mean + beta * (amaf.mean - child.mean) + scale * child.inv_sqrt_visits
    }));
    let chunks = scores.chunks_exact(LANES);
    let mut lanes = [f32::NEG_INFINITY; LANES];
    for chunk in chunks.clone() {
        for (lane, &s) in lanes.iter_mut().zip(chunk) {
            if s > *lane {
                *lane = s;
            }
        }
    }
    let best = chunks
        .remainder()
        .iter()
        .chain(&lanes)
        .fold(f32::NEG_INFINITY, |m, &s| if s > m { s } else { m });
    if best == f32::NEG_INFINITY {
        return 0;
    }
    scores.iter().position(|&s| s == best).unwrap_or(0)
}

/// The open (unproven) child with the largest UCB1 score, if there is one.
fn select_open<A>(children: &[tree::Node<A>], c: f32, log_parent_visits: f32) -> Option<usize> {
    let scale = c * log_parent_visits.sqrt();
    children
        .iter()
        .enumerate()
        .filter(|(_, child)| child.proof == Proof::Open)
        .map(|(i, child)| (i, child.mean + scale * child.inv_sqrt_visits))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

impl<G: Game, R: Reward<G>> Agent<G> for Uct<G, R> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            self.report = None;
            return None;
        }
        self.set_root(position);
        let mut meter = budget.start();
        while meter.more() {
            if self.config.solver && self.tree.nodes[ROOT as usize].proof != Proof::Open {
                break; // the root is decided: nothing left to search
            }
            let done = self.iterate(position);
            meter.count(done);
        }
        let chosen = match self.final_choice() {
            Some(id) => self.tree.nodes[id as usize].action,
            None => position.random_action(&mut self.rng),
        };
        self.report = Some(self.make_report(chosen, meter.done(), meter.elapsed()));
        chosen
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
    use super::tree::{Amaf, Node, Proof};
    use proptest::prelude::*;

    /// A tried child with this mean and visits (`visits == 0` stands for a proven one: an
    /// infinite or exact mean and no exploration bonus).
    fn child(mean: f32, visits: u32) -> Node<u8> {
        Node {
            mean,
            inv_sqrt_visits: if visits == 0 {
                0.0
            } else {
                (visits as f32).sqrt().recip()
            },
            visits,
            first: 0,
            len: 0,
            tried: 0,
            proof: Proof::Open,
            action: Some(0),
        }
    }

    /// Means drawn from a few values, so that ties are common, and some proven children.
    fn children() -> impl Strategy<Value = Vec<Node<u8>>> {
        let mean = prop_oneof![
            Just(0.0f32),
            Just(0.5),
            Just(1.0),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
            0.0f32..1.0,
        ];
        let visits = prop_oneof![Just(0u32), Just(1), Just(4), 1u32..1000];
        proptest::collection::vec((mean, visits), 1..140).prop_map(|v| {
            v.into_iter()
                .map(|(m, n)| child(m, if m.is_finite() { n.max(1) } else { 0 }))
                .collect()
        })
    }

    proptest! {
        /// The vectorised selection picks what a plain scan for the first best score picks.
        #[test]
        fn select_picks_the_first_child_with_the_best_score(
            children in children(),
            c in prop_oneof![Just(0.0f32), Just(0.4), 0.0f32..2.0],
            log_visits in 0.0f32..12.0,
        ) {
            let scale = c * log_visits.sqrt();
            let mut expected = 0;
            let mut best = f32::NEG_INFINITY;
            for (i, child) in children.iter().enumerate() {
                let score = child.mean + scale * child.inv_sqrt_visits;
                if score > best {
                    expected = i;
                    best = score;
                }
            }
            prop_assert_eq!(super::select(&children, c, log_visits), expected);
        }
    }

    proptest! {
        /// RAVE's selection picks what a plain scan for the first best score picks, with `β`
        /// computed for every child.
        #[test]
        fn select_rave_picks_the_first_child_with_the_best_score(
            children in children(),
            amaf in proptest::collection::vec((prop_oneof![Just(0u32), 1u32..50], 0.0f32..1.0), 140),
            scale in 0.0f32..3.0,
            k in prop_oneof![Just(300.0f32), 1.0f32..1000.0],
        ) {
            let amaf: Vec<Amaf> = amaf
                .into_iter()
                .map(|(visits, mean)| Amaf { mean, visits, index: 0 })
                .collect();
            let mut expected = 0;
            let mut best = f32::NEG_INFINITY;
            for (i, (child, amaf)) in children.iter().zip(&amaf).enumerate() {
                let beta = if amaf.visits == 0 || child.proof != Proof::Open {
                    0.0
                } else {
                    (k / (3.0 * child.visits as f32 + k)).sqrt()
                };
                let score =
                    child.mean + beta * (amaf.mean - child.mean) + scale * child.inv_sqrt_visits;
                if score > best {
                    expected = i;
                    best = score;
                }
            }
            let weights = super::RaveWeights::new(k);
            let picked = super::select_rave(&children, &amaf, scale, &weights, &mut Vec::new());
            prop_assert_eq!(picked, expected);
        }
    }

    #[test]
    fn the_rave_weight_table_gives_what_the_formula_gives() {
        let weights = super::RaveWeights::new(300.0);
        for n in (0..5000).chain([65_535, u32::MAX]) {
            let formula = (300.0f32 / (3.0 * n as f32 + 300.0)).sqrt();
            assert_eq!(weights.get(n).to_bits(), formula.to_bits(), "n = {n}");
        }
    }

    #[test]
    fn the_logarithm_table_gives_what_f32_ln_gives() {
        for n in (0..5000).chain([65_535, 1 << 20, u32::MAX]) {
            let (table, direct) = (super::ln_visits(n), (n as f32).ln());
            assert!(
                table.to_bits() == direct.to_bits(),
                "ln({n}): {table} from the table, {direct} from f32::ln"
            );
        }
    }

    #[test]
    fn nodes_are_24_bytes_for_every_game_here() {
        assert_eq!(size_of::<Node<games_connect4::Column>>(), 24);
        assert_eq!(size_of::<Node<games_othello::Move>>(), 24);
        assert_eq!(size_of::<Node<games_hex::Move>>(), 24);
        assert_eq!(size_of::<Node<game_core::testing::Cell>>(), 24);
    }
}
