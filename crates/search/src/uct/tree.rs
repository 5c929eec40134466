//! The UCT tree: one arena of nodes, children stored contiguously, addressed by [`NodeId`].

use std::ops::{Index, IndexMut, Range};

use game_core::Game;

use super::node::{Amaf, Node, NodeId, PRUNED};

/// The arena, and a spare one that tree reuse compacts into. With RAVE, `amaf[i]` belongs to
/// `nodes[i]` and moves with it; with a prior, so does `priors[i]` (the node's prior
/// probability among its siblings); without, they stay empty.
#[derive(Clone, Debug)]
pub(crate) struct Tree<A> {
    nodes: Vec<Node<A>>,
    spare: Vec<Node<A>>,
    amaf: Column<Amaf>,
    priors: Column<f32>,
}

impl<A> Index<NodeId> for Tree<A> {
    type Output = Node<A>;

    #[inline]
    fn index(&self, id: NodeId) -> &Node<A> {
        &self.nodes[id.index()]
    }
}

impl<A> IndexMut<NodeId> for Tree<A> {
    #[inline]
    fn index_mut(&mut self, id: NodeId) -> &mut Node<A> {
        &mut self.nodes[id.index()]
    }
}

/// Values kept beside the nodes, `values[i]` belonging to node `i` and moving with it (RAVE's
/// statistics, the priors); empty and untouched when off.
#[derive(Clone, Debug)]
struct Column<T> {
    on: bool,
    values: Vec<T>,
    /// The arena tree reuse compacts into.
    spare: Vec<T>,
}

impl<T: Copy> Column<T> {
    fn new(on: bool) -> Self {
        Column {
            on,
            values: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Only the root's value.
    fn reset(&mut self, root: T) {
        if self.on {
            self.values.clear();
            self.values.push(root);
        }
    }

    /// The values of new nodes, appended.
    #[inline]
    fn extend(&mut self, values: impl Iterator<Item = T>) {
        if self.on {
            self.values.extend(values);
        }
    }

    /// The values of the nodes at `a` and `b`, exchanged with them.
    #[inline]
    fn swap(&mut self, a: usize, b: usize) {
        if self.on {
            self.values.swap(a, b);
        }
    }

    /// The values of the blocks `moved` of the old arena, in order: the new arena of
    /// [`Tree::retain`].
    fn compact(&mut self, moved: &[Range<usize>]) {
        if !self.on {
            return;
        }
        let old = std::mem::take(&mut self.values);
        let mut new = std::mem::take(&mut self.spare);
        new.clear();
        for block in moved {
            new.extend_from_slice(&old[block.clone()]);
        }
        self.values = new;
        self.spare = old;
    }
}

/// Writes the actions of a node's children, as `legal_actions` lists them, into the nodes
/// already in place for them (the iterator is at the first one not yet written).
struct Children<'a, A>(std::slice::IterMut<'a, Node<A>>);

impl<A> Extend<A> for Children<'_, A> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        // The actions first: `zip` takes an item from its first iterator before it learns
        // that the second is empty, and no node may be skipped between two calls.
        for (action, node) in iter.into_iter().zip(&mut self.0) {
            node.action = action;
        }
    }
}

/// Keeps the first action `legal_actions` lists: a fresh root's placeholder action.
struct First<A>(Option<A>);

impl<A> Extend<A> for First<A> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        if self.0.is_none() {
            self.0 = iter.into_iter().next();
        }
    }
}

impl<A: Copy> Tree<A> {
    /// An empty tree, without a root until [`reset`](Self::reset); with AMAF statistics for
    /// RAVE when `rave`, with priors when `prior`.
    pub(crate) fn new(rave: bool, prior: bool) -> Self {
        Tree {
            nodes: Vec::new(),
            spare: Vec::new(),
            amaf: Column::new(rave),
            priors: Column::new(prior),
        }
    }

    /// Whether the nodes have priors.
    #[inline]
    pub(crate) fn has_priors(&self) -> bool {
        self.priors.on
    }

    /// The prior probabilities of the children of `node` (with a prior only).
    #[inline]
    pub(crate) fn priors(&self, node: &Node<A>) -> &[f32] {
        &self.priors.values[node.children()]
    }

    /// The prior probabilities of the children of `id`, to write (with a prior only).
    pub(crate) fn priors_mut(&mut self, id: NodeId) -> &mut [f32] {
        let children = self[id].children();
        &mut self.priors.values[children]
    }

    /// Back to only a root for `position` (an ongoing game), keeping the memory.
    pub(crate) fn reset<G: Game<Action = A>>(&mut self, position: &G) {
        let mut first = First(None);
        position.legal_actions(&mut first);
        let placeholder = first.0.expect("a search starts from an ongoing game");
        self.nodes.clear();
        self.nodes.push(Node::new(placeholder));
        self.amaf.reset(Amaf::default());
        self.priors.reset(1.0);
    }

    /// The children of `node`, as a slice of nodes.
    #[inline]
    pub(crate) fn children(&self, node: &Node<A>) -> &[Node<A>] {
        &self.nodes[node.children()]
    }

    /// The children of `node` that have been tried.
    #[inline]
    pub(crate) fn tried_children(&self, node: &Node<A>) -> &[Node<A>] {
        &self.nodes[node.tried_children()]
    }

    /// The AMAF statistics of the children of `node` (RAVE only).
    #[inline]
    pub(crate) fn amaf(&self, node: &Node<A>) -> &[Amaf] {
        &self.amaf.values[node.children()]
    }

    /// The AMAF statistics of the children of `node`, to update (RAVE only).
    #[inline]
    pub(crate) fn amaf_mut(&mut self, id: NodeId) -> &mut [Amaf] {
        let children = self[id].children();
        &mut self.amaf.values[children]
    }

    /// Gives `id` a child for every legal action of `position`, if the arena has room for them
    /// under `cap`; returns whether it did.
    pub(crate) fn expand<G>(&mut self, id: NodeId, position: &G, cap: usize) -> bool
    where
        G: Game<Action = A>,
    {
        let n = position.num_legal_actions();
        let first = self.nodes.len();
        if n == 0 || first + n > cap || n > usize::from(u16::MAX) || first + n > u32::MAX as usize {
            return false;
        }
        // The children in place first, then their actions: a plain fill of whole nodes, and
        // the second pass writes to cache lines the first has just brought in (on 11x11 Hex,
        // 1.1x the iterations per second of pushing the nodes one action at a time).
        let placeholder = self[id].action;
        self.nodes.resize(first + n, Node::new(placeholder));
        let mut children = Children(self.nodes[first..].iter_mut());
        position.legal_actions(&mut children);
        debug_assert!(children.0.len() == 0, "as many legal actions as counted");
        self.amaf.extend(self.nodes[first..].iter().map(|node| {
            let index = position.action_index(node.action);
            Amaf {
                index: u32::try_from(index).unwrap_or(u32::MAX),
                ..Amaf::default()
            }
        }));
        self.priors.extend(std::iter::repeat_n(0.0, n));
        let node = &mut self[id];
        node.first = NodeId(first as u32);
        node.len = n as u16;
        true
    }

    /// Marks the untried child of `id` at place `offset` among its children as tried and
    /// returns it (its place changes: the tried children stay first).
    pub(crate) fn try_child_at(&mut self, id: NodeId, offset: usize) -> NodeId {
        let pick = self[id].first.index() + offset;
        self.take_child(id, pick)
    }

    /// Moves child `pick` (untried) of `id` to the front of the untried ones and marks it tried.
    fn take_child(&mut self, id: NodeId, pick: usize) -> NodeId {
        let node = self[id];
        let next = node.first.index() + usize::from(node.tried);
        self.nodes.swap(next, pick);
        self.amaf.swap(next, pick);
        self.priors.swap(next, pick);
        self[id].tried += 1;
        NodeId(next as u32)
    }

    /// Puts the untried child of `id` with the largest prior (the first of equal ones) at the
    /// front of the untried ones, where PUCT without RAVE looks for it
    /// ([`select_puct`](super::select::select_puct) with `leading`): every change to a node's
    /// priors or to which of its children are tried ends with this. Untried children have no
    /// statistics and no children, so the exchange moves nothing else.
    pub(crate) fn lead_untried(&mut self, id: NodeId) {
        let node = self[id];
        if !self.priors.on || node.fully_tried() {
            return;
        }
        let next = node.first.index() + usize::from(node.tried);
        let end = node.first.index() + usize::from(node.len);
        let priors = &self.priors.values[next..end];
        let mut best = 0;
        for (i, &p) in priors.iter().enumerate().skip(1) {
            if p > priors[best] {
                best = i;
            }
        }
        if best > 0 {
            self.nodes.swap(next, next + best);
            self.amaf.swap(next, next + best);
            self.priors.swap(next, next + best);
        }
    }

    /// Marks every child of `id` tried (they are all about to be played out).
    pub(crate) fn try_all_children(&mut self, id: NodeId) {
        let node = &mut self[id];
        node.tried = node.len;
    }

    /// The child of `id` reached by `action`, if `id` has been expanded.
    pub(crate) fn child(&self, id: NodeId, action: A) -> Option<NodeId>
    where
        A: PartialEq,
    {
        let node = &self[id];
        node.child_ids().find(|&c| self[c].action == action)
    }

    /// Makes `id` the root, keeping its subtree and dropping the rest. The kept nodes are
    /// copied, breadth first, into the spare arena, which becomes the tree; ids change.
    pub(crate) fn retain(&mut self, id: NodeId) {
        if id != NodeId::ROOT {
            self.copy_from(id, 0);
        }
    }

    /// Frees room in a full tree, as Fuego prunes its tree: the nodes below the root with
    /// the fewest visits lose their children (and the subtrees under them), so that at most
    /// `target` nodes are left; they become leaves that keep their own statistics and proof,
    /// and gain children again when a descent reaches them. Every node with at least the
    /// returned number of visits keeps its children (and the root always does). Ids change.
    pub(crate) fn prune(&mut self, target: usize) -> u32 {
        // A child never has more visits than its parent, so the nodes kept for a threshold
        // of 2^b visits are the root, its children and the children of every node with at
        // least 2^b visits: counted by the parents' visits, in powers of two.
        let mut children = [0usize; 33];
        for node in &self.nodes[1..] {
            if node.len > 0 {
                children[(node.visits.max(1).ilog2() + 1) as usize] += usize::from(node.len);
            }
        }
        let root = 1 + usize::from(self.nodes[0].len);
        let mut kept = root + children.iter().sum::<usize>();
        let mut bits = 0;
        while bits < 32 && kept > target {
            kept -= children[bits];
            bits += 1;
        }
        // Children kept for 2^(bits - 1) visits and more: bucket `b` holds 2^(b-1)..2^b.
        let min_visits = if bits == 0 {
            0
        } else {
            1u32 << (bits - 1).min(31)
        };
        let min_visits = min_visits.max(1);
        self.copy_from(NodeId::ROOT, min_visits);
        min_visits
    }

    /// Copies the subtree of `id`, breadth first, into the spare arena, which becomes the tree
    /// with `id` as its root; the children of a node below the root are copied when it has at
    /// least `min_visits` visits, else it becomes a leaf (marked [`PRUNED`]).
    fn copy_from(&mut self, id: NodeId, min_visits: u32) {
        let old = std::mem::take(&mut self.nodes);
        let mut new = std::mem::take(&mut self.spare);
        new.clear();
        new.push(old[id.index()]);
        // The blocks of the old arena copied, in order: what the columns copy too.
        let mut moved: Vec<Range<usize>> = std::iter::once(id.index()..id.index() + 1).collect();
        let mut i = 0;
        while i < new.len() {
            let node = new[i];
            if node.len > 0 {
                if i == 0 || node.visits >= min_visits {
                    let start = new.len();
                    new.extend_from_slice(&old[node.children()]);
                    moved.push(node.children());
                    new[i].first = NodeId(start as u32);
                } else {
                    let leaf = &mut new[i];
                    (leaf.first, leaf.len, leaf.tried) = (PRUNED, 0, 0);
                }
            }
            i += 1;
        }
        self.nodes = new;
        self.spare = old;
        self.amaf.compact(&moved);
        self.priors.compact(&moved);
    }

    /// How many nodes the tree holds.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::{PRUNED, Proof};
    use super::super::{Uct, UctConfig};
    use super::{NodeId, Tree};
    use game_core::testing::{TicTacToe, TreeGame};
    use game_core::{Game, WinDrawLoss};

    /// The books of every node: children inside the arena, the tried ones first and visited,
    /// no more visits below a node than through it; pruned leaves without children. Returns
    /// how many pruned leaves there are.
    fn check_books<A: Copy>(tree: &Tree<A>) -> usize {
        let mut pruned = 0;
        for (i, node) in tree.nodes.iter().enumerate() {
            if node.len == 0 {
                assert_eq!(node.tried, 0, "node {i}");
                pruned += usize::from(node.first == PRUNED);
                continue;
            }
            assert!(
                node.children().end <= tree.len() && node.first.index() > i,
                "node {i}"
            );
            assert!(node.tried <= node.len, "node {i}");
            let children = tree.children(node);
            let below: u64 = children.iter().map(|c| u64::from(c.visits)).sum();
            assert!(
                below <= u64::from(node.visits),
                "node {i}: {below} below {}",
                node.visits
            );
            let (tried, untried) = children.split_at(usize::from(node.tried));
            assert!(tried.iter().all(|c| c.visits > 0), "node {i}");
            assert!(
                untried.iter().all(|c| c.visits == 0 && c.len == 0),
                "node {i}"
            );
        }
        if tree.amaf.on {
            assert_eq!(tree.amaf.values.len(), tree.len());
        }
        if tree.priors.on {
            assert_eq!(tree.priors.values.len(), tree.len());
        }
        pruned
    }

    /// Tic-tac-toe with the tree capped at 2,000 nodes, RAVE and the solver on, pruning on or
    /// off, searching from the empty board until the root is proven (at most 300,000
    /// iterations; with pruning it takes about 130,000) and then, reusing the tree, after its move. Checks the cap and the root's
    /// iterations after every iteration, and the books after every pruning and every 1,024
    /// iterations; returns whether each root was proven a draw, and how many pruned leaves
    /// the checks saw.
    fn search_capped(prune: bool) -> ([bool; 2], usize) {
        let mut config = UctConfig {
            max_nodes: 2000,
            prove: true,
            prune,
            ..UctConfig::default()
        };
        config.rave = Some(super::super::RaveConfig::RAVE);
        let mut uct = Uct::<TicTacToe>::with_config(config, WinDrawLoss::default(), 3);
        let mut game = TicTacToe::new();
        let (mut proven, mut pruned) = ([false; 2], 0);
        for proof in &mut proven {
            uct.set_root(&game);
            let before = uct.search.tree[NodeId::ROOT].visits;
            let mut iterations = 0;
            while uct.search.tree[NodeId::ROOT].proof == Proof::Open && iterations < 300_000 {
                iterations += uct.search.iterate(&game, &mut uct.trace);
                let full = uct.search.full;
                uct.search.make_room();
                assert!(uct.search.tree.len() <= 2000);
                if full || iterations % 1024 == 0 {
                    pruned += check_books(&uct.search.tree);
                }
                assert_eq!(
                    u64::from(uct.search.tree[NodeId::ROOT].visits),
                    u64::from(before) + iterations
                );
            }
            // Tic-tac-toe is a draw, from the start and after a move of best play.
            *proof = uct.search.tree[NodeId::ROOT].proof == Proof::Draw;
            let best = uct
                .search
                .tree
                .final_choice(uct.search.config.final_choice)
                .unwrap();
            let action = uct.search.tree[best].action;
            uct.played.push(action);
            game.play(action);
        }
        (proven, pruned)
    }

    /// Pruning holds the cap and keeps the books, the root's iterations and the proofs: the
    /// capped tree proves the draw with it, and not without it (the tree stops growing).
    #[test]
    fn pruning_keeps_the_books_and_lets_a_capped_tree_prove_the_draw() {
        let (proven, pruned) = search_capped(true);
        assert_eq!(proven, [true, true]);
        assert!(pruned > 0, "the tree was never pruned");
        let (proven, pruned) = search_capped(false);
        assert_eq!((proven[0], pruned), (false, 0));
    }

    #[test]
    fn priors_move_with_their_nodes_when_the_tree_is_reused_and_tried() {
        let game: TreeGame = "((BW=)(WB))".parse().unwrap();
        let mut tree = Tree::new(false, true);
        tree.reset(&game);
        assert!(tree.expand(NodeId::ROOT, &game, 100));
        let first = tree[NodeId::ROOT].first;
        let after = game.after(tree[first].action);
        assert!(tree.expand(first, &after, 100));
        tree.priors_mut(first).copy_from_slice(&[0.5, 0.3, 0.2]);
        // Trying the third child moves it, and its prior, to the front.
        let tried = tree.try_child_at(first, 2);
        assert_eq!(tree.priors(&tree[first]), [0.2, 0.3, 0.5]);
        assert_eq!(tree[tried].action.to_string(), "c");
        // Reuse keeps the subtree with its priors.
        tree.retain(first);
        assert_eq!(tree.len(), 4);
        assert_eq!(tree.priors(&tree[NodeId::ROOT]), [0.2, 0.3, 0.5]);
        let actions: Vec<String> = tree
            .children(&tree[NodeId::ROOT])
            .iter()
            .map(|n| n.action.to_string())
            .collect();
        assert_eq!(actions, ["c", "b", "a"]);
    }
}
