//! [`BookAgent`]: the game's opening book first, a search after it.

use std::time::Instant;

use game_core::{Game, knowledge::Prior};

use crate::{Agent, Budget, Report};

/// Plays the move of the game's opening book ([`Prior::opening`]) wherever the book has the
/// position, at once, and lets the search (any agent) choose everywhere else.
///
/// Every move played is passed on to the search ([`Agent::played`]), so that a search that
/// keeps its tree from move to move keeps it through the book's moves too. The report of a
/// book move says so ([`Report::book`]) and counts no iterations. UCT's specs build this with
/// `book=true`.
///
/// ```
/// use game_core::{Game, testing::{Cell, TicTacToe}, knowledge::Prior};
/// use search::{Agent, BookAgent, Budget, Random};
///
/// /// Knows one move: the centre of the empty board.
/// #[derive(Clone)]
/// struct Centre;
/// impl Prior<TicTacToe> for Centre {
///     fn weigh(&self, _: &TicTacToe, actions: &[Cell], weights: &mut Vec<f32>) {
///         weights.extend(actions.iter().map(|_| 1.0));
///     }
///     fn opening(&self, position: &TicTacToe) -> Option<Cell> {
///         (position.legal_actions_vec().len() == 9).then(|| "b2".parse().unwrap())
///     }
/// }
/// let mut agent = BookAgent::new(Centre, Box::new(Random::new(1)));
/// let start = TicTacToe::new();
/// assert_eq!(agent.choose(&start, &Budget::iterations(10)), Some("b2".parse()?));
/// assert!(agent.report().unwrap().book);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BookAgent<G: Game, P> {
    book: P,
    search: Box<dyn Agent<G> + Send>,
    /// The report of the last move, when the book played it.
    report: Option<Report<G::Action>>,
}

impl<G: Game, P> std::fmt::Debug for BookAgent<G, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookAgent")
            .field("from_book", &self.report.is_some())
            .finish_non_exhaustive()
    }
}

impl<G: Game, P: Prior<G>> BookAgent<G, P> {
    /// An agent that plays `book`'s opening moves, and `search`'s elsewhere.
    #[must_use]
    pub fn new(book: P, search: Box<dyn Agent<G> + Send>) -> Self {
        BookAgent {
            book,
            search,
            report: None,
        }
    }
}

impl<G: Game, P: Prior<G>> Agent<G> for BookAgent<G, P> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        let started = Instant::now();
        self.report = None;
        if position.status().is_over() {
            return None;
        }
        match self.book.opening(position) {
            Some(action) if position.is_legal(action) => {
                let mut report = Report::new(Some(action), 0, started.elapsed());
                report.book = true;
                self.report = Some(report);
                Some(action)
            }
            _ => self.search.choose(position, budget),
        }
    }

    fn played(&mut self, position: &G, action: G::Action) {
        self.search.played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref().or_else(|| self.search.report())
    }
}

#[cfg(test)]
mod tests {
    use game_core::testing::{Cell, TicTacToe};

    use super::*;
    use crate::Uct;

    /// A book with a wrong move in it, and a good one.
    #[derive(Clone)]
    struct Book;

    impl Prior<TicTacToe> for Book {
        fn weigh(&self, _: &TicTacToe, actions: &[Cell], weights: &mut Vec<f32>) {
            weights.extend(actions.iter().map(|_| 1.0));
        }

        fn opening(&self, position: &TicTacToe) -> Option<Cell> {
            match position.legal_actions_vec().len() {
                9 => Some("a1".parse().unwrap()),
                // Occupied after a1: the book is wrong, the search plays.
                8 => Some("a1".parse().unwrap()),
                _ => None,
            }
        }
    }

    #[test]
    fn the_book_plays_its_legal_moves_and_the_search_the_rest() {
        let mut agent = BookAgent::new(Book, Box::new(Uct::<TicTacToe>::new(1)));
        let budget = Budget::iterations(500);
        let mut position = TicTacToe::new();
        let first = agent.choose(&position, &budget).unwrap();
        assert_eq!(first.to_string(), "a1");
        assert!(agent.report().unwrap().book);
        assert_eq!(agent.report().unwrap().iterations, 0);
        agent.played(&position, first);
        position.play(first);
        let second = agent.choose(&position, &budget).unwrap();
        assert_ne!(second.to_string(), "a1");
        let report = agent.report().unwrap();
        assert!(!report.book);
        assert!(report.iterations > 0);
        // A finished game has no move, book or not.
        let over: TicTacToe = "xxx / oo. / ...".parse().unwrap();
        assert_eq!(agent.choose(&over, &budget), None);
    }
}
