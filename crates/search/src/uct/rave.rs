//! RAVE (Gelly and Silver 2007) and GRAVE (Cazenave 2015): all-moves-as-first statistics
//! beside the tree, how selection reads them and how an iteration updates them.

use game_core::{Game, PlayedActions, Player};
use rand::{Rng, RngExt};

use super::RaveConfig;
use super::node::{Amaf, NodeId};
use super::select::{Bias, RaveWeights, select_rave};
use super::tree::Tree;

/// Everything RAVE and GRAVE keep besides the tree's AMAF statistics: the weights, GRAVE's
/// reference node, and the buffers of one selection. A [`Uct`](super::Uct) without RAVE has
/// none of it.
#[derive(Clone, Debug)]
pub(crate) struct Rave {
    weights: RaveWeights,
    /// GRAVE's threshold of visits for the reference node; `None` for plain RAVE.
    grave: Option<u32>,
    /// GRAVE: the closest node on the path with at least `grave` visits.
    reference: NodeId,
    /// GRAVE, below its reference: the reference's AMAF statistics of the moves of the
    /// children of the current node (with plain RAVE, or at the reference, selection reads the
    /// node's own statistics in the tree instead, and this is not used).
    view: Vec<Amaf>,
    /// Whether selection reads `view` (GRAVE below its reference).
    viewing: bool,
    /// Every this many selections, one reads no AMAF statistics (0: never).
    skip: u32,
    /// Selections left until the next that reads none.
    countdown: u32,
    /// Whether the current selection reads none: it reads `blank` instead.
    blind: bool,
    /// Empty statistics, as many as the largest node's children seen blind.
    blank: Vec<Amaf>,
    /// GRAVE: the reference node's AMAF statistics by action index, and the node they were
    /// built for.
    reference_amaf: Vec<Amaf>,
    reference_built: Option<NodeId>,
    /// The scores of one selection.
    scores: Vec<f32>,
}

impl Rave {
    /// RAVE (or GRAVE) with the settings `config`.
    pub(crate) fn new(config: RaveConfig) -> Self {
        let skip = config.skip.unwrap_or(0);
        Rave {
            weights: RaveWeights::new(config.k as f32),
            grave: config.grave,
            reference: NodeId::ROOT,
            view: Vec::new(),
            viewing: false,
            skip,
            countdown: skip,
            blind: false,
            blank: Vec::new(),
            reference_amaf: Vec::new(),
            reference_built: None,
            scores: Vec::new(),
        }
    }

    /// A new descent from the root.
    pub(crate) fn start(&mut self) {
        self.reference = NodeId::ROOT;
        self.reference_built = None;
    }

    /// The descent is at `node` (expanded) in `position`: GRAVE moves its reference there if
    /// it has enough visits, and below its reference gathers the reference's statistics of the
    /// same moves as the children of `node`, for selection to use instead of their own. Every
    /// `skip`-th time, the selection that follows reads no AMAF statistics at all (the
    /// children's own means only, as Fuego's and MoHex's `randomize_rave_frequency`: a move
    /// that AMAF underrates still has its own results heard).
    pub(crate) fn enter<G: Game>(&mut self, tree: &Tree<G::Action>, node: NodeId, position: &G) {
        self.viewing = false;
        self.blind = false;
        if self.skip > 0 {
            self.countdown -= 1;
            if self.countdown == 0 {
                self.countdown = self.skip;
                self.blind = true;
                let len = usize::from(tree[node].len);
                if self.blank.len() < len {
                    self.blank.resize(len, Amaf::default());
                }
            }
        }
        let Some(grave) = self.grave else {
            return;
        };
        let current = &tree[node];
        if current.visits >= grave {
            self.reference = node;
        }
        let Some(space) = position.action_space().filter(|_| self.reference != node) else {
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
        self.view.clear();
        self.view.extend(
            tree.amaf(current)
                .iter()
                .map(|child| self.reference_amaf[child.index as usize]),
        );
        self.viewing = true;
    }

    /// The AMAF statistics selection uses for the children of `node`, the node last
    /// [entered](Self::enter): their own, (GRAVE, below the reference) the reference's, or
    /// none (empty ones) when this selection is one of those that skip them.
    #[inline]
    fn stats<'a, A: Copy>(&'a self, tree: &'a Tree<A>, node: NodeId) -> &'a [Amaf] {
        if self.blind {
            &self.blank[..usize::from(tree[node].len)]
        } else if self.viewing {
            &self.view
        } else {
            tree.amaf(&tree[node])
        }
    }

    /// The AMAF statistics of the children of `node` (the node last [entered](Self::enter))
    /// and the weights, for PUCT's selection with RAVE.
    pub(crate) fn puct_view<'a, A: Copy>(
        &'a self,
        tree: &'a Tree<A>,
        node: NodeId,
    ) -> (&'a [Amaf], &'a RaveWeights) {
        (self.stats(tree, node), &self.weights)
    }

    /// The child of `node` (the node last [entered](Self::enter)) to go to, tried or not, with
    /// `scale` = `c sqrt(ln N)` and the progressive bias `bias` of a prior, if any: its place
    /// among the children (see [`select_rave`]). When it is an untried child of which AMAF
    /// knows nothing (and there is no bias), it is a random one of those.
    pub(crate) fn select<A: Copy, R: Rng + ?Sized>(
        &mut self,
        tree: &Tree<A>,
        node: NodeId,
        scale: f32,
        bias: Option<Bias<'_>>,
        rng: &mut R,
    ) -> usize {
        let current = &tree[node];
        let children = tree.children(current);
        let tried = usize::from(current.tried);
        let mut scores = std::mem::take(&mut self.scores);
        let stats = self.stats(tree, node);
        let weights = &self.weights;
        let mut best = select_rave(children, tried, stats, scale, weights, bias, &mut scores);
        if best >= tried && stats[best].visits == 0 && bias.is_none() {
            // Untried children no playout has told apart: a random one, as UCT tries them.
            let untried = children.len() - tried;
            let start = rng.random_range(0..untried);
            best = (0..untried)
                .map(|i| tried + (start + i) % untried)
                .find(|&i| stats[i].visits == 0)
                .unwrap_or(best);
        }
        self.scores = scores;
        best
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
            let reward = rewards[mover.index()] as f32;
            // Every child, without a branch: whether a child's move was played later is a
            // coin toss for the branch predictor, and a miss adds nothing. (A multiply: the
            // compiler turns `if hit { reward } else { 0.0 }` into a branch. The bit is read
            // from the words rather than by `PlayedActions::contains`, whose `bool` costs
            // about 4% of RAVE's iterations here.)
            let words = marked.words(mover);
            for entry in tree.amaf_mut(parent) {
                let i = entry.index as usize;
                let word = words.get(i / 64).copied().unwrap_or(0);
                let hit = (word >> (i % 64)) as u32 & 1;
                entry.visits += hit;
                entry.wins += reward * hit as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Amaf, Rave, RaveConfig, RaveWeights};
    use crate::uct::node::NodeId;
    use crate::uct::tree::Tree;
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
                amaf.wins = 5.0 * mean;
                amaf.visits = 5;
            }
        }
        (game, tree, first)
    }

    /// The means, to three decimals.
    fn means(view: &[Amaf]) -> Vec<f32> {
        view.iter()
            .map(|a| (a.mean() * 1000.0).round() / 1000.0)
            .collect()
    }

    #[test]
    fn grave_reads_the_closest_node_with_enough_visits() {
        // The child has 10 visits, under GRAVE's 50: it borrows the root's statistics for the
        // same moves.
        let (game, tree, child) = built(100, 10);
        let mut rave = Rave::new(RaveConfig::GRAVE);
        rave.start();
        rave.enter(&tree, NodeId::ROOT, &game);
        assert_eq!(means(rave.stats(&tree, NodeId::ROOT)), [0.3, 0.8]);
        let position = game.after(tree[child].action);
        rave.enter(&tree, child, &position);
        assert_eq!(rave.reference, NodeId::ROOT);
        assert_eq!(means(rave.stats(&tree, child)), [0.3, 0.8]);

        // With 60 visits the child is its own reference.
        let (game, tree, child) = built(100, 60);
        rave.start();
        rave.enter(&tree, NodeId::ROOT, &game);
        rave.enter(&tree, child, &game.after(tree[child].action));
        assert_eq!(rave.reference, child);
        assert_eq!(means(rave.stats(&tree, child)), [0.1, 0.2]);

        // Plain RAVE always reads a node's own statistics.
        let (game, tree, child) = built(100, 10);
        let mut plain = Rave::new(RaveConfig::RAVE);
        plain.start();
        plain.enter(&tree, NodeId::ROOT, &game);
        plain.enter(&tree, child, &game.after(tree[child].action));
        assert_eq!(means(plain.stats(&tree, child)), [0.1, 0.2]);
    }

    #[test]
    fn an_untried_move_is_chosen_by_its_amaf_mean_and_at_random_when_it_has_none() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let (game, mut tree, _) = built(100, 10);
        let mut rave = Rave::new(RaveConfig::RAVE);
        // Neither child tried: the one with the better AMAF mean (0.8, the second).
        rave.start();
        rave.enter(&tree, NodeId::ROOT, &game);
        assert_eq!(rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng), 1);
        // The first tried, with a mean of 0.5: with no exploration, the untried second child
        // is chosen while its AMAF mean (0.8) beats the first's blend, and never once it is
        // worse (0.1), as plain UCT would have to.
        tree.try_child_at(NodeId::ROOT, 0);
        let first = tree[NodeId::ROOT].first;
        tree[first].record(0.5);
        assert_eq!(rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng), 1);
        tree.amaf_mut(NodeId::ROOT)[1].wins = 0.5;
        assert_eq!(rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng), 0);
        // Untried children that AMAF knows nothing of come first, in a random order.
        let (game, mut tree, _) = built(100, 10);
        for amaf in tree.amaf_mut(NodeId::ROOT) {
            *amaf = Amaf {
                index: amaf.index,
                ..Amaf::default()
            };
        }
        rave.enter(&tree, NodeId::ROOT, &game);
        let mut seen = [0; 2];
        for _ in 0..100 {
            seen[rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
    }

    #[test]
    fn every_skip_th_selection_reads_the_childrens_own_means_only() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        // AMAF prefers the second child (0.8 against 0.3), their own results the first (one
        // playout each: 0.9 against 0.2).
        let (game, mut tree, _) = built(100, 0);
        for (place, result) in [(0, 0.9), (1, 0.2)] {
            // (Trying the child at `place` keeps the order: the tried ones stay first.)
            let child = tree.try_child_at(NodeId::ROOT, place);
            tree[child].record(result);
        }
        let mut rave = Rave::new(RaveConfig {
            skip: Some(3),
            ..RaveConfig::RAVE
        });
        rave.start();
        let mut chosen = Vec::new();
        for _ in 0..6 {
            rave.enter(&tree, NodeId::ROOT, &game);
            chosen.push(rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng));
        }
        assert_eq!(chosen, [1, 1, 0, 1, 1, 0]);
        // Without skipping, AMAF's choice every time.
        let mut rave = Rave::new(RaveConfig::RAVE);
        for _ in 0..6 {
            rave.enter(&tree, NodeId::ROOT, &game);
            assert_eq!(rave.select(&tree, NodeId::ROOT, 0.0, None, &mut rng), 1);
        }
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
