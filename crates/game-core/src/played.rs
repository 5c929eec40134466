//! [`PlayedActions`]: what a marked playout tells RAVE.

use crate::Player;

/// The actions each player played in a playout, as two sets of action numbers
/// ([`Game::action_index`](crate::Game::action_index)), one bit per number: what
/// [`Game::random_playout_marked`](crate::Game::random_playout_marked) fills and
/// RAVE learns from.
///
/// ```
/// use game_core::{PlayedActions, Player};
///
/// let mut played = PlayedActions::default();
/// played.clear(122); // an 11x11 Hex board's 121 cells and the swap
/// played.insert(Player::Black, 60);
/// assert!(played.contains(Player::Black, 60));
/// assert!(!played.contains(Player::White, 60));
/// assert!(!played.contains(Player::Black, 500)); // beyond the action space: never played
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct PlayedActions {
    /// Per player (by [`Player::index`]), bit `i % 64` of word `i / 64` for action number `i`.
    words: [Vec<u64>; 2],
}

impl PlayedActions {
    /// Empties both sets and gives them room for the action numbers below `space`, keeping
    /// their memory.
    pub fn clear(&mut self, space: usize) {
        for words in &mut self.words {
            words.clear();
            words.resize(space.div_ceil(64), 0);
        }
    }

    /// Adds action number `index` to `player`'s set.
    ///
    /// # Panics
    ///
    /// If `index` is beyond the room made by the last [`clear`](Self::clear).
    #[inline]
    pub fn insert(&mut self, player: Player, index: usize) {
        self.words[player.index()][index / 64] |= 1 << (index % 64);
    }

    /// Whether action number `index` is in `player`'s set.
    #[inline]
    #[must_use]
    pub fn contains(&self, player: Player, index: usize) -> bool {
        self.words[player.index()]
            .get(index / 64)
            .is_some_and(|word| (word >> (index % 64)) & 1 != 0)
    }

    /// `player`'s set as words (bit `i % 64` of word `i / 64` for action number `i`), for a
    /// search that reads many actions at once.
    #[inline]
    #[must_use]
    pub fn words(&self, player: Player) -> &[u64] {
        &self.words[player.index()]
    }

    /// `player`'s set as words (bit `i % 64` of word `i / 64` for action number `i`), for a
    /// game that adds a whole bitboard of actions at once.
    #[inline]
    pub fn words_mut(&mut self, player: Player) -> &mut [u64] {
        &mut self.words[player.index()]
    }
}
