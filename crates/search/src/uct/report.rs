//! What a UCT search concludes: the root action to play, and the [`Report`] of the search.

use std::time::Duration;

use crate::{ActionStats, Report};

use super::FinalChoice;
use super::node::{Node, NodeId, Proof, Stats};
use super::tree::Tree;

/// The mean reward for the player who moved into `n` (`NaN` before the first visit; `+inf`
/// or `-inf` when proven won or lost).
fn mean<C: Stats>(n: &C) -> f64 {
    if n.n() == 0 && n.q().is_finite() {
        f64::NAN
    } else {
        f64::from(n.q())
    }
}

/// The place among the root's tried `children` of the one to play by `choice`: a proven win
/// first, a proven loss last, then by the choice; `None` when no child has been tried.
pub(crate) fn final_choice<C: Stats>(children: &[C], choice: FinalChoice) -> Option<usize> {
    // With a proven draw at hand, an open child is only worth more if its mean says so
    // (the draw's visits stop growing once it is proven, so visits alone would not tell).
    let draw = children
        .iter()
        .filter(|n| n.proven() == Proof::Draw)
        .map(Stats::q)
        .reduce(f32::max);
    let rank = |n: &C| match (n.proven(), draw) {
        (Proof::Win, _) => 3,
        (Proof::Open, Some(d)) if n.q() > d => 2,
        (Proof::Draw, _) => 1,
        (Proof::Open, Some(_)) => 0,
        (Proof::Open, None) => 1,
        (Proof::Loss, _) => -1,
    };
    let key = |n: &C| {
        let visits = f64::from(n.n());
        let (first, second) = match choice {
            FinalChoice::MostVisits => (visits, mean(n)),
            FinalChoice::BestMean => (mean(n), visits),
            FinalChoice::MostWins => (mean(n) * visits, visits),
        };
        (rank(n), first, second)
    };
    (0..children.len()).max_by(|&a, &b| {
        let (ka, kb) = (key(&children[a]), key(&children[b]));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then(ka.2.total_cmp(&kb.2))
    })
}

/// Whether the move to play by visits among the root's tried `children` is unsure: it is not
/// proven, and another child with at least half its visits has a better mean, so that more
/// search may change it (the "unstable" search of Huang, Coulom and Lin 2010; Fuego and
/// MoHex 2.0 ask only for a better mean, which a child with a few lucky visits often has).
pub(crate) fn unstable<C: Stats>(children: &[C]) -> bool {
    let Some(chosen) = final_choice(children, FinalChoice::MostVisits) else {
        return false;
    };
    let chosen = &children[chosen];
    chosen.proven() == Proof::Open
        && children
            .iter()
            .any(|c| 2 * u64::from(c.n()) >= u64::from(chosen.n()) && c.q() > chosen.q())
}

/// The report of a search from `root` that chose `chosen` after `iterations` in `elapsed`:
/// the root's children most visited first, the most visited line, the root's proof (the
/// caller adds the node count).
pub(crate) fn report_from<'a, A: Copy, N: Stats>(
    root: &'a N,
    children: impl Fn(&'a N) -> &'a [N],
    action: impl Fn(&N) -> A,
    chosen: Option<A>,
    iterations: u64,
    elapsed: Duration,
) -> Report<A> {
    let mut actions: Vec<ActionStats<A>> = children(root)
        .iter()
        .map(|n| ActionStats {
            action: action(n),
            visits: u64::from(n.n()),
            mean: mean(n),
            proof: n.proven().wdl(),
        })
        .collect();
    actions.sort_by_key(|s| std::cmp::Reverse(s.visits));
    let mut principal_variation = Vec::new();
    let mut node = root;
    while let Some(best) = children(node)
        .iter()
        .filter(|n| n.n() > 0)
        .max_by_key(|n| n.n())
    {
        principal_variation.push(action(best));
        node = best;
    }
    let mut report = Report::new(chosen, iterations, elapsed);
    report.root_visits = u64::from(root.n());
    report.actions = actions;
    report.principal_variation = principal_variation;
    // The root's proof is for the player who moved into it: the other side.
    report.proven = root
        .proven()
        .wdl()
        .map(|wdl| game_core::solve::Proven::new(wdl.flip()));
    report
}

impl<A: Copy> Tree<A> {
    /// The root child to play by `choice` (see [`final_choice`]).
    pub(crate) fn final_choice(&self, choice: FinalChoice) -> Option<NodeId> {
        let root = &self[NodeId::ROOT];
        final_choice(self.tried_children(root), choice).map(|i| root.first.offset(i))
    }

    /// Whether the root's move to play is unsure (see [`unstable`]).
    pub(crate) fn unstable(&self) -> bool {
        unstable(self.tried_children(&self[NodeId::ROOT]))
    }

    /// The report of a search that chose `chosen` after `iterations` in `elapsed` (see
    /// [`report_from`]).
    pub(crate) fn report(
        &self,
        chosen: Option<A>,
        iterations: u64,
        elapsed: Duration,
    ) -> Report<A> {
        let children = |node: &'_ Node<A>| self.children(node);
        let mut report = report_from(
            &self[NodeId::ROOT],
            children,
            |n| n.action,
            chosen,
            iterations,
            elapsed,
        );
        report.nodes = self.len();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child's statistics: visits, mean, proof.
    struct Child(u32, f32, Proof);

    impl Stats for Child {
        fn q(&self) -> f32 {
            self.1
        }
        fn inv_sqrt(&self) -> f32 {
            1.0 / (self.0 as f32).sqrt()
        }
        fn n(&self) -> u32 {
            self.0
        }
        fn proven(&self) -> Proof {
            self.2
        }
    }

    #[test]
    fn a_search_is_unstable_when_a_well_visited_rival_has_a_better_mean() {
        let open = |n, q| Child(n, q, Proof::Open);
        // The rival has half the visits of the move to play, and a better mean.
        assert!(unstable(&[open(100, 0.5), open(50, 0.6), open(10, 0.1)]));
        // Fewer than half: a few lucky visits do not count.
        assert!(!unstable(&[open(100, 0.5), open(49, 0.6), open(3, 1.0)]));
        // The most visited is also the best.
        assert!(!unstable(&[open(100, 0.6), open(90, 0.5)]));
        // A proven win is played whatever the means.
        let won = Child(10, f32::INFINITY, Proof::Win);
        assert!(!unstable(&[won, open(100, 0.9)]));
        // Nothing tried yet.
        assert!(!unstable::<Child>(&[]));
    }
}
