//! Testing support (feature `testing`): the conformance kit and a reference game.
//!
//! - [`Conformance`]: random games, driven by proptest, that check every rule a [`Game`]
//!   documents at every position, and report a broken rule as a [`Failure`] with a short path
//!   to it. Every game in this workspace runs it; run it on yours.
//! - [`TicTacToe`]: a complete small game, for the kit's own tests and for search tests.
//!
//! Enable it for tests only:
//!
//! ```toml
//! [dev-dependencies]
//! game-core = { version = "0.1", features = ["testing"] }
//! ```
//!
//! [`Game`]: crate::Game

mod kit;
mod tictactoe;

pub use kit::{Conformance, Failure, Violation};
pub use tictactoe::{Cell, ParseCellError, ParseTicTacToeError, TicTacToe};
