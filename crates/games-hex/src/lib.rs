//! Hex on bitboards, for [`game_core`]: every board from 1x1 to 19x19, chosen at run time,
//! with or without the swap (pie) rule.
//!
//! - [`Hex`]: the position. Black connects row 1 to the last row, White column `a` to the last
//!   column; no draws. Each size runs on a board compiled for the number of 64-bit words its
//!   cells need, so 19x19 support costs 11x11 nothing.
//! - `play` keeps, for each player, the stones connected to each of its edges; a stone that
//!   touches one of them floods its group in, and a group in both wins. Most stones flood
//!   nothing.
//! - `random_playout` fills the board and tests the winner once (exact: see
//!   [`Game::random_playout`](game_core::Game::random_playout) on [`Hex`]).
//! - Text: cells `a1` (column letter, row from 1, any case), `swap-pieces` / `swap`; positions
//!   from move lists; a rhombus-shaped board `Display`.
//! - Knowledge for Monte-Carlo search ([`knowledge`]): bridge-saving playouts ([`Bridges`]), a
//!   shape prior ([`Shape`]), and the dead, captured, vulnerable and dominated cells a search
//!   need not play ([`Hex::inferior_cells`]), found from each cell's six neighbours (the dead
//!   and captured ones filled in); the moves virtual connections (H-search) prove won or lost
//!   ([`Hex::proven_moves`]), which a search asks of its busiest nodes.
//! - [`patterns`]: the learned pattern table the prior and the playouts weigh moves by
//!   ([`patterns::Patterns`]), and the types that train it.
//! - [`Solver`]: who wins a position with perfect play, and with which moves, on small boards
//!   (every opening of 5x5 in about a minute and a half); [`Dfpn`]: the same on larger boards,
//!   by proof-number search guided by virtual connections (some 9x9 middle games in seconds).
//!
//! ```
//! use game_core::{Game, Status};
//! use games_hex::Hex;
//! use rand::SeedableRng;
//!
//! let position = Hex::with_swap(11)?.after_moves("f6 swap e5")?;
//! println!("{position}");
//! let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
//! let mut playout = position.clone();
//! let result = playout.random_playout(&mut rng);
//! assert_eq!(playout.status(), Status::Over(result.outcome));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod bits;
mod board;
mod book;
mod dfpn;
mod hex;
mod knowledge;
mod notation;
pub mod patterns;
mod solver;

pub use bits::MAX_SIDE;
pub use book::{Book, BookError, BookMove};
pub use dfpn::Dfpn;
pub use hex::Hex;
pub use knowledge::{Bridges, Connection, InferiorCells, ProvenMoves, Shape, knowledge};
pub use notation::{Cell, Move, MoveErrorKind, MovesError, ParseMoveError, SizeError};
pub use solver::{SolveError, Solver};
