//! Expansion on the one-threaded tree: a node gains its children, with their prior
//! probabilities when there is a prior ([`normalise_priors`], which the lock-free tree uses
//! too).

use game_core::{Game, knowledge::Guide};

use super::TreeSearch;
use super::node::NodeId;

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    /// Gives `node` its children (if the tree has room), with their prior probabilities when
    /// there is a prior; returns whether it did.
    pub(crate) fn expand<G>(&mut self, node: NodeId, position: &G) -> bool
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        if !self.tree.expand(node, position, self.config.max_nodes) {
            self.full = self.tree.len() + position.num_legal_actions() > self.config.max_nodes;
            return false;
        }
        if self.tree.has_priors() {
            self.load_actions(node);
            let mut weights = std::mem::take(&mut self.weights);
            weights.clear();
            self.knowledge.weigh(position, &self.actions, &mut weights);
            self.set_priors(node, &weights);
            self.tree.lead_untried(node);
            self.weights = weights;
        }
        true
    }

    /// Puts the actions of `node`'s children, in their order, into the `actions` buffer.
    pub(crate) fn load_actions(&mut self, node: NodeId) {
        let children = self.tree.children(&self.tree[node]);
        self.actions.clear();
        self.actions
            .extend(children.iter().map(|child| child.action));
    }

    /// Sets the priors of `node`'s children (just expanded, in the order of the position's
    /// legal actions) from a prior's `weights`, normalised to sum to 1; uniform when the
    /// weights sum to 0 or are not one finite weight of at least 0 per child.
    pub(crate) fn set_priors(&mut self, node: NodeId, weights: &[f32]) {
        normalise_priors(self.tree.priors_mut(node), weights);
    }
}

/// Writes into `priors` (one per child, in the order of the position's legal actions) a
/// prior's `weights` normalised to sum to 1; uniform when the weights sum to 0 or are not one
/// finite weight of at least 0 per child.
pub(crate) fn normalise_priors(priors: &mut [f32], weights: &[f32]) {
    let n = priors.len();
    let valid = weights.len() == n && weights.iter().all(|w| w.is_finite() && *w >= 0.0);
    debug_assert!(
        valid,
        "a prior gives one weight, finite and at least 0, per action"
    );
    let sum: f32 = if valid { weights.iter().sum() } else { 0.0 };
    if sum > 0.0 {
        for (p, w) in priors.iter_mut().zip(weights) {
            *p = w / sum;
        }
    } else {
        priors.fill(1.0 / n as f32);
    }
}
