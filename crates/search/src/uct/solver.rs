//! MCTS-Solver (Winands, Björnsson and Saito 2008): proven results in the tree, and how they
//! are carried up the path.

use game_core::Player;

use super::node::{NodeId, Proof, Stats};
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

    /// Carries proofs up `path` (nodes and the players who moved into them): from its end,
    /// each node that its children now decide is marked, up to the first that stays open (or
    /// the root). `draws` is the draw's reward for each player.
    pub(crate) fn propagate_proofs(&mut self, path: &[(NodeId, Player)], draws: [f64; 2]) {
        for &(id, mover) in path.iter().rev() {
            if self[id].proof == Proof::Open {
                let proof = self.proof_from_children(id);
                if proof == Proof::Open {
                    return;
                }
                self[id].prove(proof, draws[mover.index()]);
            }
        }
        let proof = self.proof_from_children(NodeId::ROOT);
        if proof != Proof::Open {
            self[NodeId::ROOT].prove(proof, 0.0);
        }
    }

    /// Whether the solver has decided the root: nothing is left to search.
    pub(crate) fn root_decided(&self) -> bool {
        self[NodeId::ROOT].proof != Proof::Open
    }
}
