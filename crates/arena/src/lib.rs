//! The tools around the agents, as a library: everything the `play`, `gtp`, `tournament`
//! and `hex_selfplay` examples do, for other programs to reuse.
//!
//! - [`play_game`]: one game between two agents, move by move.
//! - [`Score`] and [`wilson_interval`]: a match's result and how sure it is.
//! - [`TextGame`]: what the tools need beyond the rules (names, sizes, move errors, the final
//!   score, each game's agents), implemented for Hex, Othello and Connect Four;
//!   [`GameChoice`] picks one at run time and runs generic code on it ([`WithGame`]).
//! - [`schedule`], [`play_games`] and [`Standings`]: tournaments played in parallel, with
//!   scores, intervals and Elo [`ratings`], as text and CSV; [`journal`]: run directories
//!   that keep every finished game, so that runs resume and shards merge.
//! - `plot` (feature `plot`): SVG charts of ratings, win rates and heat maps.
//! - [`GtpEngine`]: the Go Text Protocol for any [`TextGame`], with the Benzene conventions
//!   for Hex.
//! - `cli` (feature `cli`): the `play`, `gtp` and `tournament` tools for any [`TextGame`],
//!   so that a game of your own gets them in a binary of its own (`arena::cli::run`).
//!
//! ```
//! use arena::{Score, play_game};
//! use game_core::{Outcome, testing::TicTacToe};
//! use search::{AgentSpec, Budget};
//!
//! let spec: AgentSpec = "uct:iterations=2000".parse()?;
//! let mut black = spec.build::<TicTacToe>(1)?;
//! let mut white = spec.build::<TicTacToe>(2)?;
//! let budget = spec.budget();
//! let game = play_game(&TicTacToe::new(), [&mut *black, &mut *white], [&budget, &budget], |_| {});
//! // Two searching players draw tic-tac-toe.
//! assert_eq!(game.outcome, Outcome::Draw);
//!
//! let mut score = Score::default();
//! score.add(game.outcome, game_core::Player::Black);
//! assert_eq!(score.points(), 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod choice;
#[cfg(feature = "cli")]
pub mod cli;
mod clock;
mod elo;
mod gtp;
pub mod journal;
mod play;
#[cfg(feature = "plot")]
pub mod plot;
mod resign;
mod score;
mod table;
mod text;
mod tournament;
#[cfg(feature = "web")]
pub mod web;

pub use choice::{GAMES, GameChoice, WithGame};
pub use elo::{Rating, ratings};
pub use gtp::{Flow, GtpEngine};
pub use play::{GameRecord, MoveEvent, play_game, play_game_resigning};
pub use resign::{Resign, Resignation, Resigner};
pub use score::{Score, wilson_interval};
pub use table::Table;
pub use text::{MoveError, SizeError, TextGame};
pub use tournament::{
    Format, GameResult, Pairing, Standings, games_csv, play_games, play_games_until, schedule,
    schedule_with_openings,
};
