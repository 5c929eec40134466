//! The shared tree's nodes and their blocks of children: a node's statistics, proof and claims
//! in atomics ([`SharedNode`]), and the children a thread builds and publishes complete, with
//! RAVE's columns beside them ([`Block`]).

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

use crate::uct::node::{Proof, Stats};
use crate::uct::solver::proof_from;

/// A node of the shared tree: what [`Node`](crate::uct::node::Node) holds, in atomics, with its
/// children in a block of their own.
#[derive(Debug)]
pub(crate) struct SharedNode<A> {
    /// The visits (low 32 bits) and the `f32` bits of the mean reward (high 32), for the
    /// player who moved into this node.
    pub(super) tally: AtomicU64,
    /// The `f32` bits of `1 / sqrt(visits)` (0 before the first visit and once proven).
    inv_sqrt: AtomicU32,
    /// How many children have been handed out to be tried: always the first ones.
    pub(super) tried: AtomicU32,
    /// A [`Proof`], as its number.
    pub(super) proof: AtomicU8,
    /// Whether a thread has claimed this leaf to expand it.
    pub(super) claimed: AtomicBool,
    /// Whether a thread has claimed this node to examine its moves (`examine`).
    pub(super) examined: AtomicBool,
    /// The children, once expanded: written once, complete.
    pub(super) children: OnceLock<Box<Block<A>>>,
    /// The `f32` bits of the prior probability among its siblings (1 without a prior),
    /// changed once by the node's parent being examined.
    pub(super) prior: AtomicU32,
    /// The action from the parent (the root's is a placeholder nothing reads).
    pub(super) action: A,
    /// Tests only: the iterations whose path ended here.
    #[cfg(test)]
    pub(super) ends: AtomicU32,
    /// Tests only: whether its examination changed its children's priors.
    #[cfg(test)]
    pub(super) reweighed: AtomicBool,
}

/// A visit count and a mean as one word.
#[inline]
pub(super) fn pack(visits: u32, mean: f32) -> u64 {
    u64::from(visits) | (u64::from(mean.to_bits()) << 32)
}

/// The visit count and the mean of a word made by [`pack`].
#[inline]
pub(super) fn unpack(word: u64) -> (u32, f32) {
    (word as u32, f32::from_bits((word >> 32) as u32))
}

impl<A> SharedNode<A> {
    pub(super) fn new(action: A, prior: f32) -> Self {
        SharedNode {
            tally: AtomicU64::new(0),
            inv_sqrt: AtomicU32::new(0),
            tried: AtomicU32::new(0),
            proof: AtomicU8::new(Proof::Open as u8),
            claimed: AtomicBool::new(false),
            examined: AtomicBool::new(false),
            children: OnceLock::new(),
            prior: AtomicU32::new(prior.to_bits()),
            action,
            #[cfg(test)]
            ends: AtomicU32::new(0),
            #[cfg(test)]
            reweighed: AtomicBool::new(false),
        }
    }

    /// The children, once expanded.
    #[inline]
    pub(crate) fn children(&self) -> &[SharedNode<A>] {
        self.children.get().map_or(&[], |block| &block.nodes)
    }

    /// The block of children, once expanded.
    #[inline]
    pub(super) fn block(&self) -> Option<&Block<A>> {
        self.children.get().map(|block| &**block)
    }

    /// The prior probability among its siblings.
    #[inline]
    pub(super) fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }

    /// Whether this thread is the first to claim the node's examination: `false` once any
    /// thread has.
    #[inline]
    pub(super) fn claim_examination(&self) -> bool {
        !self.examined.load(Relaxed) && !self.examined.swap(true, AcqRel)
    }

    /// How many children have been tried (the first ones).
    #[inline]
    pub(crate) fn tried(&self) -> usize {
        (self.tried.load(Acquire) as usize).min(self.children().len())
    }

    /// What is proven about this node from its children (see [`proof_from`]).
    pub(super) fn proof_from_children(&self) -> Proof {
        let children = self.children();
        proof_from(children, self.tried() == children.len())
    }

    /// Changes the tally word by `f`, atomically (compare-and-swap until no other thread
    /// changed it meanwhile); returns the new word. `f` sees the proof as of the word it
    /// changes: Acquire on failure too, so that a proof stored before the word changed is seen.
    #[inline]
    fn swap_tally(&self, f: impl Fn(u64) -> u64) -> u64 {
        let mut old = self.tally.load(Relaxed);
        loop {
            let new = f(old);
            match self.tally.compare_exchange_weak(old, new, AcqRel, Acquire) {
                Ok(_) => return new,
                Err(now) => old = now,
            }
        }
    }

    /// Whether the solver has proven this node: proven, and without the exploration bonus that
    /// a node a verdict decided without the solver keeps.
    #[inline]
    fn solved(&self) -> bool {
        self.proven() != Proof::Open && self.inv_sqrt.load(Relaxed) == 0
    }

    /// Changes the tally by `f` (visits and mean to new visits and mean), atomically; the
    /// mean stays as it is once the solver has proven the node (its exact value, and no
    /// bonus), and keeps moving in a node a verdict decided without the solver (which backs
    /// up its proven result, so its mean tends to it), as in the serial tree. Returns the new
    /// visit count.
    #[inline]
    fn update(&self, f: impl Fn(u32, f32) -> (u32, f32)) -> u32 {
        let word = self.swap_tally(|old| {
            let (visits, mean) = unpack(old);
            let (new_visits, new_mean) = f(visits, mean);
            // (Only a solver's proof makes a mean infinite: that guards the moment between
            // `prove` writing the value and a concurrent `record` storing a bonus again.)
            let exact = self.solved() || !mean.is_finite();
            pack(new_visits, if exact { mean } else { new_mean })
        });
        unpack(word).0
    }

    /// Counts one more iteration through this node, valued `reward`.
    #[inline]
    pub(super) fn record(&self, reward: f64) {
        let visits = self.update(|n, mean| {
            let n = n.saturating_add(1);
            (n, mean + (reward as f32 - mean) / n as f32)
        });
        // A node the solver proved has no bonus (and an exact value); one a verdict decided
        // without the solver keeps both going, as an open one does.
        if !self.solved() {
            self.inv_sqrt
                .store((visits as f32).sqrt().recip().to_bits(), Relaxed);
        }
    }

    /// Changes the reward of one iteration already counted by `delta` (the virtual loss
    /// replaced by the result).
    #[inline]
    pub(super) fn revise(&self, delta: f64) {
        self.update(|n, mean| {
            (
                n,
                if n > 0 {
                    mean + delta as f32 / n as f32
                } else {
                    mean
                },
            )
        });
    }

    /// Marks the node proven (the first proof stands), with its exact value for selection and
    /// no exploration bonus, as [`Node::prove`](crate::uct::node::Node::prove) does.
    pub(super) fn prove(&self, proof: Proof, draw: f64) {
        if proof == Proof::Open
            || self
                .proof
                .compare_exchange(Proof::Open as u8, proof as u8, AcqRel, Acquire)
                .is_err()
        {
            return;
        }
        let value = match proof {
            Proof::Win => f32::INFINITY,
            Proof::Loss => f32::NEG_INFINITY,
            _ => draw as f32,
        };
        // The bonus goes first: from then on `update` leaves the mean alone, and the exact
        // value written next stays.
        self.inv_sqrt.store(0, Relaxed);
        self.swap_tally(|old| pack(unpack(old).0, value));
    }
}

impl<A> Stats for SharedNode<A> {
    #[inline]
    fn q(&self) -> f32 {
        unpack(self.tally.load(Relaxed)).1
    }
    #[inline]
    fn inv_sqrt(&self) -> f32 {
        f32::from_bits(self.inv_sqrt.load(Relaxed))
    }
    #[inline]
    fn n(&self) -> u32 {
        self.tally.load(Relaxed) as u32
    }
    #[inline]
    fn proven(&self) -> Proof {
        Proof::from_number(self.proof.load(Acquire))
    }
}

/// A node's children, built by one thread and published complete: the nodes, and with RAVE
/// their moves' indices and AMAF statistics at the node, in columns of their own. RAVE's
/// update scans the indices of every child on the path and its selection reads every child's
/// statistics: in columns a few cache lines hold them, where inside the nodes it took a line
/// or two a child.
#[derive(Debug)]
pub(crate) struct Block<A> {
    pub(super) nodes: Box<[SharedNode<A>]>,
    /// RAVE: each child's [`Game::action_index`](game_core::Game::action_index) (empty
    /// without RAVE).
    pub(super) indices: Box<[u32]>,
    /// RAVE: the AMAF statistics of the children's moves, in
    /// [`AMAF_SLOTS`](super::rave::AMAF_SLOTS) words a child that add up to them, slot by slot
    /// (`amaf[slot * len + i]` for child `i`), each the visits (low 32 bits) and the `f32` bits of
    /// the sum of their results (high 32); empty without RAVE. A thread writes one slot
    /// ([`Local::slot`](super::Local#structfield.slot)), in a column of its own: with no more
    /// threads than slots each word has one writer, which updates it with a plain load and store (a
    /// compare-and-swap for every move of every playout cost the shared tree half its rate on one
    /// thread); with more, the threads of a slot share it by compare-and-swap.
    pub(super) amaf: Box<[AtomicU64]>,
}

#[cfg(test)]
mod tests {
    use super::{Proof, SharedNode, Stats};
    use std::sync::atomic::Ordering::{AcqRel, Acquire};

    #[test]
    fn a_node_a_verdict_decided_keeps_averaging_and_a_proven_one_keeps_its_value() {
        // Decided by a verdict without the solver (the proof set, the bonus kept): the losses
        // it backs up from then on pull its mean down, as in the serial tree.
        let decided = SharedNode::new(0u8, 1.0);
        decided.record(1.0);
        decided.record(1.0);
        let _ =
            decided
                .proof
                .compare_exchange(Proof::Open as u8, Proof::Loss as u8, AcqRel, Acquire);
        for _ in 0..8 {
            decided.record(0.0);
        }
        assert_eq!(decided.n(), 10);
        assert!((decided.q() - 0.2).abs() < 1e-6, "{}", decided.q());
        assert!(decided.inv_sqrt() > 0.0);
        // Proven by the solver: its exact value and no bonus, whatever is backed up.
        let proven = SharedNode::new(0u8, 1.0);
        proven.record(1.0);
        proven.prove(Proof::Loss, 0.5);
        proven.record(1.0);
        proven.revise(0.5);
        assert_eq!(proven.q(), f32::NEG_INFINITY);
        assert_eq!((proven.n(), proven.inv_sqrt()), (2, 0.0));
    }
}
