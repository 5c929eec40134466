//! Examination: what the game's knowledge proves about a node's moves ([`Prior::examine`]),
//! and what the search does with it: the verdicts reweigh the priors (and, with the solver,
//! prove the children), the advised replies raise their children's priors. The decisions are
//! the free functions here, which the lock-free tree uses too.
//!
//! [`Prior::examine`]: game_core::Prior::examine

use game_core::{Game, Guide, Outcome, Player, Reward, Verdict};

use super::TreeSearch;
use super::node::{NodeId, Proof};
use super::solver::carry_proofs;

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    /// Asks the prior what is proven about the moves of `node` (expanded; at `position`, the
    /// end of `path`): a losing move's prior becomes 0 and a winning move takes the whole prior;
    /// with the solver, the decided children are marked tried and proven, and the proofs
    /// carried up `path`. Nothing is done with verdicts that are all alike. Then the replies
    /// it advises are favoured ([`favour_replies`](Self::favour_replies)).
    pub(crate) fn examine<G>(&mut self, node: NodeId, position: &G, path: &[(NodeId, Player)])
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        self.load_actions(node);
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.knowledge.examine(position, &self.actions, &mut found);
        self.weigh_by_verdicts(node, position, path, &mut found.verdicts);
        if !found.replies.is_empty() && self.tree[node].proof == Proof::Open {
            self.favour_replies(node, position, &found.replies);
        }
        self.found = found;
    }

    /// What [`examine`](Self::examine) does with the `verdicts` on the moves of `node`.
    pub(crate) fn weigh_by_verdicts<G>(
        &mut self,
        node: NodeId,
        position: &G,
        path: &[(NodeId, Player)],
        verdicts: &mut [Verdict],
    ) where
        G: Game<Action = A>,
        R: Reward<G>,
    {
        if !self.config.solver {
            // The verdicts decide the node itself when the player to move has a winning move
            // or every move loses. Without the solver the result is not carried up the path
            // (the parent goes on choosing by means, which against a fallible opponent
            // finds the move that resists best); it stands for the node's playouts instead,
            // as a finished game's would, so that its mean tends to the proven value. At the
            // root it is what the report proves (the search goes on choosing the move).
            self.tree[node].proof = decided_by(verdicts, self.actions.len());
        }
        let mut weights = std::mem::take(&mut self.weights);
        weights.clear();
        weights.extend_from_slice(self.tree.priors(&self.tree[node]));
        if !weigh_verdicts(&mut weights, verdicts) {
            self.weights = weights;
            return;
        }
        self.set_priors(node, &weights);
        self.weights = weights;
        if self.config.solver {
            // The decided untried children become tried (ahead of the others), so that the
            // node's proof can count them; the verdicts follow the children's moves.
            let (tried, len) = (self.tree[node].tried, self.tree[node].len);
            let mut next = usize::from(tried);
            for offset in usize::from(tried)..usize::from(len) {
                if verdicts[offset] != Verdict::Unknown {
                    self.tree.try_child_at(node, offset);
                    verdicts.swap(next, offset);
                    next += 1;
                }
            }
            let first = self.tree[node].first;
            let draw = self
                .reward
                .reward(position, Outcome::Draw, position.to_move());
            for (offset, &verdict) in verdicts.iter().enumerate().take(next) {
                let proof = Proof::from(verdict);
                let child = &mut self.tree[first.offset(offset)];
                if proof != Proof::Open && child.proof == Proof::Open {
                    child.prove(proof, draw);
                }
            }
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            carry_proofs(&mut self.tree, path, draws);
        }
        self.tree.lead_untried(node);
    }

    /// Follows the `replies` an examination of `node` (at `position`) advised: for each move
    /// with replies, its child (expanded now if it was not, and the tree has room) gains
    /// [`UctConfig::reply`] of prior on each advised reply whose prior is above 0 (a move its
    /// own examination proved lost, or an inferior one, stays out), and the priors are
    /// normalised again. Replies to unknown moves, or not legal after them, are ignored.
    pub(crate) fn favour_replies<G>(&mut self, node: NodeId, position: &G, replies: &[(A, A)])
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        let bonus = self.config.reply as f32;
        if bonus <= 0.0 || self.deferred {
            return;
        }
        for action in advised_moves(replies) {
            let Some(child) = self.tree.child(node, action) else {
                continue;
            };
            if self.tree[child].proof != Proof::Open {
                continue;
            }
            if self.tree[child].len == 0 && !self.expand(child, &position.after(action)) {
                continue; // the game is over there, or the tree is full
            }
            let mut weights = std::mem::take(&mut self.weights);
            weights.clear();
            weights.extend_from_slice(self.tree.priors(&self.tree[child]));
            let children = self.tree.children(&self.tree[child]);
            let index_of = |reply| children.iter().position(|c| c.action == reply);
            if raise_replies(&mut weights, replies, action, bonus, index_of) {
                self.set_priors(child, &weights);
                self.tree.lead_untried(child);
            }
            self.weights = weights;
        }
    }
}

/// The moves an examination's `replies` advise answers to, each once (in the order of their
/// first pair).
pub(crate) fn advised_moves<A: Copy + PartialEq>(
    replies: &[(A, A)],
) -> impl Iterator<Item = A> + '_ {
    replies
        .iter()
        .enumerate()
        .filter(|&(i, &(action, _))| !replies[..i].iter().any(|&(earlier, _)| earlier == action))
        .map(|(_, &(action, _))| action)
}

/// Adds `bonus` to the weights (the priors of `action`'s child's children) of the replies
/// `replies` advise after `action`, each found by `index_of` among those children, where the
/// weight is above 0 (a move its own examination proved lost, or an inferior one, stays out).
/// Returns whether any was raised.
pub(crate) fn raise_replies<A: Copy + PartialEq>(
    weights: &mut [f32],
    replies: &[(A, A)],
    action: A,
    bonus: f32,
    index_of: impl Fn(A) -> Option<usize>,
) -> bool {
    let mut raised = false;
    for &(_, reply) in replies.iter().filter(|&&(a, _)| a == action) {
        if let Some(j) = index_of(reply)
            && weights[j] > 0.0
        {
            weights[j] += bonus;
            raised = true;
        }
    }
    raised
}

/// The priors `weights` (one per move) again after [`Prior::examine`](game_core::Prior::examine)
/// gave `verdicts` for the same moves: a losing move weighs 0, and when some move wins, every
/// move that does not. When that leaves no weight at all (the prior had given 0 to every
/// move still in, as Hex's does to the cells its fill-in colours, which its connections may
/// need), each move still in weighs 1: a verdict outranks the prior. Returns `false` (and
/// leaves `weights` as they were) when the verdicts are not one per move or are all alike,
/// which is left to the search: every move lost, against a fallible opponent the move that
/// resists best is still worth finding (a proven loss would play any); every move won, the
/// search still picks a good one (a proven win would play any, and leave the rest to the next
/// move's knowledge; Hex calls only the moves that close its connection wins then). Neither
/// proof is needed, as the parent, examined first, has seen the move into this node decide.
pub(crate) fn weigh_verdicts(weights: &mut [f32], verdicts: &[Verdict]) -> bool {
    let alike = |verdict| verdicts.iter().all(|&v| v == verdict);
    if verdicts.len() != weights.len()
        || alike(Verdict::Unknown)
        || alike(Verdict::Loss)
        || alike(Verdict::Win)
    {
        return false;
    }
    let any_win = verdicts.contains(&Verdict::Win);
    let out = |verdict| verdict == Verdict::Loss || (any_win && verdict != Verdict::Win);
    for (weight, &verdict) in weights.iter_mut().zip(verdicts) {
        if out(verdict) {
            *weight = 0.0;
        }
    }
    if weights.iter().all(|&w| w <= 0.0) {
        for (weight, &verdict) in weights.iter_mut().zip(verdicts) {
            *weight = if out(verdict) { 0.0 } else { 1.0 };
        }
    }
    true
}

/// What `verdicts` on the `moves` moves of a position prove about the node it is, for the
/// player who moved into it: a loss when a move wins, a win when every move loses, open
/// otherwise (also when there is not one verdict a move).
pub(crate) fn decided_by(verdicts: &[Verdict], moves: usize) -> Proof {
    if verdicts.len() != moves {
        Proof::Open
    } else if verdicts.contains(&Verdict::Win) {
        Proof::Loss
    } else if !verdicts.is_empty() && verdicts.iter().all(|&v| v == Verdict::Loss) {
        Proof::Win
    } else {
        Proof::Open
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn verdicts_outrank_a_prior_that_weighs_every_move_left_at_0() {
        use game_core::Verdict::{Loss, Unknown, Win};
        // The winning moves take the whole prior, and keep it when the prior gave them none.
        let mut weights = [0.0, 0.5, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Win, Unknown, Win, Loss]
        ));
        assert_eq!(weights, [1.0, 0.0, 1.0, 0.0]);
        let mut weights = [3.0, 0.5, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Win, Unknown, Win, Loss]
        ));
        assert_eq!(weights, [3.0, 0.0, 0.0, 0.0]);
        // Without a win: the moves not lost, when the prior left them nothing.
        let mut weights = [0.0, 0.0, 2.0];
        assert!(super::weigh_verdicts(
            &mut weights,
            &[Unknown, Unknown, Loss]
        ));
        assert_eq!(weights, [1.0, 1.0, 0.0]);
        // Verdicts all alike are left to the search.
        let mut weights = [0.0, 0.0];
        assert!(!super::weigh_verdicts(&mut weights, &[Win, Win]));
        assert_eq!(weights, [0.0, 0.0]);
    }
}
