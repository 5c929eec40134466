//! The lock-free shared tree of [`TreeParallel`](super::TreeParallel) (Enzenberger and Müller,
//! "A lock-free multithreaded Monte-Carlo tree search algorithm", 2009, as in Fuego and MoHex):
//! every thread selects, expands and backs up in one tree at the same time, with atomics and
//! no lock.
//!
//! - **Statistics**: a node's visits and mean reward share one 64-bit word, changed together
//!   by compare-and-swap, so no update is lost or doubled and the two always agree;
//!   `1 / sqrt(visits)`, which selection reads beside the mean, is stored after each change
//!   (a race may leave it one update behind until the next: harmless to selection).
//! - **Virtual loss**: a thread counts its iteration in every node of its path as it selects
//!   (one more visit, valued as a loss for the player who moved there), so the other threads
//!   see that path as worse and spread out; backpropagation replaces the loss by the result.
//! - **Expansion**: the first thread to claim a leaf builds its children in memory of its own
//!   (one block per expansion) and publishes them complete, in one step; a thread reaching a
//!   leaf that another is expanding plays out from the leaf instead of waiting.
//! - **Which child to try next**: children are handed out in order, by an atomic counter: in a
//!   random order (shuffled at expansion) without a prior, best prior first with one.
//! - **Proofs** (MCTS-Solver) only ever go from open to decided, and a node is proven only from
//!   facts that cannot be undone (children proven, every child tried), so a proof found under
//!   contention is a proof.
//! - **RAVE and GRAVE**: a node's children are published as one [`Block`], which holds beside
//!   them their moves' AMAF statistics at the node, in columns: two 64-bit words a child (visits
//!   and the sum of results in each) that add up to them, one column a writer. An iteration
//!   adds its result to every child of the path's nodes whose move the player to move there
//!   played later, in its thread's column. With up to two threads each word has one writer,
//!   which updates it by a plain load and store; with more, the threads of a word share it by
//!   compare-and-swap; no update is lost or doubled either way. Selection reads each word
//!   once (a child's AMAF statistics may be one update behind its own: harmless), and since
//!   published children are never reordered, an untried child is one without visits.
//! - **Memory**: a shared count of nodes keeps the tree within its cap under contention; each
//!   thread reserves room in it 1,024 nodes at a time (so that the count, which every thread
//!   would otherwise write at every expansion, stays out of the hot path) and hands back what
//!   it did not use when the search ends.
//!
//! The nodes and their blocks are in `node`, RAVE's and GRAVE's selection and update in `rave`,
//! the examination of a node's moves (`examine`) in `examine`; the descent, the expansion and
//! the memory here.

#[cfg(test)]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};

use game_core::{
    Game, Outcome, PlayedActions, Player, Reward,
    knowledge::{Examination, Guide},
};
use rand::Rng;
use rand::seq::SliceRandom;

use crate::Report;
use crate::uct::UctConfig;
use crate::uct::backup::back_up;
use crate::uct::examine::examine;
use crate::uct::expand::normalise_priors;
use crate::uct::node::Nodes;
use crate::uct::node::{Amaf, Proof, Stats};
use crate::uct::report::{final_choice, report_from};
mod examine;
mod node;
mod rave;

use examine::Worker;
pub(crate) use node::SharedNode;
use node::{Block, pack, unpack};

pub(crate) use rave::SharedRave;
use rave::{AMAF_SLOTS, amaf_view, pick_rave};

use crate::uct::select::{Puct, ln_visits, select, select_open, select_puct};
use crate::uct::simulate::Rollout;
use crate::uct::solver::carry_proofs;

/// The shared tree: its root and how many nodes it holds.
#[derive(Debug)]
pub(crate) struct SharedTree<A> {
    root: SharedNode<A>,
    /// The nodes counted against the cap: those in the tree and those the threads have
    /// reserved and not used yet (at most a 64th of the cap each, so that the count is also
    /// close enough to the tree's size for the expansion threshold).
    nodes: AtomicUsize,
    /// Tests only: the AMAF updates made.
    #[cfg(test)]
    hits: AtomicU64,
}

impl<'t, A> Nodes for &'t SharedTree<A> {
    type Id = &'t SharedNode<A>;

    #[inline]
    fn root(&self) -> &'t SharedNode<A> {
        &self.root
    }

    #[inline]
    fn proof(&self, node: &'t SharedNode<A>) -> Proof {
        node.proven()
    }

    #[inline]
    fn proof_from_children(&self, node: &'t SharedNode<A>) -> Proof {
        node.proof_from_children()
    }

    #[inline]
    fn prove(&mut self, node: &'t SharedNode<A>, proof: Proof, draw: f64) {
        node.prove(proof, draw);
    }

    #[inline]
    fn record(&mut self, node: &'t SharedNode<A>, reward: f64) {
        node.record(reward);
    }

    #[inline]
    fn revise(&mut self, node: &'t SharedNode<A>, delta: f64) {
        node.revise(delta);
    }
}

/// What one thread keeps to itself: its random numbers (for the playouts and the order of new
/// children), the playout's marks, and buffers.
///
/// Aligned to 128 bytes (two cache lines, what the processor's adjacent-line prefetcher pairs)
/// so that no two threads' `Local`s share a line: the random number generator's state is
/// written at every random number, and a line shared with another thread's fields would
/// travel between the cores at each write (false sharing).
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Local<A, Rg> {
    pub(crate) rng: Rg,
    marked: PlayedActions,
    actions: Vec<A>,
    weights: Vec<f32>,
    priors: Vec<f32>,
    scores: Vec<f32>,
    found: Examination<A>,
    /// Nodes this thread has reserved in the tree's count and not yet used: it reserves
    /// [`RESERVE`] at a time, so that the shared count is not written at every expansion.
    reserved: usize,
    /// Blocks of children of earlier trees, to build new children in.
    pool: Pool<A>,
    /// RAVE: the AMAF statistics one selection reads, child by child.
    amaf: Vec<Amaf>,
    /// RAVE: the places of the children whose AMAF words one update writes.
    hits: Vec<u32>,
    /// RAVE: the AMAF slot this thread writes (see [`Block::amaf`](Block#structfield.amaf)),
    /// and whether it is the slot's only writer.
    slot: usize,
    alone: bool,
    /// GRAVE: the reference node's AMAF statistics by action index, and the address of the
    /// node they were read from in this descent (0: none yet).
    reference_amaf: Vec<Amaf>,
    reference_built: usize,
    /// RAVE's `skip`: selections left until the next that reads no AMAF statistics.
    countdown: u32,
}

/// Blocks of children kept from trees that were dropped, by their length, so that a new
/// search builds its children in memory the process already has: a fresh allocation for
/// every block costs page faults (the kernel zeroing new pages, every thread at once), which
/// made a tenth of a shared-tree search on Hex.
#[derive(Debug)]
struct Pool<A> {
    #[expect(
        clippy::vec_box,
        reason = "the nodes hold their blocks boxed: kept boxed, a block goes back without an allocation"
    )]
    blocks: Vec<Vec<Box<Block<A>>>>,
}

impl<A> Pool<A> {
    /// A block of `n` nodes, if one is kept.
    fn take(&mut self, n: usize) -> Option<Box<Block<A>>> {
        self.blocks.get_mut(n)?.pop()
    }

    /// Keeps `block` (whose nodes have no children any more).
    fn put(&mut self, block: Box<Block<A>>) {
        let n = block.nodes.len();
        if self.blocks.len() <= n {
            self.blocks.resize_with(n + 1, Vec::new);
        }
        self.blocks[n].push(block);
    }
}

/// Moves every block of children under `node` into the threads' pools, in turn.
fn recycle<A, Rg>(node: &mut SharedNode<A>, locals: &mut [Local<A, Rg>]) {
    let mut stack: Vec<Box<Block<A>>> = node.children.take().into_iter().collect();
    let mut turn = 0;
    while let Some(mut block) = stack.pop() {
        stack.extend(
            block
                .nodes
                .iter_mut()
                .filter_map(|child| child.children.take()),
        );
        if let Some(local) = locals.get_mut(turn % locals.len().max(1)) {
            local.pool.put(block);
        }
        turn += 1;
    }
}

/// How many nodes a thread reserves at a time (fewer when the cap is small or leaves less room).
const RESERVE: usize = 1024;

impl<A, Rg> Local<A, Rg> {
    /// The `k`-th (from 0) of `threads` threads' own state: it writes AMAF slot `k` modulo
    /// [`AMAF_SLOTS`], alone when there are no more threads than slots.
    pub(crate) fn for_thread(rng: Rg, k: usize, threads: usize) -> Self {
        Local {
            slot: k % AMAF_SLOTS,
            alone: threads <= AMAF_SLOTS,
            ..Local::new(rng)
        }
    }

    /// The state of a thread searching alone.
    pub(crate) fn new(rng: Rg) -> Self {
        Local {
            rng,
            marked: PlayedActions::default(),
            actions: Vec::new(),
            weights: Vec::new(),
            priors: Vec::new(),
            scores: Vec::new(),
            found: Examination::default(),
            reserved: 0,
            pool: Pool { blocks: Vec::new() },
            amaf: Vec::new(),
            hits: Vec::new(),
            slot: 0,
            alone: true,
            reference_amaf: Vec::new(),
            reference_built: 0,
            countdown: 0,
        }
    }
}

/// What the threads share besides the tree: the settings, the reward, the knowledge and the
/// virtual loss.
pub(crate) struct Shared<'a, R, K> {
    pub(crate) config: &'a UctConfig,
    pub(crate) reward: &'a R,
    pub(crate) knowledge: &'a K,
    /// Whether the children get priors (PUCT).
    pub(crate) prior: bool,
    /// The reward of a loss for each player: the virtual loss.
    pub(crate) losses: [f64; 2],
    /// RAVE's or GRAVE's settings, if the search uses them.
    pub(crate) rave: Option<&'a SharedRave>,
}

impl<A: Copy + PartialEq> SharedTree<A> {
    /// A tree with only a root for `position` (an ongoing game).
    pub(crate) fn new<G: Game<Action = A>>(position: &G) -> Self {
        let mut actions = Vec::new();
        position.legal_actions(&mut actions);
        let placeholder = *actions
            .first()
            .expect("a search starts from an ongoing game");
        SharedTree {
            root: SharedNode::new(placeholder, 1.0),
            nodes: AtomicUsize::new(1),
            #[cfg(test)]
            hits: AtomicU64::new(0),
        }
    }

    /// How many nodes the tree holds, with (during a search) those the threads have reserved.
    pub(crate) fn len(&self) -> usize {
        self.nodes.load(Relaxed)
    }

    /// Whether the solver has decided the root.
    pub(crate) fn root_decided(&self) -> bool {
        self.root.proven() != Proof::Open
    }

    /// Makes the node reached by `actions` from the root the root, keeping its subtree and
    /// dropping the rest; `false` (and the tree unchanged) when the tree does not reach it.
    pub(crate) fn retain<Rg>(&mut self, actions: &[A], locals: &mut [Local<A, Rg>]) -> bool {
        let mut node = &mut self.root;
        for &action in actions {
            let Some(block) = node.children.get_mut() else {
                return false;
            };
            let Some(i) = block.nodes.iter().position(|c| c.action == action) else {
                return false;
            };
            node = &mut block.nodes[i];
        }
        if actions.is_empty() {
            return true;
        }
        let placeholder = SharedNode::new(node.action, 0.0);
        let kept = std::mem::replace(node, placeholder);
        let mut dropped = std::mem::replace(&mut self.root, kept);
        recycle(&mut dropped, locals);
        let mut count = 0;
        let mut stack = vec![&self.root];
        while let Some(node) = stack.pop() {
            count += 1;
            stack.extend(node.children());
        }
        *self.nodes.get_mut() = count;
        true
    }

    /// Hands the memory of every block of children to the threads' pools, for the next trees.
    pub(crate) fn recycle<Rg>(mut self, locals: &mut [Local<A, Rg>]) {
        recycle(&mut self.root, locals);
    }

    /// The root child to play by the settings' final choice, as
    /// [`Tree::final_choice`](crate::uct::tree::Tree::final_choice) chooses it.
    ///
    /// A child the root's examination proved a win counts even if no thread has tried it yet
    /// (children are not reordered once published, as [`Uct`](crate::Uct) reorders them).
    pub(crate) fn final_choice(&self, config: &UctConfig) -> Option<A> {
        let children = self.root.children();
        let tried = &children[..self.root.tried()];
        let chosen = final_choice(tried, config.final_choice).map(|i| &tried[i]);
        if chosen.is_some_and(|c| c.proven() == Proof::Win) {
            return chosen.map(|c| c.action);
        }
        children[tried.len()..]
            .iter()
            .find(|c| c.proven() == Proof::Win)
            .or(chosen)
            .map(|c| c.action)
    }

    /// The report of a search that chose `chosen` after `iterations` in `elapsed`.
    pub(crate) fn report(
        &self,
        chosen: Option<A>,
        iterations: u64,
        elapsed: std::time::Duration,
    ) -> Report<A> {
        let mut report = report_from(
            &self.root,
            SharedNode::children,
            |n| n.action,
            chosen,
            iterations,
            elapsed,
        );
        report.nodes = self.len();
        report
    }

    /// One iteration from `root` (the root's position) on one thread: selection and expansion
    /// under virtual loss, the simulation, backpropagation. `path` is the thread's buffer.
    pub(crate) fn iterate<'t, G, R, K, Rg>(
        &'t self,
        root: &G,
        shared: &Shared<'_, R, K>,
        local: &mut Local<A, Rg>,
        path: &mut Vec<(&'t SharedNode<A>, Player)>,
    ) where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
        Rg: Rng,
    {
        let position = self.descend(root, shared, local, path);
        #[cfg(test)]
        path.last()
            .map_or(&self.root, |&(node, _)| node)
            .ends
            .fetch_add(1, Relaxed);
        let leaf = path.last().map(|&(node, mover)| (node.proven(), mover));
        let rollout = Rollout {
            knowledge: shared.knowledge,
            cutoff: shared.config.cutoff,
            record: shared.rave.is_some(),
        };
        let simulation = rollout.simulate(position, leaf, &mut local.rng, &mut local.marked);
        let mut tree = self;
        let config = shared.config;
        let rewards = back_up(
            &mut tree,
            config,
            shared.reward,
            &simulation,
            path,
            Some(shared.losses),
        );
        if shared.rave.is_some() && simulation.position.action_space().is_some() {
            self.update_amaf(path, local, rewards, &simulation.position);
        }
        if config.prove {
            let position = &simulation.position;
            let draws = Player::BOTH.map(|p| shared.reward.reward(position, Outcome::Draw, p));
            carry_proofs(&mut tree, path, draws);
        }
    }

    /// Selection and expansion: from the root to where the iteration plays out, counting a
    /// virtual loss in every node on the way; returns the position there.
    fn descend<'t, G, R, K, Rg>(
        &'t self,
        root: &G,
        shared: &Shared<'_, R, K>,
        local: &mut Local<A, Rg>,
        path: &mut Vec<(&'t SharedNode<A>, Player)>,
    ) -> G
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
        Rg: Rng,
    {
        let config = shared.config;
        let mut position = root.clone();
        path.clear();
        self.root.tally.fetch_add(1, Relaxed); // visits only: the root's mean is not read
        let mut node = &self.root;
        // GRAVE: the closest node on the path with enough visits.
        let mut reference = &self.root;
        local.reference_built = 0;
        loop {
            if position.status().is_over() {
                break;
            }
            let mover = position.to_move();
            let block = match node.block() {
                Some(block) => block,
                None => {
                    // Its visits count this iteration's virtual loss already: the threshold's
                    // earlier iterations means one more.
                    let threshold = config.expand_threshold(self.len());
                    let young = !path.is_empty() && node.n() <= threshold;
                    if young
                        || !(self.expand(node, &position, shared, local)
                            || path.is_empty() && Self::wait_for_children(node))
                    {
                        break; // too young, being expanded by another thread, or no room
                    }
                    let Some(block) = node.block() else {
                        break; // (expanded: not reached)
                    };
                    block
                }
            };
            let children = &block.nodes[..];
            // Its visits count this iteration: the `examine`-th visit before it means one more.
            if config.examine.is_some_and(|examine| node.n() > examine)
                && shared.prior
                && node.claim_examination()
            {
                let mut worker = Worker {
                    tree: self,
                    shared,
                    local: &mut *local,
                };
                examine(&mut worker, node, &position, path);
                if node.proven() != Proof::Open && !path.is_empty() {
                    break; // decided: back up its result instead of going on
                }
            }
            let (best, untried) = match shared.rave {
                Some(rave) if rave.bias.is_some() || !shared.prior => {
                    if rave.grave.is_some_and(|grave| node.n() > grave) {
                        reference = node;
                    }
                    amaf_view(block, node, reference, &position, rave, local);
                    pick_rave(children, node, shared, rave, local)
                }
                _ => pick(children, node, shared, local),
            };
            let child = &children[best];
            descend_into(child, mover, shared, &mut position, path);
            if untried {
                break; // a child tried for the first time is played out
            }
            node = child;
            if child.proven() != Proof::Open {
                // Decided (by the solver, or by a verdict without it): back up its result
                // instead of playing out.
                break;
            }
        }
        position
    }

    /// Waits while another thread expands `node` (the root: its iterations go to one of its
    /// moves, not to playouts from the root itself); `false` if that thread found no room.
    fn wait_for_children(node: &SharedNode<A>) -> bool {
        loop {
            if node.children.get().is_some() {
                return true;
            }
            if !node.claimed.load(Acquire) {
                return false;
            }
            std::thread::yield_now();
        }
    }

    /// Makes sure the thread has `n` nodes reserved under the cap `cap`, reserving more in the
    /// tree's count if it must; `false` when the tree has no room for them.
    fn reserve<Rg>(&self, n: usize, cap: usize, local: &mut Local<A, Rg>) -> bool {
        if local.reserved >= n {
            return true;
        }
        let more = n - local.reserved;
        // What the thread takes with the count at `len`: a batch (no more than a 64th of the
        // cap, so that under a small cap no thread holds the room the others need), or what
        // room is left.
        let batch = RESERVE.min(cap / 64);
        let grant = |len: usize| cap.saturating_sub(len).min(more.max(batch));
        match self.nodes.fetch_update(AcqRel, Acquire, |len| {
            (grant(len) >= more).then(|| len + grant(len))
        }) {
            Ok(len) => {
                local.reserved += grant(len);
                true
            }
            Err(_) => false,
        }
    }

    /// Hands back the nodes `local` reserved and did not use (at the end of a search).
    pub(crate) fn release<Rg>(&self, local: &mut Local<A, Rg>) {
        self.nodes.fetch_sub(local.reserved, AcqRel);
        local.reserved = 0;
    }

    /// Gives `node` its children, if this thread is the first to claim it and the tree has
    /// room; returns whether it did.
    fn expand<G, R, K, Rg>(
        &self,
        node: &SharedNode<A>,
        position: &G,
        shared: &Shared<'_, R, K>,
        local: &mut Local<A, Rg>,
    ) -> bool
    where
        G: Game<Action = A>,
        K: Guide<G>,
        Rg: Rng,
    {
        if node.claimed.swap(true, AcqRel) {
            return false;
        }
        let n = position.num_legal_actions();
        if n == 0 || n > u32::MAX as usize || !self.reserve(n, shared.config.max_nodes, local) {
            node.claimed.store(false, Release);
            return false;
        }
        local.reserved -= n;
        let actions = &mut local.actions;
        actions.clear();
        position.legal_actions(actions);
        let priors = &mut local.priors;
        priors.clear();
        priors.resize(n, 1.0);
        if shared.prior {
            local.weights.clear();
            shared
                .knowledge
                .weigh(position, actions, &mut local.weights);
            normalise_priors(priors, &local.weights);
        } else {
            actions.shuffle(&mut local.rng);
        }
        let fresh = actions.iter().zip(priors.iter());
        let mut block = match local.pool.take(n) {
            Some(mut block) => {
                for (slot, (&a, &p)) in block.nodes.iter_mut().zip(fresh) {
                    *slot = SharedNode::new(a, p);
                }
                block
            }
            None => Box::new(Block {
                nodes: fresh.map(|(&a, &p)| SharedNode::new(a, p)).collect(),
                indices: Box::default(),
                amaf: Box::default(),
            }),
        };
        if shared.prior {
            block.nodes.sort_by(|a, b| b.prior().total_cmp(&a.prior()));
        }
        let rave = shared.rave.is_some() && position.action_space().is_some();
        block.set_amaf(rave.then_some(position));
        // Only the claiming thread sets it, so this always succeeds.
        let _ = node.children.set(block);
        true
    }
}

/// Which child of `node` (whose children are `children`) an iteration goes to, and whether it
/// is tried for the first time (claimed from the untried ones: the iteration plays out from
/// it): PUCT with a prior, else the next untried child while there is one, else UCB1; with the
/// solver, an open child rather than a proven draw.
fn pick<A, R, K, Rg>(
    children: &[SharedNode<A>],
    node: &SharedNode<A>,
    shared: &Shared<'_, R, K>,
    local: &mut Local<A, Rg>,
) -> (usize, bool) {
    let config = shared.config;
    let c = config.exploration as f32;
    let len = children.len();
    let tried = node.tried();
    let visits = node.n();
    let mut best = if shared.prior {
        local.weights.clear();
        local.weights.extend(children.iter().map(SharedNode::prior));
        let puct = Puct {
            scale: config.puct as f32 * (visits as f32).sqrt(),
            fpu: config.fpu as f32,
        };
        let best = select_puct(
            children,
            &local.weights,
            tried,
            puct,
            None,
            false,
            &mut local.scores,
        );
        if best >= tried {
            // The untried children are in the order of their priors: this is the first of
            // them (or one level with it).
            node.tried.fetch_max(best as u32 + 1, AcqRel);
            return (best, true);
        }
        best
    } else {
        let next = (tried < len)
            .then(|| {
                node.tried
                    .fetch_update(AcqRel, Acquire, |t| ((t as usize) < len).then(|| t + 1))
                    .ok()
            })
            .flatten();
        if let Some(next) = next {
            return (next as usize, true);
        }
        select(children, c, ln_visits(visits))
    };
    if config.prove
        && children[best].proven() == Proof::Draw
        && let Some(open) = select_open(&children[..node.tried()], c, ln_visits(visits))
    {
        best = open;
    }
    (best, false)
}

/// Goes down into `child` (moved into by `mover`): plays its action, counts the virtual loss,
/// and adds it to the path.
#[inline]
fn descend_into<'t, A: Copy, G: Game<Action = A>, R, K>(
    child: &'t SharedNode<A>,
    mover: Player,
    shared: &Shared<'_, R, K>,
    position: &mut G,
    path: &mut Vec<(&'t SharedNode<A>, Player)>,
) {
    child.record(shared.losses[mover.index()]);
    position.play(child.action);
    path.push((child, mover));
}

#[cfg(test)]
impl<A: Copy + PartialEq> SharedTree<A> {
    /// Checks the tree's bookkeeping and returns its root's visits: every node's visits are
    /// the sum of its children's plus the iterations that ended at it, the mean of every open
    /// visited node lies in `range`, no node has more tried children than children, a node
    /// below the root has children only after more than `expand_after` visits (or once its
    /// parent was examined, which expands the moves it advises replies to), and the nodes
    /// counted are the tree's count.
    pub(crate) fn audit(&self, range: std::ops::RangeInclusive<f32>, expand_after: u32) -> u32 {
        let mut count = 0;
        let mut stack = vec![(&self.root, false)];
        while let Some((node, advised)) = stack.pop() {
            count += 1;
            let children = node.children();
            let below: u32 = children.iter().map(Stats::n).sum();
            let ends = node.ends.load(Relaxed);
            assert_eq!(node.n(), below + ends, "visits = children's + ended here");
            assert!(node.tried() <= children.len());
            assert!(children[node.tried()..].iter().all(|c| c.n() == 0));
            let root = std::ptr::eq(node, &self.root);
            if node.n() > 0 && node.proven() == Proof::Open && !root {
                assert!(range.contains(&node.q()), "mean {} in {range:?}", node.q());
            }
            if !children.is_empty() && !root && !advised {
                assert!(
                    node.n() > expand_after,
                    "expanded after {} visits",
                    node.n()
                );
            }
            let examined = node.examined.load(Relaxed);
            stack.extend(children.iter().map(|child| (child, examined)));
        }
        assert_eq!(count, self.len(), "nodes counted = the tree's count");
        self.root.n()
    }

    /// Checks RAVE's statistics and returns the AMAF visits in the tree and the updates
    /// made: every child's AMAF visits are at least its own (each iteration through it plays
    /// its move) and at most its parent's (one update an iteration at most), and its AMAF sum
    /// of results lies between 0 and its visits; each child's index in the block's column is
    /// its move's [`Game::action_index`] (`position`: any position of the game).
    pub(crate) fn audit_amaf<G: Game<Action = A>>(&self, position: &G) -> (u64, u64) {
        let mut total = 0;
        let mut stack = vec![&self.root];
        while let Some(node) = stack.pop() {
            let Some(block) = node.block() else {
                continue;
            };
            for (i, child) in block.nodes.iter().enumerate() {
                let amaf = block.amaf(i);
                assert_eq!(
                    amaf.index as usize,
                    position.action_index(child.action),
                    "the index column follows the children"
                );
                assert!(
                    amaf.visits >= child.n(),
                    "AMAF {} < visits {}",
                    amaf.visits,
                    child.n()
                );
                assert!(
                    amaf.visits <= node.n(),
                    "AMAF {} > parent's {}",
                    amaf.visits,
                    node.n()
                );
                assert!((-1e-3..=amaf.visits as f32 + 1e-3).contains(&amaf.wins));
                total += u64::from(amaf.visits);
            }
            stack.extend(node.children());
        }
        (total, self.hits.load(Relaxed))
    }

    /// How many nodes have been examined, and how many of those had their children's priors
    /// changed by it (checked to sum to 1).
    pub(crate) fn examined(&self) -> (usize, usize) {
        let (mut nodes, mut reweighed) = (0, 0);
        let mut stack = vec![&self.root];
        while let Some(node) = stack.pop() {
            if node.examined.load(Relaxed) {
                nodes += 1;
            }
            if node.reweighed.load(Relaxed) {
                assert!(node.examined.load(Relaxed));
                let sum: f32 = node.children().iter().map(SharedNode::prior).sum();
                assert!((sum - 1.0).abs() < 1e-3, "priors sum to {sum}");
                reweighed += 1;
            }
            stack.extend(node.children());
        }
        (nodes, reweighed)
    }
}
