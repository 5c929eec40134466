//! RAVE and GRAVE in the lock-free tree: their settings, the AMAF statistics one selection
//! reads ([`amaf_view`]), the selection ([`pick_rave`]) and the update of an iteration
//! ([`SharedTree::update_amaf`]), and the blocks' AMAF columns: their setting, their reading
//! and their update.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{AcqRel, Relaxed};

use game_core::{Game, Player};
use rand::{Rng, RngExt};

use super::{Block, Local, Shared, SharedNode, SharedTree, pack, unpack};
use crate::uct::RaveConfig;
use crate::uct::node::{Amaf, Proof, Stats};
use crate::uct::select::{Bias, RaveWeights, ln_visits, select_open, select_rave_unordered};

/// RAVE's or GRAVE's settings in the lock-free tree: what [`RaveConfig`] says, with the
/// weights' table built once.
#[derive(Clone, Debug)]
pub(crate) struct SharedRave {
    weights: RaveWeights,
    /// GRAVE's threshold of visits for the reference node.
    pub(super) grave: Option<u32>,
    skip: u32,
    /// The progressive bias's weight, with a prior.
    pub(super) bias: Option<f32>,
}

impl SharedRave {
    pub(crate) fn new(config: RaveConfig) -> Self {
        SharedRave {
            weights: RaveWeights::new(config.k as f32),
            grave: config.grave,
            skip: config.skip.unwrap_or(0),
            bias: config.bias.map(|b| b as f32),
        }
    }
}

/// The AMAF words of each child in a block (its slots, one column each): two, so that two
/// threads each write their own.
pub(crate) const AMAF_SLOTS: usize = 2;

impl<A: Copy> Block<A> {
    /// Sets the RAVE columns for the nodes as they are now ordered: with `position` (the
    /// node's), each child's action index and AMAF statistics of nothing yet; without it (no
    /// RAVE), none.
    pub(super) fn set_amaf<G: Game<Action = A>>(&mut self, position: Option<&G>) {
        let Some(position) = position else {
            self.indices = Box::default();
            self.amaf = Box::default();
            return;
        };
        let len = self.nodes.len();
        if self.indices.len() == len {
            for (index, node) in self.indices.iter_mut().zip(&self.nodes) {
                *index = position.action_index(node.action) as u32;
            }
        } else {
            self.indices = self
                .nodes
                .iter()
                .map(|node| position.action_index(node.action) as u32)
                .collect();
        }
        if self.amaf.len() == len * AMAF_SLOTS {
            for word in &mut self.amaf {
                *word.get_mut() = 0;
            }
        } else {
            self.amaf = (0..len * AMAF_SLOTS).map(|_| AtomicU64::new(0)).collect();
        }
    }
}

impl<A> Block<A> {
    /// RAVE: the AMAF statistics of child `i`'s move, the sum of its slots (each read
    /// consistently).
    #[inline]
    pub(crate) fn amaf(&self, i: usize) -> Amaf {
        let len = self.nodes.len();
        let (mut visits, mut wins) = (0u32, 0.0f32);
        for slot in 0..AMAF_SLOTS {
            let (v, w) = unpack(self.amaf[slot * len + i].load(Relaxed));
            visits = visits.saturating_add(v);
            wins += w;
        }
        Amaf {
            wins,
            visits,
            index: self.indices[i],
        }
    }

    /// RAVE: counts one more iteration in which child `i`'s move was played later, with
    /// `reward` for the player who plays it, in the slot `slot`: by a plain load and store when
    /// the calling thread is its only writer (`alone`), else by compare-and-swap. No update is
    /// lost either way.
    #[inline]
    fn hit(&self, slot: usize, alone: bool, i: usize, reward: f32) {
        let word = &self.amaf[slot * self.nodes.len() + i];
        let add = |old| {
            let (visits, wins) = unpack(old);
            pack(visits.saturating_add(1), wins + reward)
        };
        if alone {
            word.store(add(word.load(Relaxed)), Relaxed);
        } else {
            // Never fails: the closure always gives a new word.
            let _ = word.fetch_update(Relaxed, Relaxed, |old| Some(add(old)));
        }
    }
}

impl<A: Copy + PartialEq> SharedTree<A> {
    /// RAVE's backpropagation, as [`Rave::update`](crate::uct::rave::Rave) does it in the
    /// serial tree: from the end of `path` up, every child of each node whose move the player
    /// choosing there played later in this iteration (in the path below or in the playout,
    /// marked in `marked`) counts the iteration's result for that player. Only those children
    /// are written (a write to a word the other threads read costs a trip between the cores).
    /// Their places are gathered first from the block's column of indices, in `hits`, without
    /// a branch (whether a child's move was played later is a coin toss for the branch
    /// predictor, as in the serial tree's update), and then written. `position` is any
    /// position of the game (for the actions' indices).
    pub(super) fn update_amaf<G: Game<Action = A>, Rg>(
        &self,
        path: &[(&SharedNode<A>, Player)],
        local: &mut Local<A, Rg>,
        rewards: [f64; 2],
        position: &G,
    ) {
        let (marked, hits) = (&mut local.marked, &mut local.hits);
        for k in (0..path.len()).rev() {
            let (node, mover) = path[k];
            marked.insert(mover, position.action_index(node.action));
            let parent = if k == 0 { &self.root } else { path[k - 1].0 };
            let Some(block) = parent.block() else {
                continue; // (the parent of a node on the path: not reached)
            };
            let reward = rewards[mover.index()] as f32;
            let words = marked.words(mover);
            let indices = &block.indices[..];
            if hits.len() < indices.len() {
                hits.resize(indices.len(), 0);
            }
            let mut found = 0;
            for (place, &i) in (0..).zip(indices) {
                let i = i as usize;
                let hit = words.get(i / 64).copied().unwrap_or(0) >> (i % 64) & 1;
                hits[found] = place;
                found += hit as usize;
            }
            for &place in &hits[..found] {
                block.hit(local.slot, local.alone, place as usize, reward);
            }
            #[cfg(test)]
            self.hits.fetch_add(found as u64, Relaxed);
        }
    }
}

/// Fills `local.amaf` with the AMAF statistics RAVE's selection at `node` reads for each of
/// its children (in `block`): their own; with GRAVE below the reference node `reference`, the
/// reference's statistics of the same moves; every `skip`-th selection, none (empty ones).
pub(super) fn amaf_view<A, G: Game<Action = A>, Rg>(
    block: &Block<A>,
    node: &SharedNode<A>,
    reference: &SharedNode<A>,
    position: &G,
    rave: &SharedRave,
    local: &mut Local<A, Rg>,
) {
    local.amaf.clear();
    if rave.skip > 0 {
        local.countdown = local.countdown.checked_sub(1).unwrap_or(rave.skip - 1);
        if local.countdown == 0 {
            local.countdown = rave.skip;
            local.amaf.resize(block.nodes.len(), Amaf::default());
            return;
        }
    }
    // GRAVE below its reference reads the reference's statistics; plain RAVE, or GRAVE at its
    // reference, the node's own.
    let space = position.action_space().filter(|_| rave.grave.is_some());
    if let (Some(space), false) = (space, std::ptr::eq(reference, node)) {
        let address = std::ptr::from_ref(reference) as usize;
        if local.reference_built != address {
            local.reference_amaf.clear();
            local.reference_amaf.resize(space, Amaf::default());
            if let Some(reference) = reference.block() {
                for (i, &index) in reference.indices.iter().enumerate() {
                    local.reference_amaf[index as usize] = reference.amaf(i);
                }
            }
            local.reference_built = address;
        }
        let table = &local.reference_amaf;
        local
            .amaf
            .extend(block.indices.iter().map(|&i| table[i as usize]));
    } else {
        local
            .amaf
            .extend((0..block.nodes.len()).map(|i| block.amaf(i)));
    }
}

/// [`pick`] with RAVE (or GRAVE), on the statistics [`amaf_view`] gathered: RAVE's selection
/// over the tried and untried children alike, with the progressive bias of the prior if there
/// is one; an untried child of which AMAF knows nothing (and no bias) is a random one of
/// those. A child tried for the first time counts, with those before it, as tried.
pub(super) fn pick_rave<A, R, K, Rg: Rng>(
    children: &[SharedNode<A>],
    node: &SharedNode<A>,
    shared: &Shared<'_, R, K>,
    rave: &SharedRave,
    local: &mut Local<A, Rg>,
) -> (usize, bool) {
    let config = shared.config;
    let c = config.exploration as f32;
    let visits = node.n();
    let scale = c * ln_visits(visits).sqrt();
    local.weights.clear();
    let bias = match (rave.bias, shared.prior) {
        (Some(weight), true) => {
            local.weights.extend(children.iter().map(SharedNode::prior));
            Some(Bias {
                priors: &local.weights,
                weight,
            })
        }
        _ => None,
    };
    let no_bias = bias.is_none();
    let mut best = select_rave_unordered(
        children,
        &local.amaf,
        scale,
        &rave.weights,
        bias,
        &mut local.scores,
    );
    if children[best].n() == 0 {
        if local.amaf[best].visits == 0 && no_bias {
            // Untried children no playout has told apart: a random one.
            let len = children.len();
            let start = local.rng.random_range(0..len);
            best = (0..len)
                .map(|i| (start + i) % len)
                .find(|&i| children[i].n() == 0 && local.amaf[i].visits == 0)
                .unwrap_or(best);
        }
        node.tried.fetch_max(best as u32 + 1, AcqRel);
        return (best, true);
    }
    if config.prove
        && children[best].proven() == Proof::Draw
        && let Some(open) = select_open(&children[..node.tried()], c, ln_visits(visits))
    {
        best = open;
    }
    (best, false)
}

#[cfg(test)]
mod tests {
    use super::{Amaf, Stats};

    #[test]
    fn plain_rave_reads_each_nodes_own_statistics_and_grave_its_reference() {
        use super::super::{Local, Shared, SharedTree};
        use super::{SharedRave, amaf_view};
        use crate::uct::{RaveConfig, UctConfig};
        use game_core::testing::TicTacToe;
        use game_core::{Game, WinDrawLoss, knowledge::Knowledge};
        use rand::SeedableRng;

        let start = TicTacToe::new();
        let config = UctConfig {
            rave: Some(RaveConfig::RAVE),
            ..UctConfig::default()
        };
        let (rave, grave) = (
            SharedRave::new(RaveConfig::RAVE),
            SharedRave::new(RaveConfig::GRAVE),
        );
        let reward = WinDrawLoss::default();
        let shared = Shared {
            config: &config,
            reward: &reward,
            knowledge: &Knowledge::NONE,
            prior: false,
            losses: [0.0; 2],
            rave: Some(&rave),
        };
        let tree = SharedTree::new(&start);
        let mut local = Local::new(rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1));
        let mut path = Vec::new();
        for _ in 0..2_000 {
            tree.iterate(&start, &shared, &mut local, &mut path);
        }
        let visits = |view: &[Amaf]| view.iter().map(|a| a.visits).collect::<Vec<_>>();
        let child = tree
            .root
            .children()
            .iter()
            .max_by_key(|c| c.n())
            .expect("the root is expanded");
        let moves = child.block().expect("the most visited child is expanded");
        assert!(!moves.nodes.is_empty());
        let position = start.after(child.action);
        // Plain RAVE below the root: the node's own statistics.
        amaf_view(moves, child, &tree.root, &position, &rave, &mut local);
        let own: Vec<u32> = (0..moves.nodes.len())
            .map(|i| moves.amaf(i).visits)
            .collect();
        assert_eq!(visits(&local.amaf), own);
        // GRAVE below its reference (the root): the root's statistics of the same moves.
        local.reference_built = 0;
        amaf_view(moves, child, &tree.root, &position, &grave, &mut local);
        let root = tree.root.block().expect("the root is expanded");
        let at_root: Vec<u32> = moves
            .nodes
            .iter()
            .map(|m| {
                let same = root.nodes.iter().position(|r| r.action == m.action);
                same.map_or(0, |r| root.amaf(r).visits)
            })
            .collect();
        assert_eq!(visits(&local.amaf), at_root);
        assert_ne!(
            own, at_root,
            "the two views differ here, or the test tells nothing"
        );
    }
}
