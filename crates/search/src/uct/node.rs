//! The tree's node types, which every other part of `uct/` reads: a node and its id, what
//! the solver has proven about it, what selection reads of it ([`Stats`]), what the phases of
//! an iteration change in it ([`Nodes`]), and RAVE's statistics of its move ([`Amaf`]). This
//! module imports none of the others.

use std::ops::Range;

use game_core::{Wdl, knowledge::Verdict};

/// A node's index in the arena. The root is always [`NodeId::ROOT`].
///
/// Ids are valid until the tree is re-rooted by tree reuse ([`Tree::retain`](super::tree::Tree::retain)), which moves the
/// kept subtree to the front of a fresh arena and renumbers it, or emptied ([`Tree::reset`](super::tree::Tree::reset));
/// nothing outside the tree keeps ids across searches.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct NodeId(pub(super) u32);

/// The `first` of a leaf whose children [`Tree::prune`](super::tree::Tree::prune) dropped (a
/// fresh leaf's is [`NodeId::ROOT`]; an expanded node's children never start at 1 unless it
/// is the root, which pruning keeps): its empty range of children stays inside the arena.
pub(crate) const PRUNED: NodeId = NodeId(1);

impl NodeId {
    /// The root of every tree.
    pub(crate) const ROOT: NodeId = NodeId(0);

    /// The id's position in the arena.
    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }

    /// The id `offset` places after this one (a sibling in the same block of children).
    #[inline]
    pub(crate) fn offset(self, offset: usize) -> NodeId {
        NodeId(self.0 + offset as u32)
    }
}

/// One node: the action that led to it, its statistics, and where its children are.
///
/// The statistics are from the point of view of the player who played `action` (the player to
/// move at the parent), so a parent picks the child with the best statistics for itself. They
/// are kept in the form selection reads: the mean reward and `1 / sqrt(visits)`, so that a
/// child's UCB1 score is one multiply-add (`mean + c * sqrt(ln N) * inv_sqrt_visits`), with the
/// division and the square root paid once per visit in backpropagation instead of once per
/// child per level in selection. 24 bytes for one-, two- and three-byte actions.
///
/// With the solver, a proven node's `mean` is its exact value and its `inv_sqrt_visits` 0:
/// `+inf` for a proven win for the player who moved into it, `-inf` for a proven loss, the
/// draw's reward for a proven draw. Selection needs no extra test: a won child always scores
/// highest, a lost one lowest, and a drawn one gets no exploration bonus. `proof` says which.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<A> {
    /// Mean reward of the iterations through this node (0 before the first).
    pub(crate) mean: f32,
    /// `1 / sqrt(visits)` (0 before the first visit).
    pub(crate) inv_sqrt_visits: f32,
    /// Iterations through this node.
    pub(crate) visits: u32,
    /// The first child's id; meaningful only when `len > 0`.
    pub(crate) first: NodeId,
    /// Number of children (0: not expanded yet, or a finished game).
    pub(crate) len: u16,
    /// Children visited at least once: always the first `tried` of them.
    pub(crate) tried: u16,
    /// What the solver has proven, for the player who moved into this node.
    pub(crate) proof: Proof,
    /// The action from the parent. The root's is a placeholder that nothing reads: the action
    /// that led to it before tree reuse made it the root, or any legal action of a fresh root.
    pub(crate) action: A,
}

impl<A> Node<A> {
    pub(super) fn new(action: A) -> Self {
        Node {
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            visits: 0,
            first: NodeId::ROOT,
            len: 0,
            tried: 0,
            proof: Proof::Open,
            action,
        }
    }

    /// Counts one more iteration through this node, with `reward`. A node the solver proved
    /// keeps its exact value (and no exploration bonus); an open node, or one a verdict decided
    /// without the solver (which keeps its bonus), averages the reward in.
    #[inline]
    pub(crate) fn record(&mut self, reward: f64) {
        self.visits += 1;
        if self.proof == Proof::Open || self.inv_sqrt_visits != 0.0 {
            let n = self.visits as f32;
            self.mean += (reward as f32 - self.mean) / n;
            self.inv_sqrt_visits = n.sqrt().recip();
        }
    }

    /// Changes the reward of one iteration already counted by `delta` (tree parallelisation
    /// replacing a virtual loss by the real result): the sum of rewards moves by `delta`, so the
    /// mean by `delta / visits`.
    #[inline]
    pub(crate) fn revise(&mut self, delta: f64) {
        if self.proof == Proof::Open && self.visits > 0 {
            self.mean += delta as f32 / self.visits as f32;
        }
    }

    /// Whether every child has been tried (and there is at least one).
    #[inline]
    pub(crate) fn fully_tried(&self) -> bool {
        self.tried == self.len
    }

    /// The ids of the children.
    pub(crate) fn child_ids(&self) -> impl Iterator<Item = NodeId> + use<A> {
        let first = self.first.0;
        (first..first + u32::from(self.len)).map(NodeId)
    }

    /// The children's places in the arena.
    #[inline]
    pub(super) fn children(&self) -> Range<usize> {
        self.first.index()..self.first.index() + usize::from(self.len)
    }

    /// The tried children's places in the arena.
    #[inline]
    pub(super) fn tried_children(&self) -> Range<usize> {
        self.first.index()..self.first.index() + usize::from(self.tried)
    }

    /// Marks this node proven, with its exact value for selection and no exploration bonus
    /// (nothing about it is uncertain any more): `+inf` for a win, `-inf` for a loss, and
    /// `draw` (the draw's reward for the player who moved into it) for a draw.
    pub(crate) fn prove(&mut self, proof: Proof, draw: f64) {
        self.proof = proof;
        self.inv_sqrt_visits = 0.0;
        self.mean = match proof {
            Proof::Win => f32::INFINITY,
            Proof::Loss => f32::NEG_INFINITY,
            Proof::Draw => draw as f32,
            Proof::Open => self.mean,
        };
    }
}

/// A node's proven result, for the player who moved into it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Proof {
    /// Not proven.
    Open = 0,
    /// A win, whatever the opponent does.
    Win = 1,
    /// A draw with best play.
    Draw = 2,
    /// A loss, whatever this player does.
    Loss = 3,
}

impl From<Wdl> for Proof {
    /// The proof of a result known for certain (a finished game, for the player who moved
    /// into it).
    fn from(wdl: Wdl) -> Proof {
        match wdl {
            Wdl::Win => Proof::Win,
            Wdl::Draw => Proof::Draw,
            Wdl::Loss => Proof::Loss,
        }
    }
}

impl From<Verdict> for Proof {
    /// What a prior's verdict on a move proves about the child it leads to (open: nothing).
    fn from(verdict: Verdict) -> Proof {
        match verdict {
            Verdict::Win => Proof::Win,
            Verdict::Loss => Proof::Loss,
            Verdict::Unknown => Proof::Open,
        }
    }
}

impl Proof {
    /// The proof whose number (`proof as u8`) is `n`; open for a number no proof has.
    #[inline]
    pub(crate) fn from_number(n: u8) -> Proof {
        match n {
            1 => Proof::Win,
            2 => Proof::Draw,
            3 => Proof::Loss,
            _ => Proof::Open,
        }
    }

    /// The proven result for the player who moved into the node; `None` while open.
    pub(crate) fn wdl(self) -> Option<Wdl> {
        match self {
            Proof::Open => None,
            Proof::Win => Some(Wdl::Win),
            Proof::Draw => Some(Wdl::Draw),
            Proof::Loss => Some(Wdl::Loss),
        }
    }
}

/// What selection reads of a child: the statistics of the one-threaded tree's [`Node`] and of
/// the lock-free tree's nodes alike, so that both select by the same code (each read inlines
/// to a field load, or a relaxed atomic load, which is the same instruction).
pub(crate) trait Stats {
    /// The mean reward for the player who moved into the child (`+inf`/`-inf` when proven
    /// won/lost, the draw's reward when proven drawn).
    fn q(&self) -> f32;
    /// `1 / sqrt(visits)` (0 before the first visit, or once proven).
    fn inv_sqrt(&self) -> f32;
    /// The iterations through the child.
    fn n(&self) -> u32;
    /// What the solver has proven about it.
    fn proven(&self) -> Proof;
}

impl<A> Stats for Node<A> {
    #[inline]
    fn q(&self) -> f32 {
        self.mean
    }
    #[inline]
    fn inv_sqrt(&self) -> f32 {
        self.inv_sqrt_visits
    }
    #[inline]
    fn n(&self) -> u32 {
        self.visits
    }
    #[inline]
    fn proven(&self) -> Proof {
        self.proof
    }
}

/// What backpropagation and the solver's proofs change in a tree, for the one-threaded arena
/// ([`Tree`](super::tree::Tree), through `&mut`) and the lock-free tree (through a shared
/// reference, with atomics) alike, so that each of those phases is written once
/// ([`back_up`](super::backup::back_up), [`carry_proofs`](super::solver::carry_proofs)).
pub(crate) trait Nodes {
    /// A node of the tree: an index, or a reference.
    type Id: Copy;
    /// The root.
    fn root(&self) -> Self::Id;
    /// What is proven about `id`.
    fn proof(&self, id: Self::Id) -> Proof;
    /// What is proven about `id` from its children
    /// ([`proof_from`](super::solver::proof_from)).
    fn proof_from_children(&self, id: Self::Id) -> Proof;
    /// Marks `id` proven, with its exact value for selection (`draw`: a draw's reward for the
    /// player who moved into it); the lock-free tree keeps the first proof.
    fn prove(&mut self, id: Self::Id, proof: Proof, draw: f64);
    /// Counts one more iteration through `id`, worth `reward`.
    fn record(&mut self, id: Self::Id, reward: f64);
    /// Changes the reward of one iteration `id` counts already by `delta` (a virtual loss
    /// replaced by the result).
    fn revise(&mut self, id: Self::Id, delta: f64);
}

/// RAVE's statistics of a node's move: the results for its player of the iterations in which
/// that player played the move at this point or later. Kept as a sum and a count, so that an
/// update is two additions (a mean would need a division for every child updated) and the
/// division is paid in selection, where it is done for many children at once.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Amaf {
    /// The sum of the results.
    pub(crate) wins: f32,
    pub(crate) visits: u32,
    /// The node's action's [`Game::action_index`], kept so that the per-iteration update does
    /// not recompute it for every child.
    pub(crate) index: u32,
}

impl Amaf {
    /// The mean result (NaN before the first).
    #[inline]
    pub(crate) fn mean(&self) -> f32 {
        self.wins / self.visits as f32
    }
}

#[cfg(test)]
mod tests {
    use super::Node;

    #[test]
    fn nodes_are_24_bytes_for_every_game_here() {
        assert_eq!(size_of::<Node<games_connect4::Column>>(), 24);
        assert_eq!(size_of::<Node<games_othello::Move>>(), 24);
        assert_eq!(size_of::<Node<games_hex::Move>>(), 24);
        assert_eq!(size_of::<Node<game_core::testing::Cell>>(), 24);
    }
}
