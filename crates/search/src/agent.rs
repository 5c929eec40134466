//! The agent interface every algorithm implements, and what a search reports.

use std::time::Duration;

use game_core::{Game, Wdl, solve::Proven};

use crate::Budget;

/// Something that plays a game: given a position and a budget, it chooses an action.
///
/// Every algorithm in this crate is an `Agent` for every [`Game`]. Tools that pick the
/// algorithm at run time hold a `Box<dyn Agent<G> + Send>` built from an
/// [`AgentSpec`](crate::AgentSpec); the search inside is compiled for the game, so the one
/// dynamic call per move costs nothing that matters.
///
/// Tell the agent every move that is played, its own and the opponent's, with
/// [`played`](Agent::played): agents that keep a search tree reuse the part that is still
/// relevant.
pub trait Agent<G: Game> {
    /// Chooses an action for the player to move in `position`, thinking within `budget`.
    /// `None` when the game is over. With a budget too small to search at all, an agent still
    /// answers (with a random legal action).
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action>;

    /// `action` was played in `position` (by anyone). The default ignores it.
    fn played(&mut self, position: &G, action: G::Action) {
        let _ = (position, action);
    }

    /// What the last search found, for analysis and tools; `None` for agents that do not search.
    fn report(&self) -> Option<&Report<G::Action>> {
        None
    }
}

impl<G: Game, T: Agent<G> + ?Sized> Agent<G> for Box<T> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        (**self).choose(position, budget)
    }

    fn played(&mut self, position: &G, action: G::Action) {
        (**self).played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        (**self).report()
    }
}

/// Statistics of one root action after a search.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct ActionStats<A> {
    /// The action.
    pub action: A,
    /// How many iterations went through it.
    pub visits: u64,
    /// Its mean reward for the player to move at the root (`NaN` when unvisited; `+inf` or
    /// `-inf` when the UCT solver proved it won or lost).
    pub mean: f64,
    /// The result proven for the player to move at the root if they play it (the UCT solver,
    /// and alpha-beta when its score is decisive); `None` when not proven.
    pub proof: Option<Wdl>,
}

/// What a search found: the statistics of the root's actions, the principal variation, and
/// how much work it did.
#[derive(Clone, PartialEq, Debug)]
pub struct Report<A> {
    /// The action chosen.
    pub chosen: Option<A>,
    /// Iterations (playouts) run by this search; for alpha-beta, positions visited; for the
    /// reference algorithms (minimax, NegaMax), positions evaluated at the depth limit.
    pub iterations: u64,
    /// Wall time of this search.
    pub elapsed: Duration,
    /// Visits of the root, including those kept from an earlier search by tree reuse.
    pub root_visits: u64,
    /// Each root action, most visited first.
    pub actions: Vec<ActionStats<A>>,
    /// The most visited line of play from the root, as far as the tree goes.
    pub principal_variation: Vec<A>,
    /// Nodes in the tree (0 for agents without a tree); for alpha-beta, positions searched.
    pub nodes: usize,
    /// For depth-limited search: the deepest depth completed (0 for Monte-Carlo agents).
    pub depth: u32,
    /// For depth-limited search: the value of the position for the player to move, in
    /// [`score`](crate::score) units.
    pub score: Option<i32>,
    /// The result proven for the player to move, when the search proved one: the UCT solver
    /// or a verdict of the game's knowledge (the result alone), alpha-beta when its score is a
    /// forced win or loss (the result), an exact solver (the result with the plies to the end
    /// and the margin where it counts them: the `solver` agent).
    pub proven: Option<Proven>,
    /// Whether the move came from the game's opening book ([`BookAgent`](crate::BookAgent)),
    /// without a search.
    pub book: bool,
    /// The threads the search ran on (1 for every agent but the parallel ones).
    pub threads: usize,
    /// Whether its threads shared one tree under a lock (tree parallelisation of the options
    /// the lock-free tree does not have: [`TreeParallel`](crate::TreeParallel)).
    pub locked: bool,
}

impl<A: Copy> Report<A> {
    /// The report of a search that chose `chosen` after `iterations` in `elapsed`; the other
    /// fields say nothing yet (no root statistics, the chosen action as the whole principal
    /// variation, no score or proof), for the search to fill in what it knows.
    ///
    /// ```
    /// use std::time::Duration;
    /// use search::Report;
    ///
    /// let mut report = Report::new(Some('a'), 100, Duration::from_millis(5));
    /// report.nodes = 42;
    /// assert_eq!(report.principal_variation, ['a']);
    /// assert_eq!(report.proven, None);
    /// ```
    #[must_use]
    pub fn new(chosen: Option<A>, iterations: u64, elapsed: Duration) -> Self {
        Report {
            chosen,
            iterations,
            elapsed,
            root_visits: 0,
            actions: Vec::new(),
            principal_variation: chosen.into_iter().collect(),
            nodes: 0,
            depth: 0,
            score: None,
            proven: None,
            book: false,
            threads: 1,
            locked: false,
        }
    }
}

impl<A> Report<A> {
    /// The mean reward of the chosen action, if it was visited.
    #[must_use]
    pub fn value(&self) -> Option<f64>
    where
        A: PartialEq,
    {
        let chosen = self.chosen.as_ref()?;
        self.actions
            .iter()
            .find(|s| &s.action == chosen)
            .map(|s| s.mean)
            .filter(|m| !m.is_nan())
    }
}
