//! The [`Game`] trait: the one interface every game implements and every algorithm uses.

use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use rand::{Rng, RngExt};
use thiserror::Error;

use crate::sink::{Contains, Count, Nth};
use crate::{Outcome, PlayedActions, Player, Status};

/// A position of a two-player, zero-sum, perfect-information game, with the rules to go on
/// from it.
///
/// A value of a type that implements `Game` is one position: the board, the player to move and
/// whatever else decides what happens next. Search clones it, asks it for its legal actions and
/// plays them; nothing else is needed.
///
/// # What to implement
///
/// The methods come in four sections, in this order in the source and in these docs:
///
/// 1. **Required** (five): [`to_move`](Game::to_move), [`status`](Game::status),
///    [`legal_actions`](Game::legal_actions), [`play_unchecked`](Game::play_unchecked) and
///    [`position_hash`](Game::position_hash). Everything else is written in terms of them.
/// 2. **Fast paths** a game may override where it knows a quicker way, with the same result:
///    [`num_legal_actions`](Game::num_legal_actions), [`is_legal`](Game::is_legal),
///    [`random_action`](Game::random_action) and [`random_playout`](Game::random_playout).
///    They are what Monte-Carlo search spends its time in; bitboard games override them all.
/// 3. **Numbered actions**, for searches that share statistics between positions (RAVE):
///    [`action_space`](Game::action_space), [`action_index`](Game::action_index), its inverse
///    [`action_from_index`](Game::action_from_index) and the fast path
///    [`random_playout_marked`](Game::random_playout_marked). A game that does not number its
///    actions leaves all four alone.
/// 4. **Conveniences**, never overridden: [`legal_actions_vec`](Game::legal_actions_vec),
///    [`play`](Game::play), [`try_play`](Game::try_play) and [`after`](Game::after). They are
///    marked `FINAL` in the source; a game that overrides one breaks what callers rely on
///    (`play`'s debug check, `try_play`'s refusal that leaves the position unchanged).
///
/// **A wrapper** (a newtype around another game, adding a rule or a statistic) must forward
/// sections 1 to 3 to the inner game: the defaults of section 2 are correct but slow, and
/// those of section 3 turn RAVE off.
///
/// Derive `Clone`, `PartialEq`, `Eq` and `Debug`; write `Display` to draw the board. Do not
/// derive `Copy` even when the position is small: positions are changed in place by
/// [`play`](Game::play), and an implicit copy makes it easy to play on the wrong one.
///
/// # Rules every implementation keeps
///
/// These are what the conformance kit ([`testing`](crate::testing), feature `testing`) checks:
///
/// - [`status`](Game::status) is [`Status::Ongoing`] exactly when there is a legal action.
/// - Every action passes the turn: after any action, [`to_move`](Game::to_move) is the other
///   player. A game with passes makes passing an explicit action, legal only when nothing else
///   is; a game with a pie rule makes the swap an action of the second player.
/// - [`legal_actions`](Game::legal_actions) lists each legal action once, in an order that
///   depends only on the position.
/// - Equal positions have equal [`position_hash`](Game::position_hash)es.
/// - An action's text parses back to the same action.
/// - The fast paths agree with the required methods: the same count, the same legality, a
///   uniformly drawn action, playouts that end where they say.
/// - Numbered actions, when the game has them: every legal action's number is below
///   [`action_space`](Game::action_space), no two legal actions of a position share one, an
///   action has the same number in every position, and
///   [`action_from_index`](Game::action_from_index), where the game offers it, gives the
///   action back from its number.
///
/// # Example
///
/// The [crate documentation](crate#implementing-a-game) implements a game from scratch and runs
/// the conformance kit on it.
pub trait Game: Clone + Eq + Debug + Display {
    /// A move. Small and `Copy`: a column, a cell, a square, or `pass`.
    ///
    /// Its `Display` and `FromStr` are the game's move notation (`4`, `d3`, `a1`), and must
    /// agree: an action's text parses back to the same action. Actions are plain data, and so
    /// `Send + Sync` (searches may run on several threads).
    type Action: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err: Error + Send + Sync + 'static>
        + Send
        + Sync;

    // --- 1. Required ------------------------------------------------------------------------

    /// The player whose turn it is. In a finished game, the player who would have moved next.
    fn to_move(&self) -> Player;

    /// Whether the game goes on, and if not, how it ended.
    ///
    /// Called at every node of a search: make it cheap (cache the result when it is costly).
    fn status(&self) -> Status;

    /// Appends every legal action to `out`, once each. Appends nothing when the game is over.
    ///
    /// `out` belongs to the caller, so a search reuses one buffer and nothing is allocated per
    /// call: a `Vec`, a `SmallVec`, or a counter that only counts all work.
    ///
    /// ```
    /// # use game_core::{Game, testing::TicTacToe};
    /// let mut buffer = Vec::new();
    /// TicTacToe::new().legal_actions(&mut buffer);
    /// assert_eq!(buffer.len(), 9);
    /// ```
    fn legal_actions<E: Extend<Self::Action>>(&self, out: &mut E);

    /// Plays `action` without checking that it is legal.
    ///
    /// This is the method to implement; callers use [`play`](Game::play) (checked in debug
    /// builds) or [`try_play`](Game::try_play) (always checked). Playing an illegal action this
    /// way must not be undefined behaviour, but it may leave a position that breaks the rules.
    fn play_unchecked(&mut self, action: Self::Action);

    /// A 64-bit key of the position, for transposition tables and repetition checks.
    ///
    /// Equal positions must have equal keys, and everything that decides what happens next (the
    /// player to move, a pending swap) is part of the position. Different positions should
    /// collide no more often than random 64-bit numbers do: a perfect key or a Zobrist hash.
    fn position_hash(&self) -> u64;

    // --- 2. Fast paths: override for speed, with the same result; wrappers forward them ------

    /// How many actions are legal; 0 when the game is over.
    fn num_legal_actions(&self) -> usize {
        let mut count = Count::default();
        self.legal_actions(&mut count);
        count.0
    }

    /// `true` when `action` is legal in this position.
    fn is_legal(&self, action: Self::Action) -> bool {
        let mut contains = Contains::new(action);
        self.legal_actions(&mut contains);
        contains.found
    }

    /// A legal action drawn uniformly at random, or `None` when the game is over.
    ///
    /// The provided version lists the actions twice (once to count them, once to pick one) and
    /// allocates nothing; games that can pick straight from a bitboard override it.
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Action> {
        let n = self.num_legal_actions();
        if n == 0 {
            return None;
        }
        let mut nth = Nth::new(rng.random_range(0..n));
        self.legal_actions(&mut nth);
        nth.found
    }

    /// Plays uniformly random actions until the game ends, and reports how it ended.
    ///
    /// Afterwards `self` is a finished position whose [`status`](Game::status) is
    /// `Status::Over(playout.outcome)`. A game may override this with anything that gives each
    /// outcome the same probability as uniform random play (Hex fills the board at random and
    /// tests the winner once), as long as it leaves a finished position behind.
    ///
    /// # Panics
    ///
    /// If the game breaks its own rules: it says it goes on but has no legal action.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        play_out(self, rng, |_, _| {})
    }

    // --- 3. Numbered actions (RAVE); a game without numbers leaves these alone -------------

    /// How many action indices the game has, when it numbers its actions the same way in
    /// every position (a Hex cell, an Othello square, a Connect Four column): searches that
    /// share what they learn about an action between positions (RAVE) need it. `None`, the
    /// default, for games that do not number their actions.
    fn action_space(&self) -> Option<usize> {
        None
    }

    /// The index of `action`, below [`action_space`](Game::action_space): the same action has
    /// the same index in every position of a game, and two actions legal in one position have
    /// different indices. Only called when `action_space` is `Some`; the default returns 0.
    fn action_index(&self, action: Self::Action) -> usize {
        let _ = action;
        0
    }

    /// The action whose index is `index` ([`action_index`](Game::action_index)'s inverse),
    /// legal here or not: what a tool that speaks in numbers (the Python package, a network's
    /// policy head) turns back into an action. `None` for a number no action of the game has,
    /// and always, by default, for a game without numbered actions.
    fn action_from_index(&self, index: usize) -> Option<Self::Action> {
        let _ = index;
        None
    }

    /// [`random_playout`](Game::random_playout), adding to `played` the
    /// [`action_index`](Game::action_index) of every action it plays, in the set of the player
    /// who plays it: what RAVE's all-moves-as-first statistics learn from. `played` must have
    /// room for the game's [`action_space`](Game::action_space) ([`PlayedActions::clear`]);
    /// what it held before stays.
    ///
    /// The default plays move by move. A game whose fast playout decides the result
    /// differently may mark its own way, with the same distribution: Hex's fill marks every
    /// cell each player filled, including those after the winning connection, a few words at a
    /// time.
    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        play_out(self, rng, |game, action| {
            played.insert(game.to_move(), game.action_index(action));
        })
    }

    // --- 4. Conveniences: FINAL, never overridden -------------------------------------------

    /// The legal actions in a new `Vec`.
    ///
    /// Allocates: for tools and tests, not for the inner loop of a search.
    /* FINAL */
    fn legal_actions_vec(&self) -> Vec<Self::Action> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions
    }

    /// Plays a legal action.
    ///
    /// # Panics
    ///
    /// In debug builds, when `action` is not legal. Release builds do not check; use
    /// [`try_play`](Game::try_play) for actions that come from outside.
    #[inline]
    /* FINAL */
    fn play(&mut self, action: Self::Action) {
        debug_assert!(
            self.is_legal(action),
            "illegal action {action} in position\n{self}"
        );
        self.play_unchecked(action);
    }

    /// Plays `action` if it is legal, and otherwise leaves the position as it was.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] when the game is over, [`PlayError::Illegal`] when the action is
    /// not legal here; both hand the action back.
    /* FINAL */
    fn try_play(&mut self, action: Self::Action) -> Result<(), PlayError<Self::Action>> {
        if self.status().is_over() {
            return Err(PlayError::GameOver(action));
        }
        if !self.is_legal(action) {
            return Err(PlayError::Illegal(action));
        }
        self.play_unchecked(action);
        Ok(())
    }

    /// The position after a legal `action`: a clone of this one with the action played.
    #[must_use]
    /* FINAL */
    fn after(&self, action: Self::Action) -> Self {
        let mut next = self.clone();
        next.play(action);
        next
    }
}

/// The default random playouts: uniformly random actions until the game ends, each shown to
/// `played` with the position it is played in (which compiles away when it does nothing).
fn play_out<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    mut played: impl FnMut(&G, G::Action),
) -> Playout {
    let mut plies = 0;
    loop {
        if let Status::Over(outcome) = game.status() {
            return Playout { outcome, plies };
        }
        let action = game
            .random_action(rng)
            .expect("the game is ongoing but has no legal action");
        played(game, action);
        game.play_unchecked(action);
        plies += 1;
    }
}

/// The result of [`Game::random_playout`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Playout {
    /// How the game ended.
    pub outcome: Outcome,
    /// How many actions the playout played (for reward decay by game length).
    pub plies: u32,
}

/// The error of [`Game::try_play`]: the action was not played. It hands the action back.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Error)]
pub enum PlayError<A> {
    /// The game is already over, so no action is legal.
    #[error("cannot play {0}: the game is over")]
    GameOver(A),
    /// The action is not legal in this position.
    #[error("illegal action {0}")]
    Illegal(A),
}

impl<A> PlayError<A> {
    /// The action that was rejected.
    pub fn into_action(self) -> A {
        match self {
            PlayError::GameOver(a) | PlayError::Illegal(a) => a,
        }
    }
}
