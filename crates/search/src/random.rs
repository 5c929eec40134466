//! The agent that plays uniformly at random.

use game_core::Game;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{Agent, Budget};

/// Plays a uniformly random legal action, ignoring the budget: the weakest opponent, and the
/// baseline every other agent must beat.
///
/// ```
/// use game_core::{Game, testing::TicTacToe};
/// use search::{Agent, Budget, Random};
///
/// let mut agent = Random::new(7);
/// let action = agent.choose(&TicTacToe::new(), &Budget::default()).unwrap();
/// assert!(TicTacToe::new().is_legal(action));
/// ```
#[derive(Clone, Debug)]
pub struct Random {
    rng: Xoshiro256PlusPlus,
}

impl Random {
    /// A random agent drawing from a generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Random {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for Random {
    fn choose(&mut self, position: &G, _budget: &Budget) -> Option<G::Action> {
        position.random_action(&mut self.rng)
    }
}
