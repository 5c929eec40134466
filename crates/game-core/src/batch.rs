//! Evaluation of many positions at once: a [`Batch`] of positions and a [`BatchEvaluator`] that
//! gives each a prior over its legal actions and a value, as a neural network does (AlphaZero's
//! policy and value heads) or an engine in another process.

use crate::{
    Evaluator, Game,
    knowledge::{Knowledge, Prior},
};

/// Positions to evaluate together, each with its legal actions, and the evaluator's answers: a
/// weight per action and a value per position.
///
/// A search fills the batch ([`push`](Batch::push)); a [`BatchEvaluator`] reads the positions
/// and actions and writes the answers ([`priors_mut`](Batch::priors_mut),
/// [`set_value`](Batch::set_value)). The buffers are kept between batches, so a search that
/// reuses its batch does not allocate once they have grown.
///
/// ```
/// use game_core::{Game, testing::TicTacToe, knowledge::Batch};
///
/// let mut batch = Batch::new();
/// let i = batch.push(TicTacToe::new());
/// assert_eq!(batch.actions(i).len(), 9);
/// batch.priors_mut(i)[4] = 5.0; // b2, the centre
/// batch.set_value(i, 0.6);
/// assert_eq!((batch.priors(i)[4], batch.value(i)), (5.0, 0.6));
/// ```
#[derive(Clone, Debug)]
pub struct Batch<G: Game> {
    positions: Vec<G>,
    /// Where each position's actions (and weights) begin in `actions` (and `priors`); one more
    /// entry than positions, the last the end of the last position's.
    starts: Vec<usize>,
    actions: Vec<G::Action>,
    priors: Vec<f32>,
    values: Vec<f64>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch {
            positions: Vec::new(),
            starts: vec![0],
            actions: Vec::new(),
            priors: Vec::new(),
            values: Vec::new(),
        }
    }
}

impl<G: Game> Batch<G> {
    /// An empty batch.
    #[must_use]
    pub fn new() -> Self {
        Batch::default()
    }

    /// How many positions it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Empties it, keeping its buffers.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.starts.truncate(1);
        self.actions.clear();
        self.priors.clear();
        self.values.clear();
    }

    /// Adds `position` (an ongoing game) with its legal actions, in the order
    /// [`Game::legal_actions`] gives them; its weights start at 0 and its value at 0.5 (even).
    /// Returns its index.
    pub fn push(&mut self, position: G) -> usize {
        position.legal_actions(&mut self.actions);
        self.priors.resize(self.actions.len(), 0.0);
        self.starts.push(self.actions.len());
        self.values.push(0.5);
        self.positions.push(position);
        self.positions.len() - 1
    }

    /// Position `i`.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`len`](Batch::len).
    #[must_use]
    pub fn position(&self, i: usize) -> &G {
        &self.positions[i]
    }

    /// The positions, in order.
    #[must_use]
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The legal actions of position `i`.
    #[must_use]
    pub fn actions(&self, i: usize) -> &[G::Action] {
        &self.actions[self.starts[i]..self.starts[i + 1]]
    }

    /// The weights of position `i`'s actions, in the order of [`actions`](Batch::actions).
    #[must_use]
    pub fn priors(&self, i: usize) -> &[f32] {
        &self.priors[self.starts[i]..self.starts[i + 1]]
    }

    /// The weights of position `i`'s actions, to write: one per action, finite and at least 0,
    /// in any scale (the search normalises them; all 0 counts as uniform).
    pub fn priors_mut(&mut self, i: usize) -> &mut [f32] {
        &mut self.priors[self.starts[i]..self.starts[i + 1]]
    }

    /// The value of position `i`: the probability that the player to move wins.
    #[must_use]
    pub fn value(&self, i: usize) -> f64 {
        self.values[i]
    }

    /// Sets the value of position `i`: the probability, from 0 to 1, that the player to move
    /// wins (a draw-heavy game may count a draw as half a win).
    pub fn set_value(&mut self, i: usize, value: f64) {
        self.values[i] = value;
    }
}

/// An evaluator that scores a batch of positions at once: a prior over each position's legal
/// actions and the probability that the player to move wins.
///
/// This is how a neural network (or an engine in another process) plugs into a search: one
/// call per batch amortises the cost of a call (a GPU launch, a message) over many positions.
/// `search::BatchedUct` gathers the batches, under virtual loss.
///
/// Every [`Knowledge`] is one, evaluated one position at a time on the CPU: its prior weighs
/// the actions (uniform without one) and its evaluator's value becomes a probability through
/// [`Knowledge::win_probability`] (0.5 without one). A search with that knowledge as a batch
/// evaluator makes, with batches of one, the same choices as the search that uses the same
/// knowledge directly with `cutoff=0`.
///
/// ```
/// use game_core::{Game, testing::TicTacToe, knowledge::{Batch, BatchEvaluator}};
///
/// /// A "network" that likes the centre and finds every position even.
/// struct Centre;
/// impl BatchEvaluator<TicTacToe> for Centre {
///     fn evaluate(&mut self, batch: &mut Batch<TicTacToe>) {
///         for i in 0..batch.len() {
///             let centre = batch.actions(i).iter().position(|a| a.to_string() == "b2");
///             let priors = batch.priors_mut(i);
///             priors.fill(1.0);
///             if let Some(c) = centre {
///                 priors[c] = 4.0;
///             }
///             batch.set_value(i, 0.5);
///         }
///     }
/// }
/// let mut batch = Batch::new();
/// batch.push(TicTacToe::new());
/// Centre.evaluate(&mut batch);
/// assert_eq!(batch.priors(0).iter().sum::<f32>(), 12.0);
/// ```
pub trait BatchEvaluator<G: Game> {
    /// Writes, for every position of `batch` (ongoing games), a weight for each legal action
    /// ([`Batch::priors_mut`]) and the probability that the player to move wins
    /// ([`Batch::set_value`]).
    fn evaluate(&mut self, batch: &mut Batch<G>);
}

impl<G, P, L, E> BatchEvaluator<G> for Knowledge<P, L, E>
where
    G: Game,
    P: Prior<G>,
    E: Evaluator<G>,
{
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        for i in 0..batch.len() {
            let (start, end) = (batch.starts[i], batch.starts[i + 1]);
            let position = &batch.positions[i];
            match &self.prior {
                Some(prior) => {
                    // The prior appends: weigh into the batch's own buffer, in place.
                    let mut weights = std::mem::take(&mut batch.priors);
                    weights.truncate(start);
                    prior.weigh(position, &batch.actions[start..end], &mut weights);
                    let counted = weights.len() == end;
                    weights.resize(batch.actions.len(), 0.0);
                    if !counted {
                        // Not one weight per action: the position's actions count as equal.
                        weights[start..end].fill(1.0);
                    }
                    batch.priors = weights;
                }
                None => batch.priors[start..end].fill(1.0),
            }
            batch.values[i] = match &self.evaluator {
                Some(evaluator) => self.win_probability(evaluator.evaluate(position)),
                None => 0.5,
            };
        }
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use crate::testing::TicTacToe;

    #[test]
    fn positions_keep_their_own_actions_and_answers() {
        let mut batch = Batch::new();
        let start = TicTacToe::new();
        let later: TicTacToe = "x..\n.o.\n...".parse().unwrap();
        batch.push(start.clone());
        batch.push(later.clone());
        assert_eq!(batch.len(), 2);
        assert_eq!(batch.actions(0), start.legal_actions_vec().as_slice());
        assert_eq!(batch.actions(1), later.legal_actions_vec().as_slice());
        batch.priors_mut(1).fill(2.0);
        assert!(batch.priors(0).iter().all(|&w| w == 0.0));
        assert_eq!(batch.priors(1), [2.0; 7]);
        batch.clear();
        assert!(batch.is_empty());
        batch.push(later);
        assert_eq!(batch.actions(0).len(), 7);
        assert_eq!(batch.value(0), 0.5);
    }

    #[test]
    fn knowledge_evaluates_a_batch_as_it_evaluates_one_position() {
        struct Centre;
        impl Prior<TicTacToe> for Centre {
            fn weigh(&self, _: &TicTacToe, actions: &[crate::testing::Cell], w: &mut Vec<f32>) {
                w.extend(actions.iter().map(|a| {
                    if Some(*a) == crate::testing::Cell::new(1, 1) {
                        3.0
                    } else {
                        1.0
                    }
                }));
            }
        }
        let stones = |p: &TicTacToe| 9 - p.num_legal_actions() as i32;
        let mut knowledge = Knowledge::NONE
            .with_prior(Centre)
            .with_evaluator(stones, 4.0);
        let positions = [
            TicTacToe::new(),
            "x..\n...\n...".parse().unwrap(),
            "..x\n.x.\n..o".parse().unwrap(),
        ];
        let mut batch = Batch::new();
        for p in &positions {
            batch.push(p.clone());
        }
        knowledge.evaluate(&mut batch);
        for (i, p) in positions.iter().enumerate() {
            let mut weights = Vec::new();
            Centre.weigh(p, batch.actions(i), &mut weights);
            assert_eq!(batch.priors(i), weights.as_slice());
            assert_eq!(batch.value(i), knowledge.win_probability(stones(p)));
        }
        // Without a prior or an evaluator: uniform and even.
        let mut none = Knowledge::NONE;
        BatchEvaluator::<TicTacToe>::evaluate(&mut none, &mut batch);
        assert!(batch.priors(2).iter().all(|&w| w == 1.0));
        assert_eq!(batch.value(2), 0.5);
    }
}
