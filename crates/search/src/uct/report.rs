//! What a UCT search concludes: the root action to play, and the [`Report`] of the search.

use std::time::Duration;

use crate::{ActionStats, Report};

use super::FinalChoice;
use super::solver::Proof;
use super::tree::{Node, NodeId, Tree};

impl<A: Copy> Tree<A> {
    /// The root child to play by `choice`: a proven win first, a proven loss last, then by the
    /// choice among the tried children; `None` when no child has been tried.
    pub(crate) fn final_choice(&self, choice: FinalChoice) -> Option<NodeId> {
        let root = &self[NodeId::ROOT];
        let children = self.tried_children(root);
        // With a proven draw at hand, an open child is only worth more if its mean says so
        // (the draw's visits stop growing once it is proven, so visits alone would not tell).
        let draw = children
            .iter()
            .filter(|n| n.proof == Proof::Draw)
            .map(|n| n.mean)
            .reduce(f32::max);
        let rank = |n: &Node<A>| match (n.proof, draw) {
            (Proof::Win, _) => 3,
            (Proof::Open, Some(d)) if n.mean > d => 2,
            (Proof::Draw, _) => 1,
            (Proof::Open, Some(_)) => 0,
            (Proof::Open, None) => 1,
            (Proof::Loss, _) => -1,
        };
        let key = |n: &Node<A>| {
            let (first, second) = match choice {
                FinalChoice::MostVisits => (f64::from(n.visits), n.mean()),
                FinalChoice::BestMean => (n.mean(), f64::from(n.visits)),
                FinalChoice::MostWins => (n.mean() * f64::from(n.visits), f64::from(n.visits)),
            };
            (rank(n), first, second)
        };
        (0..children.len())
            .max_by(|&a, &b| {
                let (ka, kb) = (key(&children[a]), key(&children[b]));
                ka.0.cmp(&kb.0)
                    .then(ka.1.total_cmp(&kb.1))
                    .then(ka.2.total_cmp(&kb.2))
            })
            .map(|i| root.first.offset(i))
    }

    /// The report of a search that chose `chosen` after `iterations` in `elapsed`: the root's
    /// children most visited first, and the most visited line.
    pub(crate) fn report(
        &self,
        chosen: Option<A>,
        iterations: u64,
        elapsed: Duration,
    ) -> Report<A> {
        let root = &self[NodeId::ROOT];
        let mut actions: Vec<ActionStats<A>> = self
            .children(root)
            .iter()
            .map(|n| ActionStats {
                action: n.action,
                visits: u64::from(n.visits),
                mean: n.mean(),
                proof: n.proof.wdl(),
            })
            .collect();
        actions.sort_by_key(|s| std::cmp::Reverse(s.visits));
        let mut principal_variation = Vec::new();
        let mut node = root;
        while let Some(best) = self
            .children(node)
            .iter()
            .filter(|n| n.visits > 0)
            .max_by_key(|n| n.visits)
        {
            principal_variation.push(best.action);
            node = best;
        }
        let mut report = Report::new(chosen, iterations, elapsed);
        report.root_visits = u64::from(root.visits);
        report.actions = actions;
        report.principal_variation = principal_variation;
        report.nodes = self.len();
        report.proof = self.root_proof();
        report
    }
}
