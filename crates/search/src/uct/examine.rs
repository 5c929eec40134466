//! Examination: what the game's knowledge proves about a node's moves ([`Prior::examine`]),
//! and what the search does with it: the verdicts reweigh the priors (and, with the solver,
//! prove the children), the advised replies raise their children's priors. The decisions are
//! written once ([`examine`]) over what it needs of a tree ([`Examine`]), for the
//! one-threaded tree (here) and the lock-free one (`parallel/shared_tree.rs`).
//!
//! [`Prior::examine`]: game_core::knowledge::Prior::examine

use game_core::{
    Game, Outcome, Player, Reward,
    knowledge::{Examination, Guide, Verdict},
};

use super::node::{NodeId as Id, Nodes, Proof};
use super::solver::carry_proofs;
use super::tree::Tree;
use super::{TreeSearch, UctConfig};

/// What the examination needs of a search: its tree's proofs ([`Nodes`]), the knowledge to
/// ask, its children's priors to read and write, and the two places where the trees differ
/// (the one-threaded tree reorders its untried children, the lock-free tree never moves a
/// published child). Implemented by the one-threaded search and by a thread of the lock-free
/// one, so that the examination is written once ([`examine`]).
pub(crate) trait Examine<G: Game> {
    /// A node of the tree.
    type Id: Copy;
    /// The tree, for its proofs.
    type Tree: Nodes<Id = Self::Id>;
    /// The tree, to read and to prove in.
    fn tree(&mut self) -> &mut Self::Tree;
    /// The settings.
    fn config(&self) -> &UctConfig;
    /// A draw's reward for `player` at `position`.
    fn draw(&self, position: &G, player: Player) -> f64;
    /// What the game's knowledge finds about the moves of `node`'s children at `position`:
    /// a verdict per child, in their order, and the advised replies. The examination's
    /// buffer, handed back by [`done`](Self::done).
    fn ask(&mut self, node: Self::Id, position: &G) -> Examination<G::Action>;
    /// Takes back the buffers of [`ask`](Self::ask) and of the weights, once done.
    fn done(&mut self, found: Examination<G::Action>, weights: Vec<f32>);
    /// The buffer for the weights, emptied.
    fn weights(&mut self) -> Vec<f32>;
    /// How many children `node` has.
    fn children(&self, node: Self::Id) -> usize;
    /// The priors of `node`'s children, appended to `out`.
    fn priors(&self, node: Self::Id, out: &mut Vec<f32>);
    /// Sets the priors of `node`'s children from `weights`, normalised
    /// ([`normalise_priors`](super::expand::normalise_priors)).
    fn set_priors(&mut self, node: Self::Id, weights: &[f32]);
    /// Without the solver: what the verdicts decide about `node` itself, marked in it.
    fn decide(&mut self, node: Self::Id, proof: Proof);
    /// With the solver: proves `node`'s children by their `verdicts` (a draw worth `draw` to
    /// the player who moves into them); the one-threaded tree first makes the decided untried
    /// children tried, reordering `verdicts` with them.
    fn prove_children(&mut self, node: Self::Id, verdicts: &mut [Verdict], draw: f64);
    /// After `node`'s children were given new priors (the one-threaded tree puts the untried
    /// child with the largest prior first).
    fn reweighed(&mut self, node: Self::Id);
    /// Whether the search follows advised replies at all (not while a batch evaluator gives
    /// the priors).
    fn follows_replies(&self) -> bool;
    /// The child of `node` that `action` leads to.
    fn child(&self, node: Self::Id, action: G::Action) -> Option<Self::Id>;
    /// Where `action` is among `node`'s children.
    fn index_of(&self, node: Self::Id, action: G::Action) -> Option<usize>;
    /// Whether `node` has its children.
    fn expanded(&self, node: Self::Id) -> bool;
    /// Gives `node` (at `position`, an ongoing game) its children if the tree has room (and,
    /// in the lock-free tree, no other thread is doing it); whether it did.
    fn expand(&mut self, node: Self::Id, position: &G) -> bool;
}

/// Asks the prior what is proven about the moves of `node` (expanded; at `position`, the end
/// of `path`, which is empty for the root): a losing move's prior becomes 0 and a winning move
/// takes the whole prior; with the solver, the decided children are proven and the proofs
/// carried up `path`. Nothing is done with verdicts that are all alike. Then, while `node` is
/// open, the replies it advises are favoured ([`favour_replies`]).
pub(crate) fn examine<G, S>(search: &mut S, node: S::Id, position: &G, path: &[(S::Id, Player)])
where
    G: Game,
    S: Examine<G>,
{
    let mut found = search.ask(node, position);
    let mut weights = search.weights();
    weigh_by_verdicts(
        search,
        node,
        position,
        path,
        &mut found.verdicts,
        &mut weights,
    );
    if !found.replies.is_empty()
        && search.follows_replies()
        && search.tree().proof(node) == Proof::Open
    {
        favour_replies(search, node, position, &found.replies, &mut weights);
    }
    search.done(found, weights);
}

/// What [`examine`] does with the `verdicts` on the moves of `node`.
fn weigh_by_verdicts<G, S>(
    search: &mut S,
    node: S::Id,
    position: &G,
    path: &[(S::Id, Player)],
    verdicts: &mut [Verdict],
    weights: &mut Vec<f32>,
) where
    G: Game,
    S: Examine<G>,
{
    let solver = search.config().prove;
    if !solver {
        // The verdicts decide the node itself when the player to move has a winning move or
        // every move loses. Without the solver the result is not carried up the path (the
        // parent goes on choosing by means, which against a fallible opponent finds the move
        // that resists best); it stands for the node's playouts instead, as a finished game's
        // would, so that its mean tends to the proven value. At the root it is what the report
        // proves (the search goes on choosing the move).
        let decided = decided_by(verdicts, search.children(node));
        search.decide(node, decided);
    }
    weights.clear();
    search.priors(node, weights);
    if !weigh_verdicts(weights, verdicts) {
        return;
    }
    search.set_priors(node, weights);
    if solver {
        let draw = search.draw(position, position.to_move());
        search.prove_children(node, verdicts, draw);
        let draws = Player::BOTH.map(|p| search.draw(position, p));
        carry_proofs(search.tree(), path, draws);
    }
    search.reweighed(node);
}

/// Follows the `replies` an examination of `node` (at `position`) advised: for each move with
/// replies, its child (expanded now if it was not, and the tree has room) gains
/// [`UctConfig::reply`] of prior on each advised reply whose prior is above 0 (a move its own
/// examination proved lost, or an inferior one, stays out), and the priors are normalised
/// again. Replies to unknown or decided moves, or not legal after them, are ignored.
fn favour_replies<G, S>(
    search: &mut S,
    node: S::Id,
    position: &G,
    replies: &[(G::Action, G::Action)],
    weights: &mut Vec<f32>,
) where
    G: Game,
    S: Examine<G>,
{
    let bonus = search.config().reply as f32;
    if bonus <= 0.0 {
        return;
    }
    for action in advised_moves(replies) {
        let Some(child) = search.child(node, action) else {
            continue;
        };
        if search.tree().proof(child) != Proof::Open {
            continue;
        }
        if !search.expanded(child) {
            let after = position.after(action);
            if after.status().is_over() || !search.expand(child, &after) {
                continue; // over, being expanded by another thread, or no room
            }
        }
        weights.clear();
        search.priors(child, weights);
        let index_of = |reply| search.index_of(child, reply);
        if raise_replies(weights, replies, action, bonus, index_of) {
            search.set_priors(child, weights);
            search.reweighed(child);
        }
    }
}

impl<G, R, K> Examine<G> for TreeSearch<G::Action, R, K>
where
    G: Game,
    R: Reward<G>,
    K: Guide<G>,
{
    type Id = Id;
    type Tree = Tree<G::Action>;

    fn tree(&mut self) -> &mut Tree<G::Action> {
        &mut self.tree
    }

    fn config(&self) -> &UctConfig {
        &self.config
    }

    fn draw(&self, position: &G, player: Player) -> f64 {
        self.reward.reward(position, Outcome::Draw, player)
    }

    fn ask(&mut self, node: Id, position: &G) -> Examination<G::Action> {
        self.load_actions(node);
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.knowledge.examine(position, &self.actions, &mut found);
        found
    }

    fn done(&mut self, found: Examination<G::Action>, weights: Vec<f32>) {
        self.found = found;
        self.weights = weights;
    }

    fn weights(&mut self) -> Vec<f32> {
        let mut weights = std::mem::take(&mut self.weights);
        weights.clear();
        weights
    }

    fn children(&self, node: Id) -> usize {
        usize::from(self.tree[node].len)
    }

    fn priors(&self, node: Id, out: &mut Vec<f32>) {
        out.extend_from_slice(self.tree.priors(&self.tree[node]));
    }

    fn set_priors(&mut self, node: Id, weights: &[f32]) {
        TreeSearch::set_priors(self, node, weights);
    }

    fn decide(&mut self, node: Id, proof: Proof) {
        self.tree[node].proof = proof;
    }

    fn prove_children(&mut self, node: Id, verdicts: &mut [Verdict], draw: f64) {
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
        for (offset, &verdict) in verdicts.iter().enumerate().take(next) {
            let proof = Proof::from(verdict);
            let child = &mut self.tree[first.offset(offset)];
            if proof != Proof::Open && child.proof == Proof::Open {
                child.prove(proof, draw);
            }
        }
    }

    fn reweighed(&mut self, node: Id) {
        self.tree.lead_untried(node);
    }

    fn follows_replies(&self) -> bool {
        !self.deferred
    }

    fn child(&self, node: Id, action: G::Action) -> Option<Id> {
        self.tree.child(node, action)
    }

    fn index_of(&self, node: Id, action: G::Action) -> Option<usize> {
        let children = self.tree.children(&self.tree[node]);
        children.iter().position(|c| c.action == action)
    }

    fn expanded(&self, node: Id) -> bool {
        self.tree[node].len > 0
    }

    fn expand(&mut self, node: Id, position: &G) -> bool {
        TreeSearch::expand(self, node, position)
    }
}

/// The moves an examination's `replies` advise answers to, each once (in the order of their
/// first pair).
fn advised_moves<A: Copy + PartialEq>(replies: &[(A, A)]) -> impl Iterator<Item = A> + '_ {
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
fn raise_replies<A: Copy + PartialEq>(
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

/// The priors `weights` (one per move) again after [`Prior::examine`](game_core::knowledge::Prior::examine)
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
fn weigh_verdicts(weights: &mut [f32], verdicts: &[Verdict]) -> bool {
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
fn decided_by(verdicts: &[Verdict], moves: usize) -> Proof {
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
        use game_core::knowledge::Verdict::{Loss, Unknown, Win};
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
