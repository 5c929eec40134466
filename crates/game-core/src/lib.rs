//! The traits and the shared vocabulary of two-player board games.
//!
//! Every game in `gamesearch` implements [`Game`], and every search algorithm is written against
//! it alone, so any algorithm plays any game, including yours. This crate is small and changes
//! rarely:
//!
//! - [`Game`]: a position, its legal actions, playing them, how the game stands, a hash; plus fast
//!   paths a game may override (`random_action`, `random_playout`).
//! - [`Player`], [`Outcome`] and [`Status`]: who moves, who won; [`Wdl`] is the same result seen
//!   from one side, a different type so that a sign never flips by accident.
//! - [`Reward`]: what a finished game is worth to a player, for search ([`WinDrawLoss`],
//!   [`ScoreMargin`], or your own closure).
//! - [`Evaluator`]: a heuristic value of a position for the side to move, for depth-limited
//!   search; games ship theirs without depending on a search crate.
//! - [`knowledge`]: what a game can tell a search beyond its rules: a [`Prior`](knowledge::Prior)
//!   over its moves (with the verdicts of [`examine`](knowledge::Prior::examine) and an
//!   opening book), a [`PlayoutPolicy`](knowledge::PlayoutPolicy), bundled with an evaluator
//!   as [`Knowledge`](knowledge::Knowledge); and a [`BatchEvaluator`](knowledge::BatchEvaluator)
//!   for networks.
//! - [`solve`]: an exact solver a game offers a search ([`Solve`](solve::Solve)), and the
//!   [`Proven`](solve::Proven) values it finds.
//! - [`perft`]: leaf counts of the game tree, the standard test of move generation.
//! - [`testing`] (feature `testing`): the conformance kit that checks a `Game` implementation
//!   on random games, and tic-tac-toe as a reference game.
//!
//! # Implementing a game
//!
//! Nim with one heap: take one, two or three stones; whoever takes the last stone wins. Five
//! methods make it a [`Game`]; the kit then checks the implementation on random games.
//!
//! ```
//! use std::fmt;
//! use game_core::{Game, Outcome, Player, Status};
//!
//! #[derive(Clone, PartialEq, Eq, Debug)]
//! struct Nim {
//!     stones: u32,
//!     to_move: Player,
//! }
//!
//! impl fmt::Display for Nim {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         write!(f, "{} stones, {} to move", self.stones, self.to_move)
//!     }
//! }
//!
//! impl Game for Nim {
//!     type Action = u32; // how many stones to take
//!
//!     fn to_move(&self) -> Player {
//!         self.to_move
//!     }
//!
//!     fn status(&self) -> Status {
//!         match self.stones {
//!             // The player who took the last stone is the one who just moved.
//!             0 => Status::Over(Outcome::Win(self.to_move.opponent())),
//!             _ => Status::Ongoing,
//!         }
//!     }
//!
//!     fn legal_actions<E: Extend<u32>>(&self, out: &mut E) {
//!         out.extend(1..=self.stones.min(3));
//!     }
//!
//!     fn play_unchecked(&mut self, take: u32) {
//!         self.stones = self.stones.saturating_sub(take);
//!         self.to_move = self.to_move.opponent();
//!     }
//!
//!     fn position_hash(&self) -> u64 {
//!         u64::from(self.stones) << 1 | self.to_move.index() as u64
//!     }
//! }
//!
//! let mut nim = Nim { stones: 5, to_move: Player::Black };
//! assert_eq!(nim.legal_actions_vec(), [1, 2, 3]);
//! nim.play(1);
//! assert!(nim.try_play(4).is_err()); // only three stones may be taken
//! // From four stones: 3 first moves, then 3 + 2 + 1 replies.
//! assert_eq!(game_core::perft(&nim, 2), 6);
//!
//! // The conformance kit (feature `testing`) checks the rules above on random games:
//! game_core::testing::Conformance::new().assert(&nim);
//! ```
//!
//! # Feature flags
//!
//! - `testing`: the [`testing`] module (the conformance kit). Enable it in
//!   `[dev-dependencies]`.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod batch;
mod eval;
mod game;
mod hash;
pub mod knowledge;
mod moves;
mod outcome;
mod perft;
mod played;
mod player;
mod reward;
mod sink;
pub mod solve;
pub mod tictactoe;

#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

/// The `rand` crate this one is built on (0.10): implement [`Game::random_action`] and
/// [`Game::random_playout`] with its `Rng`, through this path, so that your crate and this one
/// agree on the version (two versions of `rand` give baffling trait errors, such as a missing
/// `DerefMut` or `Rng` for a generator that seems to have it).
pub use rand;

pub use eval::Evaluator;
pub use game::{Game, PlayError, Playout};
pub use hash::mix64;
pub use moves::MovesError;
pub use outcome::{Outcome, Status, Wdl};
pub use perft::perft;
pub use played::PlayedActions;
pub use player::{ParsePlayerError, Player};
pub use reward::{Reward, ScoreMargin, Scored, WinDrawLoss};
