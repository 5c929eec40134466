//! RAVE (Gelly and Silver 2007) and GRAVE (Cazenave 2015): all-moves-as-first statistics
//! beside the tree, how selection reads them and how an iteration updates them.

use game_core::{Game, PlayedActions, Player};
use rand::Rng;

use super::select::select_rave;
use super::tree::{Node, NodeId, Tree};

/// RAVE's statistics of a node's move: the mean result for its player of the iterations in
/// which that player played the move at this point or later.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Amaf {
    pub(crate) mean: f32,
    pub(crate) visits: u32,
    /// The node's action's [`Game::action_index`], kept so that the per-iteration update does
    /// not recompute it for every child.
    pub(crate) index: u32,
}

impl Amaf {
    #[inline]
    pub(crate) fn record(&mut self, reward: f64) {
        self.visits += 1;
        self.mean += (reward as f32 - self.mean) / self.visits as f32;
    }
}

/// RAVE's weight `β = sqrt(k / (3n + k))` of a child's AMAF mean, by the child's visits `n`:
/// from a table for the counts below 4096, else computed. The table holds the computed values,
/// so selection is the same either way; it saves a division and a square root per child.
#[derive(Clone, Debug)]
pub(crate) struct RaveWeights {
    k: f32,
    table: Vec<f32>,
}

impl RaveWeights {
    /// The weights for `k` (above 0).
    pub(crate) fn new(k: f32) -> Self {
        let table = (0..4096).map(|n| Self::compute(k, n)).collect();
        RaveWeights { k, table }
    }

    fn compute(k: f32, visits: u32) -> f32 {
        (k / (3.0 * visits as f32 + k)).sqrt()
    }

    #[inline]
    pub(crate) fn get(&self, visits: u32) -> f32 {
        match self.table.get(visits as usize) {
            Some(&beta) => beta,
            None => Self::compute(self.k, visits),
        }
    }
}

/// Everything RAVE and GRAVE keep besides the tree's AMAF statistics: the weights, GRAVE's
/// reference node, and the buffers of one selection and one update. A [`Uct`](super::Uct)
/// without RAVE has none of it.
#[derive(Clone, Debug)]
pub(crate) struct Rave {
    weights: RaveWeights,
    /// GRAVE's threshold of visits for the reference node; 0 for plain RAVE.
    grave: u32,
    /// GRAVE: the closest node on the path with at least `grave` visits.
    reference: NodeId,
    /// The AMAF statistics selection uses for the children of the current node.
    view: Vec<Amaf>,
    /// GRAVE: the reference node's AMAF statistics by action index, and the node they were
    /// built for.
    reference_amaf: Vec<Amaf>,
    reference_built: Option<NodeId>,
    /// The scores of one selection.
    scores: Vec<f32>,
    /// The children whose AMAF statistics an iteration updates at one node.
    hits: Vec<u32>,
}

impl Rave {
    /// RAVE with equivalence parameter `k` (above 0), and GRAVE's threshold `grave` (0 for
    /// plain RAVE).
    pub(crate) fn new(k: f32, grave: u32) -> Self {
        Rave {
            weights: RaveWeights::new(k),
            grave,
            reference: NodeId::ROOT,
            view: Vec::new(),
            reference_amaf: Vec::new(),
            reference_built: None,
            scores: Vec::new(),
            hits: Vec::new(),
        }
    }

    /// A new descent from the root.
    pub(crate) fn start(&mut self) {
        self.reference = NodeId::ROOT;
        self.reference_built = None;
    }

    /// The descent is at `node` (expanded) in `position`: GRAVE moves its reference there if
    /// it has enough visits, and the statistics selection will use for the children of `node`
    /// are gathered: their own with RAVE (or when the reference is `node`), else (GRAVE) those
    /// of the same moves at the reference node.
    pub(crate) fn enter<G: Game>(&mut self, tree: &Tree<G::Action>, node: NodeId, position: &G) {
        let current = &tree[node];
        if self.grave > 0 && current.visits >= self.grave {
            self.reference = node;
        }
        self.view.clear();
        let space = position.action_space();
        let Some(space) = space.filter(|_| self.reference != node && self.grave > 0) else {
            self.view.extend_from_slice(tree.amaf(current));
            return;
        };
        if self.reference_built != Some(self.reference) {
            self.reference_amaf.clear();
            self.reference_amaf.resize(space, Amaf::default());
            for amaf in tree.amaf(&tree[self.reference]) {
                self.reference_amaf[amaf.index as usize] = *amaf;
            }
            self.reference_built = Some(self.reference);
        }
        for child in tree.amaf(current) {
            self.view.push(self.reference_amaf[child.index as usize]);
        }
    }

    /// The untried child of `node` to try: the best by the AMAF statistics of
    /// [`enter`](Self::enter), a random one when none has any.
    pub(crate) fn try_child<A: Copy, R: Rng + ?Sized>(
        &self,
        tree: &mut Tree<A>,
        node: NodeId,
        rng: &mut R,
    ) -> NodeId {
        tree.try_best_amaf_child(node, &self.view, rng)
    }

    /// The AMAF statistics of the children of the node last [entered](Self::enter), and the
    /// weights, for PUCT's selection with RAVE.
    pub(crate) fn puct_view(&self) -> (&[Amaf], &RaveWeights) {
        (&self.view, &self.weights)
    }

    /// The tried child to go to among `children` (of the node last [entered](Self::enter)),
    /// with `scale` = `c sqrt(ln N)`.
    pub(crate) fn select<A>(&mut self, children: &[Node<A>], scale: f32) -> usize {
        select_rave(children, &self.view, scale, &self.weights, &mut self.scores)
    }

    /// RAVE's backpropagation: from the end of `path` up, each node's children whose move the
    /// player choosing there played later in this iteration (in the path below or in the
    /// playout, whose marks are in `marked`) count the iteration's result for that player.
    /// The path's own moves are added to `marked` on the way up.
    pub(crate) fn update<G: Game>(
        &mut self,
        tree: &mut Tree<G::Action>,
        path: &[(NodeId, Player)],
        marked: &mut PlayedActions,
        position: &G,
        rewards: [f64; 2],
    ) {
        if position.action_space().is_none() {
            return;
        }
        for k in (0..path.len()).rev() {
            let (id, mover) = path[k];
            marked.insert(mover, position.action_index(tree[id].action));
            let parent = if k == 0 { NodeId::ROOT } else { path[k - 1].0 };
            let reward = rewards[mover.index()];
            let amaf = tree.amaf_mut(parent);
            // First the children to update, listed without a branch (whether a child's move
            // was played later is a coin toss for the branch predictor), then their updates.
            let hits = &mut self.hits;
            hits.resize(amaf.len(), 0);
            let mut count = 0;
            for (c, entry) in amaf.iter().enumerate() {
                hits[count] = c as u32;
                count += usize::from(marked.contains(mover, entry.index as usize));
            }
            for &c in &hits[..count] {
                amaf[c as usize].record(reward);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Amaf, Rave, RaveWeights};
    use crate::uct::tree::{NodeId, Tree};
    use game_core::Game;
    use game_core::testing::TreeGame;

    /// `((BW)(BW))` with the root and its first child expanded, the root seen `root` times and
    /// its first child `child` times; the AMAF means of the root's children are 0.3 (move a)
    /// and 0.8 (move b), those of the first child's 0.1 and 0.2.
    fn built(root: u32, child: u32) -> (TreeGame, Tree<game_core::testing::Branch>, NodeId) {
        let game: TreeGame = "((BW)(BW))".parse().unwrap();
        let mut tree = Tree::new(true, false);
        tree.reset(&game);
        assert!(tree.expand(NodeId::ROOT, &game, 100));
        let first = tree[NodeId::ROOT].first;
        let a = game.after(tree[first].action);
        assert!(tree.expand(first, &a, 100));
        tree[NodeId::ROOT].visits = root;
        tree[first].visits = child;
        for (id, means) in [(NodeId::ROOT, [0.3, 0.8]), (first, [0.1, 0.2])] {
            for (amaf, mean) in tree.amaf_mut(id).iter_mut().zip(means) {
                amaf.mean = mean;
                amaf.visits = 5;
            }
        }
        (game, tree, first)
    }

    fn means(view: &[Amaf]) -> Vec<f32> {
        view.iter().map(|a| a.mean).collect()
    }

    #[test]
    fn grave_reads_the_closest_node_with_enough_visits() {
        // The child has 10 visits, under GRAVE's 50: it borrows the root's statistics for the
        // same moves.
        let (game, tree, child) = built(100, 10);
        let mut rave = Rave::new(300.0, 50);
        rave.start();
        rave.enter(&tree, NodeId::ROOT, &game);
        assert_eq!(means(&rave.view), [0.3, 0.8]);
        let position = game.after(tree[child].action);
        rave.enter(&tree, child, &position);
        assert_eq!(rave.reference, NodeId::ROOT);
        assert_eq!(means(&rave.view), [0.3, 0.8]);

        // With 60 visits the child is its own reference.
        let (game, tree, child) = built(100, 60);
        rave.start();
        rave.enter(&tree, NodeId::ROOT, &game);
        rave.enter(&tree, child, &game.after(tree[child].action));
        assert_eq!(rave.reference, child);
        assert_eq!(means(&rave.view), [0.1, 0.2]);

        // Plain RAVE always reads a node's own statistics.
        let (game, tree, child) = built(100, 10);
        let mut plain = Rave::new(300.0, 0);
        plain.start();
        plain.enter(&tree, NodeId::ROOT, &game);
        plain.enter(&tree, child, &game.after(tree[child].action));
        assert_eq!(means(&plain.view), [0.1, 0.2]);
    }

    #[test]
    fn the_rave_weight_table_gives_what_the_formula_gives() {
        let weights = RaveWeights::new(300.0);
        for n in (0..5000).chain([65_535, u32::MAX]) {
            let formula = (300.0f32 / (3.0 * n as f32 + 300.0)).sqrt();
            assert_eq!(weights.get(n).to_bits(), formula.to_bits(), "n = {n}");
        }
    }
}
