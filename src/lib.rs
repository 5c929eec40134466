//! `gamesearch`: two-player board-game AI in Rust, in one dependency.
//!
//! This facade re-exports the crates of the workspace, so that one dependency brings them all:
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`core`] | `game-core` | the [`Game`](core::Game) trait, players, outcomes, rewards, perft |
//! | [`search`] | `search` | the search algorithms, generic over `Game` |
//! | [`hex`] | `games-hex` | Hex on boards up to 19x19 |
//! | [`othello`] | `games-othello` | Othello 8x8 and 6x6 |
//! | [`connect4`] | `games-connect4` | Connect Four 7x6 and other sizes |
//! | [`arena`] | `arena` | playing matches between agents, scores, confidence intervals |
//!
//! Each crate can also be used on its own.
//!
//! # Feature flags
//!
//! - `testing`: the conformance kit and the reference games (`gamesearch::core::testing`), to
//!   check a game of your own; enable it in `[dev-dependencies]`.
//! - `plot`: SVG charts of tournaments (`gamesearch::arena::plot`).
//! - `cli`: the command-line tools (play, gtp, tournament) for a game of your own
//!   (`gamesearch::arena::cli::run`).
//! - `web`: the board in the browser, an HTTP server with a JSON API and one page
//!   (`gamesearch::arena::web`).
//!
//! None is on by default.
//!
//! ```
//! use gamesearch::core::{Game, Player};
//!
//! fn first_mover<G: Game>(start: &G) -> Player {
//!     start.to_move()
//! }
//! # let _ = first_mover::<gamesearch::core::testing::TicTacToe>;
//! ```

#![forbid(unsafe_code)]

pub use arena;
pub use game_core as core;
pub use games_connect4 as connect4;
pub use games_hex as hex;
pub use games_othello as othello;
pub use search;

// The README's Rust example, run by `cargo test --doc`.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
