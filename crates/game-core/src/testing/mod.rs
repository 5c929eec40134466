//! Testing support (feature `testing`): the conformance kit and a reference game.
//!
//! - [`Conformance`]: random games, driven by proptest, that check every rule a [`Game`]
//!   documents at every position, and report a broken rule as a [`Failure`] with a short path
//!   to it. Every game in this workspace runs it; run it on yours.
//! - [`TicTacToe`]: a complete small game, for the kit's own tests and for search tests (it
//!   lives in [`crate::tictactoe`], outside the feature; it is named here too).
//! - [`TreeGame`]: a game given by its whole tree as text (`"((BW)(BB))"`), for testing
//!   searches on trees whose answer can be read off the literal.
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
mod tree;

/// Tic-tac-toe, here as well as at [`crate::tictactoe`], where it lives.
pub use crate::tictactoe::{Cell, ParseCellError, ParseTicTacToeError, TicTacToe};
pub use kit::{Conformance, Failure, Violation};
pub use tree::{Branch, ParseBranchError, ParseTreeError, TreeGame};
