//! The UCT tree: one arena of nodes, children stored contiguously.

use game_core::Game;
use rand::{Rng, RngExt};

/// A node's index in the arena. The root is always 0.
///
/// Ids are valid until the tree is re-rooted by tree reuse ([`Tree::retain`]), which moves the
/// kept subtree to the front of a fresh arena and renumbers it; nothing outside the tree keeps
/// ids across searches.
pub(crate) type NodeId = u32;

pub(crate) const ROOT: NodeId = 0;

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
    /// The action from the parent (`None` only at the root).
    pub(crate) action: Option<A>,
}

/// A node's proven result, for the player who moved into it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Proof {
    /// Not proven.
    Open,
    /// A win, whatever the opponent does.
    Win,
    /// A draw with best play.
    Draw,
    /// A loss, whatever this player does.
    Loss,
}

impl<A> Node<A> {
    fn new(action: Option<A>) -> Self {
        Node {
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            visits: 0,
            first: 0,
            len: 0,
            tried: 0,
            proof: Proof::Open,
            action,
        }
    }

    /// Counts one more iteration through this node, with `reward`.
    #[inline]
    pub(crate) fn record(&mut self, reward: f64) {
        self.visits += 1;
        if self.proof == Proof::Open {
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

    /// Mean reward for the player who played `action` (`NaN` before the first visit; `+inf`
    /// or `-inf` when proven won or lost).
    pub(crate) fn mean(&self) -> f64 {
        if self.visits == 0 && self.mean.is_finite() {
            f64::NAN
        } else {
            f64::from(self.mean)
        }
    }

    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.len as usize
    }
}

/// RAVE's statistics of a node's move: the mean result for its player of the iterations in
/// which that player played the move at this point or later.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Amaf {
    pub(crate) mean: f32,
    pub(crate) visits: u32,
    /// The node's action's [`Game::action_index`], kept so that the per-iteration update does
    /// not recompute it for every child.
    pub(crate) index: u32,
}

impl Amaf {
    #[inline]
    pub(crate) fn record(&mut self, reward: f64) {
        self.visits += 1;
        self.mean += (reward as f32 - self.mean) / self.visits as f32;
    }
}

/// The arena, and a spare one that tree reuse compacts into. With RAVE, `amaf[i]` belongs to
/// `nodes[i]` and moves with it; without, `amaf` stays empty.
#[derive(Clone, Debug)]
pub(crate) struct Tree<A> {
    pub(crate) nodes: Vec<Node<A>>,
    spare: Vec<Node<A>>,
    pub(crate) amaf: Vec<Amaf>,
    spare_amaf: Vec<Amaf>,
    rave: bool,
}

/// Writes the actions of a node's children, as `legal_actions` lists them, into the nodes
/// already in place for them (the iterator is at the first one not yet written).
struct Children<'a, A>(std::slice::IterMut<'a, Node<A>>);

impl<A> Extend<A> for Children<'_, A> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        // The actions first: `zip` takes an item from its first iterator before it learns
        // that the second is empty, and no node may be skipped between two calls.
        for (action, node) in iter.into_iter().zip(&mut self.0) {
            node.action = Some(action);
        }
    }
}

impl<A: Copy> Tree<A> {
    /// A tree with only a root; with AMAF statistics for RAVE when `rave`.
    pub(crate) fn new(rave: bool) -> Self {
        Tree {
            nodes: vec![Node::new(None)],
            spare: Vec::new(),
            amaf: if rave {
                vec![Amaf::default()]
            } else {
                Vec::new()
            },
            spare_amaf: Vec::new(),
            rave,
        }
    }

    /// What is proven about `id` from its children, for the player who moved into it: a loss
    /// if a child wins for the player choosing there, a win if every child loses, a draw if
    /// every child is decided and the best is a draw; open otherwise.
    pub(crate) fn proof_from_children(&self, id: NodeId) -> Proof {
        let node = &self.nodes[id as usize];
        if node.len == 0 {
            return Proof::Open;
        }
        let mut all_decided = node.tried == node.len;
        let mut any_draw = false;
        for child in &self.nodes[node.children()] {
            match child.proof {
                Proof::Win => return Proof::Loss,
                Proof::Draw => any_draw = true,
                Proof::Loss => {}
                Proof::Open => all_decided = false,
            }
        }
        match (all_decided, any_draw) {
            (false, _) => Proof::Open,
            (true, true) => Proof::Draw,
            (true, false) => Proof::Win,
        }
    }

    /// Back to only a root, keeping the memory.
    pub(crate) fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(None));
        if self.rave {
            self.amaf.clear();
            self.amaf.push(Amaf::default());
        }
    }

    /// Gives `id` a child for every legal action of `position`, if the arena has room for them
    /// under `cap`; returns whether it did.
    pub(crate) fn expand<G>(&mut self, id: NodeId, position: &G, cap: usize) -> bool
    where
        G: Game<Action = A>,
    {
        let n = position.num_legal_actions();
        let first = self.nodes.len();
        if n == 0 || first + n > cap || n > usize::from(u16::MAX) || first + n > u32::MAX as usize {
            return false;
        }
        // The children in place first, then their actions: a plain fill of whole nodes, and
        // the second pass writes to cache lines the first has just brought in (on 11x11 Hex,
        // 1.1x the iterations per second of pushing the nodes one action at a time).
        self.nodes.resize(first + n, Node::new(None));
        let mut children = Children(self.nodes[first..].iter_mut());
        position.legal_actions(&mut children);
        debug_assert!(
            children.0.len() == 0 && self.nodes[first..].iter().all(|c| c.action.is_some()),
            "as many legal actions as counted"
        );
        if self.rave {
            for node in &self.nodes[first..] {
                let index = node.action.map_or(0, |a| position.action_index(a));
                self.amaf.push(Amaf {
                    index: u32::try_from(index).unwrap_or(u32::MAX),
                    ..Amaf::default()
                });
            }
        }
        let node = &mut self.nodes[id as usize];
        node.first = first as NodeId;
        node.len = n as u16;
        true
    }

    /// Marks a uniformly random untried child of `id` as tried and returns it. Untried children
    /// have no statistics and no children, so moving one to the front of the untried ones (to
    /// keep the tried ones first) moves nothing else; one random number per try, instead of a
    /// shuffle of all the children when the node is expanded.
    pub(crate) fn try_child<R: Rng + ?Sized>(&mut self, id: NodeId, rng: &mut R) -> NodeId {
        let node = self.nodes[id as usize];
        let next = node.first as usize + usize::from(node.tried);
        let pick = next + rng.random_range(0..usize::from(node.len - node.tried));
        self.take_child(id, pick)
    }

    /// Marks the untried child of `id` with the best AMAF mean (`amaf`: the statistics to use
    /// for each of its children) as tried and returns it; a random untried child when none of
    /// them has AMAF statistics yet.
    pub(crate) fn try_best_amaf_child<R: Rng + ?Sized>(
        &mut self,
        id: NodeId,
        amaf: &[Amaf],
        rng: &mut R,
    ) -> NodeId {
        let node = self.nodes[id as usize];
        let first = node.first as usize;
        let next = first + usize::from(node.tried);
        let end = first + usize::from(node.len);
        let best = (next..end)
            .filter(|&i| amaf[i - first].visits > 0)
            .max_by(|&a, &b| amaf[a - first].mean.total_cmp(&amaf[b - first].mean));
        match best {
            Some(pick) => self.take_child(id, pick),
            None => self.try_child(id, rng),
        }
    }

    /// Moves child `pick` (untried) of `id` to the front of the untried ones and marks it tried.
    fn take_child(&mut self, id: NodeId, pick: usize) -> NodeId {
        let node = self.nodes[id as usize];
        let next = node.first as usize + usize::from(node.tried);
        self.nodes.swap(next, pick);
        if self.rave {
            self.amaf.swap(next, pick);
        }
        self.nodes[id as usize].tried += 1;
        next as NodeId
    }

    /// The child of `id` reached by `action`, if `id` has been expanded.
    pub(crate) fn child(&self, id: NodeId, action: A) -> Option<NodeId>
    where
        A: PartialEq,
    {
        let node = &self.nodes[id as usize];
        node.children()
            .find(|&c| self.nodes[c].action == Some(action))
            .map(|c| c as NodeId)
    }

    /// Makes `id` the root, keeping its subtree and dropping the rest. The kept nodes are
    /// copied, breadth first, into the spare arena, which becomes the tree; ids change.
    pub(crate) fn retain(&mut self, id: NodeId) {
        if id == ROOT {
            return;
        }
        let old = std::mem::take(&mut self.nodes);
        let mut new = std::mem::take(&mut self.spare);
        let old_amaf = std::mem::take(&mut self.amaf);
        let mut new_amaf = std::mem::take(&mut self.spare_amaf);
        new.clear();
        new_amaf.clear();
        let mut root = old[id as usize];
        root.action = None;
        new.push(root);
        if self.rave {
            new_amaf.push(old_amaf[id as usize]);
        }
        let mut i = 0;
        while i < new.len() {
            let node = new[i];
            if node.len > 0 {
                let start = new.len();
                new.extend_from_slice(&old[node.children()]);
                if self.rave {
                    new_amaf.extend_from_slice(&old_amaf[node.children()]);
                }
                new[i].first = start as NodeId;
            }
            i += 1;
        }
        self.nodes = new;
        self.spare = old;
        self.amaf = new_amaf;
        self.spare_amaf = old_amaf;
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
}
