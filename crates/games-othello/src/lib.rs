//! Othello (Reversi) on bitboards, for [`game_core`]: the standard 8x8 board ([`Othello`]) and
//! the 6x6 board of MCTS coursework ([`Othello6`]), one implementation compiled for each size.
//!
//! - Two 64-bit boards (the player to move's discs and the opponent's); legal moves and flips
//!   by shifts in eight directions, masked at the board's edges.
//! - An explicit [`Move::Pass`], legal only when the player to move cannot place a disc; the
//!   game ends when neither player can; more discs wins.
//! - Random playouts straight from the bitboards, with no move list.
//! - Text: moves `d3` (row 1 at the top) and `pass`; positions from move lists (`"d3c5f6"`)
//!   and board strings (`X`, `O`, `-`, then the player to move).
//! - [`Heuristic`]: the classic evaluator (material, mobility, square weights, by phase) for
//!   alpha-beta.
//!
//! ```
//! use game_core::{Evaluator, Game, Player, Status};
//! use games_othello::{Heuristic, Othello};
//! use rand::SeedableRng;
//!
//! let position = Othello::new().after_moves("f5d6c3d3c4")?;
//! println!("{position}");
//! let value = Heuristic::new().evaluate(&position);
//!
//! let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
//! let mut playout = position.clone();
//! let result = playout.random_playout(&mut rng);
//! assert_eq!(playout.status(), Status::Over(result.outcome));
//! # let _ = value;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(unsafe_code)]

mod board;
mod cpu;
mod endgame;
mod heuristic;
mod knowledge;
mod midgame;
mod movegen;
mod notation;
pub mod pattern;

pub use board::{Othello, Othello6, OthelloBoard};
pub use endgame::{Endgame, SolveError};
pub use heuristic::{Features, Heuristic, Phase, PhaseWeights};
pub use knowledge::{Corners, HeuristicPrior, SCALE, knowledge};
pub use midgame::{BoardValue, Midgame, Thought, probcut_shallow_depth};
pub use notation::{Move, MoveErrorKind, MovesError, ParseBoardError, ParseMoveError, Square};
pub use pattern::Patterns;
