//! The UCT tree: one arena of nodes, children stored contiguously, addressed by [`NodeId`].

use std::ops::{Index, IndexMut, Range};

use game_core::Game;

use super::node::{Amaf, Node, NodeId};

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
        if id == NodeId::ROOT {
            return;
        }
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
                let start = new.len();
                new.extend_from_slice(&old[node.children()]);
                moved.push(node.children());
                new[i].first = NodeId(start as u32);
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
    use super::{NodeId, Tree};
    use game_core::Game;
    use game_core::testing::TreeGame;

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
