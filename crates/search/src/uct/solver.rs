//! MCTS-Solver (Winands, Björnsson and Saito 2008): proven results in the tree, and how they
//! are carried up the path.

use game_core::{Player, Verdict, Wdl};

use super::select::Stats;
use super::tree::{Node, NodeId, Tree};

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

impl<A> Node<A> {
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
