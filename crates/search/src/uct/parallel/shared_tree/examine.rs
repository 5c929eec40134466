//! The lock-free tree's side of the examination written once
//! ([`examine`](crate::uct::examine::examine)): [`Worker`], one thread's view of the tree.

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};

use game_core::{
    Game, Outcome, Player, Reward,
    knowledge::{Examination, Guide, Verdict},
};
use rand::Rng;

use super::{Local, Shared, SharedNode, SharedTree};
use crate::uct::UctConfig;
use crate::uct::examine::Examine;
use crate::uct::expand::normalise_priors;
use crate::uct::node::Proof;

/// One thread's view of the lock-free tree, for the examination written once
/// ([`examine`](crate::uct::examine::examine)).
pub(super) struct Worker<'t, 's, 'l, A, R, K, Rg> {
    pub(super) tree: &'t SharedTree<A>,
    pub(super) shared: &'s Shared<'s, R, K>,
    pub(super) local: &'l mut Local<A, Rg>,
}

impl<'t, G, R, K, Rg> Examine<G> for Worker<'t, '_, '_, G::Action, R, K, Rg>
where
    G: Game,
    R: Reward<G>,
    K: Guide<G>,
    Rg: Rng,
{
    type Id = &'t SharedNode<G::Action>;
    type Tree = &'t SharedTree<G::Action>;

    fn tree(&mut self) -> &mut &'t SharedTree<G::Action> {
        &mut self.tree
    }

    fn config(&self) -> &UctConfig {
        self.shared.config
    }

    fn draw(&self, position: &G, player: Player) -> f64 {
        self.shared.reward.reward(position, Outcome::Draw, player)
    }

    fn ask(&mut self, node: Self::Id, position: &G) -> Examination<G::Action> {
        let local = &mut *self.local;
        local.actions.clear();
        local
            .actions
            .extend(node.children().iter().map(|c| c.action));
        let mut found = std::mem::take(&mut local.found);
        found.clear();
        self.shared
            .knowledge
            .examine(position, &local.actions, &mut found);
        found
    }

    fn done(&mut self, found: Examination<G::Action>, weights: Vec<f32>) {
        self.local.found = found;
        self.local.weights = weights;
    }

    fn weights(&mut self) -> Vec<f32> {
        let mut weights = std::mem::take(&mut self.local.weights);
        weights.clear();
        weights
    }

    fn children(&self, node: Self::Id) -> usize {
        node.children().len()
    }

    fn priors(&self, node: Self::Id, out: &mut Vec<f32>) {
        out.extend(node.children().iter().map(SharedNode::prior));
    }

    /// Stores the new priors one atomic word each: the other threads go on meanwhile, reading
    /// the old priors or the new ones (a selection that mixes them is still a selection). The
    /// untried children stay where they are (published in the order of their old priors):
    /// PUCT picks the untried child with the best prior wherever it is, and the ones it passes
    /// over, now weighing 0, count as tried without a visit.
    fn set_priors(&mut self, node: Self::Id, weights: &[f32]) {
        let children = node.children();
        let priors = &mut self.local.priors;
        priors.clear();
        priors.resize(children.len(), 0.0);
        normalise_priors(priors, weights);
        for (child, &prior) in children.iter().zip(priors.iter()) {
            child.prior.store(prior.to_bits(), Relaxed);
        }
        #[cfg(test)]
        if node.examined.load(Relaxed) {
            node.reweighed.store(true, Relaxed);
        }
    }

    fn decide(&mut self, node: Self::Id, proof: Proof) {
        if proof != Proof::Open {
            let _ = node
                .proof
                .compare_exchange(Proof::Open as u8, proof as u8, AcqRel, Acquire);
        }
    }

    fn prove_children(&mut self, node: Self::Id, verdicts: &mut [Verdict], draw: f64) {
        for (child, &verdict) in node.children().iter().zip(verdicts.iter()) {
            child.prove(Proof::from(verdict), draw); // nothing for an open one
        }
    }

    fn reweighed(&mut self, _: Self::Id) {}

    fn follows_replies(&self) -> bool {
        true
    }

    fn child(&self, node: Self::Id, action: G::Action) -> Option<Self::Id> {
        node.children().iter().find(|c| c.action == action)
    }

    fn index_of(&self, node: Self::Id, action: G::Action) -> Option<usize> {
        node.children().iter().position(|c| c.action == action)
    }

    fn expanded(&self, node: Self::Id) -> bool {
        node.children.get().is_some()
    }

    fn expand(&mut self, node: Self::Id, position: &G) -> bool {
        self.tree.expand(node, position, self.shared, self.local)
    }
}
