//! MCTS-Solver (Winands, Björnsson and Saito 2008): proven results in the tree, and how they
//! are carried up the path.

use game_core::Player;

use super::node::{Node, NodeId, Nodes, Proof, Stats};
use super::tree::Tree;

/// What is proven about a node from its `children` (`all_tried`: whether every one has been
/// tried), for the player who moved into it: a loss if a child wins for the player choosing
/// there, a win if every child loses, a draw if every child is decided and the best is a
/// draw; open otherwise (and for a node without children).
pub(crate) fn proof_from<C: Stats>(children: &[C], all_tried: bool) -> Proof {
    if children.is_empty() {
        return Proof::Open;
    }
    let mut all_decided = all_tried;
    let mut any_draw = false;
    for child in children {
        match child.proven() {
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

impl<A: Copy> Tree<A> {
    /// What is proven about `id` from its children (see [`proof_from`]).
    pub(crate) fn proof_from_children(&self, id: NodeId) -> Proof {
        let node = &self[id];
        proof_from(self.children(node), node.fully_tried())
    }

    /// Whether the solver has decided the root: nothing is left to search.
    pub(crate) fn root_decided(&self) -> bool {
        self[NodeId::ROOT].proof != Proof::Open
    }
}

impl<A: Copy> Nodes for Tree<A> {
    type Id = NodeId;

    #[inline]
    fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    #[inline]
    fn proof(&self, id: NodeId) -> Proof {
        self[id].proof
    }

    #[inline]
    fn proof_from_children(&self, id: NodeId) -> Proof {
        Tree::proof_from_children(self, id)
    }

    #[inline]
    fn prove(&mut self, id: NodeId, proof: Proof, draw: f64) {
        Node::prove(&mut self[id], proof, draw);
    }

    #[inline]
    fn record(&mut self, id: NodeId, reward: f64) {
        self[id].record(reward);
    }

    #[inline]
    fn revise(&mut self, id: NodeId, delta: f64) {
        self[id].revise(delta);
    }
}

/// Carries proofs up `path` (nodes and the players who moved into them): from its end, each
/// node that its children now decide is proven, up to the first that stays open (or the
/// root). `draws` is the draw's reward for each player.
pub(crate) fn carry_proofs<T: Nodes>(tree: &mut T, path: &[(T::Id, Player)], draws: [f64; 2]) {
    for &(id, mover) in path.iter().rev() {
        if tree.proof(id) == Proof::Open {
            let proof = tree.proof_from_children(id);
            if proof == Proof::Open {
                return;
            }
            tree.prove(id, proof, draws[mover.index()]);
        }
    }
    let root = tree.root();
    let proof = tree.proof_from_children(root);
    if proof != Proof::Open {
        tree.prove(root, proof, 0.0);
    }
}
