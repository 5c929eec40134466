//! Child choice on the one-threaded tree: which child of a node an iteration goes to, by
//! RAVE's selection (with a progressive bias), PUCT's (with the AMAF means blended in), or
//! UCB1's, untried children first; with the solver, an open child beside a proven draw. The
//! scoring loops themselves are in `select.rs` and `rave.rs`, shared with the lock-free tree.

use rand::RngExt;

use super::TreeSearch;
use super::node::{NodeId, Proof};
use super::select::{Bias, Puct, ln_visits, select, select_open, select_puct};

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    /// The place among the children of `node` (expanded) of the child the iteration goes to:
    /// an untried one if it is at `tried` or after (the caller tries it).
    #[expect(
        clippy::inline_always,
        reason = "written inside the descent before: on its own, in release builds' 16 code \
                  units, Connect Four's search took 6% more instructions (callgrind), 1.2% \
                  with it inlined; the bench profile (one unit, fat LTO) is within 0.6%"
    )]
    #[inline(always)]
    pub(crate) fn choose_child(&mut self, node: NodeId) -> usize {
        let c = self.config.exploration as f32;
        // The fields the rest needs, not a copy of the node (which would go to the stack).
        let current = &self.tree[node];
        let (visits, tried) = (current.visits, current.tried);
        let children = self.tree.children(current);
        let log_visits = ln_visits(visits);
        // The place of the child to go to; an untried one (at `tried` or after) is tried.
        // With RAVE and a prior, RAVE's selection with a progressive bias if there is one,
        // else PUCT's with the AMAF means blended in.
        let has_priors = self.tree.has_priors();
        let bias = self.config.bias().filter(|_| has_priors);
        let mut best = if let Some(rave) = &mut self.rave
            && (bias.is_some() || !has_priors)
        {
            // RAVE, over the tried and untried children alike.
            let bias = bias.map(|weight| Bias {
                priors: self.tree.priors(current),
                weight: weight as f32,
            });
            rave.select(&self.tree, node, c * log_visits.sqrt(), bias, &mut self.rng)
        } else if has_priors {
            // PUCT, over the tried and untried children alike.
            let puct = Puct {
                scale: self.config.puct as f32 * (visits as f32).sqrt(),
                fpu: self.config.fpu as f32,
            };
            let priors = self.tree.priors(current);
            select_puct(
                children,
                priors,
                usize::from(tried),
                puct,
                self.rave
                    .as_ref()
                    .map(|rave| rave.puct_view(&self.tree, node)),
                true,
                &mut self.scores,
            )
        } else if !current.fully_tried() {
            // UCT: the untried children first, in a random order: one random number a
            // try (untried children have no statistics and no children, so trying one
            // moves nothing else), instead of a shuffle when the node is expanded.
            usize::from(tried) + self.rng.random_range(0..usize::from(current.len - tried))
        } else {
            select(children, c, log_visits)
        };
        let tried = usize::from(tried);
        if self.config.prove && best < tried && children[best].proof == Proof::Draw {
            // A proven draw has nothing left to learn; while other children are open, the
            // iteration goes to one of those instead (else the proof of the node waits for
            // selection to explore moves that look worse than the draw): an untried one
            // first (the leading one), else the best open one by UCB1.
            if tried < children.len() {
                best = tried;
            } else if let Some(open) = select_open(children, c, log_visits) {
                best = open;
            }
        }
        best
    }
}
