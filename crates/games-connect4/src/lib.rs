//! Connect Four on bitboards, for [`game_core`]: the standard 7x6 board and any other that fits
//! in 64 bits ([`Connect4`]) or 128 bits ([`Connect4Large`]).
//!
//! - Two bitboards per position (Pascal Pons' layout), moves by a carry, four in a row by
//!   shifts, a perfect position key as the hash.
//! - Random playouts straight from the bitboard, with no move list: the fast path of
//!   Monte-Carlo search.
//! - [`Solver`]: exact scores in the public test sets' convention (Pascal Pons' method), and
//!   the best move of a position; [`Book`]: the opening book that answers the first moves.
//! - Moves are 1-based columns (`4`); positions parse from strings of column digits (`"4453"`),
//!   the format of the public test sets, with errors that name the bad move and why.
//!
//! ```
//! use game_core::{Game, Status};
//! use games_connect4::{Connect4, Connect4Large};
//! use rand::SeedableRng;
//!
//! let position: Connect4 = "4453".parse()?;
//! assert_eq!(position.legal_actions_vec().len(), 7);
//! println!("{position}");
//!
//! let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
//! let mut playout = position.clone();
//! let result = playout.random_playout(&mut rng);
//! assert_eq!(playout.status(), Status::Over(result.outcome));
//!
//! // Larger boards use 128-bit boards:
//! let big = Connect4Large::with_size(9, 7)?;
//! assert_eq!(big.num_legal_actions(), 9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod bits;
mod board;
mod book;
mod knowledge;
mod notation;
mod solver;

pub use bits::Bits;
pub use board::{Connect4, Connect4Board, Connect4Large};
pub use book::{Book, BookError};
pub use knowledge::{Threats, WinBlock, knowledge};
pub use notation::{Column, MAX_SIDE, MoveErrorKind, MovesError, ParseMoveError, SizeError};
pub use solver::{SolveError, Solver};
