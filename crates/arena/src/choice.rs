//! [`GameChoice`]: a game picked at run time (`--game hex --size 11 --swap`), and the way to run
//! generic code on it.

use std::fmt;

use game_core::tictactoe::TicTacToe;
use games_connect4::{Connect4, Connect4Large};
use games_hex::Hex;
use games_othello::{Othello, Othello6};

use crate::TextGame;

/// A game and its size, as the tools take them on the command line.
///
/// ```
/// use arena::{GameChoice, TextGame, WithGame};
///
/// struct Describe;
/// impl WithGame for Describe {
///     type Output = String;
///     fn run<G: TextGame>(self, start: G) -> String {
///         format!("{} {}", G::NAME, start.size_text())
///     }
/// }
///
/// let choice = GameChoice::new("connect4", Some("9x7"), false)?;
/// assert_eq!(choice.run(Describe), "connect4 9x7");
/// assert!(GameChoice::new("othello", Some("7"), false).is_err());
/// assert_eq!(GameChoice::new("tictactoe", None, false)?.run(Describe), "tictactoe 3x3");
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameChoice {
    /// Hex on a `size`x`size` board.
    Hex {
        /// The side, 1 to 19.
        size: u8,
        /// With the swap (pie) rule.
        swap: bool,
    },
    /// Othello 8x8 (`size` 8) or 6x6.
    Othello {
        /// 8 or 6.
        size: u8,
    },
    /// Connect Four.
    Connect4 {
        /// Columns.
        width: u8,
        /// Rows.
        height: u8,
    },
    /// Tic-tac-toe, on its 3x3 board.
    TicTacToe,
}

/// Generic code to run on whichever game a [`GameChoice`] names.
pub trait WithGame {
    /// What the code returns.
    type Output;
    /// Runs on the game whose empty board is `start`.
    fn run<G: TextGame>(self, start: G) -> Self::Output;
}

/// The games [`GameChoice::new`] knows.
pub const GAMES: [&str; 4] = ["hex", "othello", "connect4", "tictactoe"];

impl GameChoice {
    /// Reads a game name (`hex`, `othello`, `connect4`, `tictactoe`), an optional size (Hex `11`
    /// or `11x11`; Othello `8` or `6`; Connect Four `7x6`, columns then rows; tic-tac-toe `3`)
    /// and whether to play with the swap
    /// rule (Hex only).
    ///
    /// # Errors
    ///
    /// A message saying what is wrong and what is expected.
    pub fn new(game: &str, size: Option<&str>, swap: bool) -> Result<GameChoice, String> {
        let choice = match game.to_ascii_lowercase().as_str() {
            "hex" => {
                let size = match size {
                    None => 11,
                    // `11` or `11x11`.
                    Some(text) => text
                        .split_once(['x', 'X'])
                        .filter(|(a, b)| a == b)
                        .map_or(text, |(a, _)| a)
                        .parse::<u8>()
                        .map_err(|_| format!("bad Hex size {text:?}: expected 1 to 19"))?,
                };
                GameChoice::Hex { size, swap }
            }
            "othello" => {
                let size = match size {
                    None | Some("8" | "8x8") => 8,
                    Some("6" | "6x6") => 6,
                    Some(text) => {
                        return Err(format!("bad Othello size {text:?}: expected 8 or 6"));
                    }
                };
                GameChoice::Othello { size }
            }
            "connect4" | "connect-four" | "connect_four" => {
                let (width, height) = match size {
                    None => (7, 6),
                    Some(text) => text
                        .split_once(['x', 'X'])
                        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                        .ok_or_else(|| {
                            format!(
                                "bad Connect Four size {text:?}: expected columns x rows, as in 7x6"
                            )
                        })?,
                };
                GameChoice::Connect4 { width, height }
            }
            "tictactoe" | "tic-tac-toe" | "tic_tac_toe" => match size {
                None | Some("3" | "3x3") => GameChoice::TicTacToe,
                Some(text) => {
                    return Err(format!("bad tic-tac-toe size {text:?}: the board is 3x3"));
                }
            },
            _ => {
                return Err(format!(
                    "unknown game {game:?}: expected {}",
                    GAMES.join(", ")
                ));
            }
        };
        if swap && !matches!(choice, GameChoice::Hex { .. }) {
            return Err("only Hex has a swap rule".to_owned());
        }
        // Check the size now, so that `run` cannot fail.
        match choice {
            GameChoice::Hex { size, swap: _ } => {
                Hex::new(size).map_err(|e| e.to_string())?;
            }
            GameChoice::Othello { .. } | GameChoice::TicTacToe => {}
            GameChoice::Connect4 { width, height } => {
                Connect4Large::with_size(width, height).map_err(|e| e.to_string())?;
            }
        }
        Ok(choice)
    }

    /// Runs `code` on the empty board of this game (Connect Four on the 64-bit board when it
    /// fits, else on the 128-bit one).
    pub fn run<W: WithGame>(self, code: W) -> W::Output {
        match self {
            GameChoice::Hex { size, swap } => {
                let start = if swap {
                    Hex::with_swap(size)
                } else {
                    Hex::new(size)
                };
                code.run(start.expect("checked by GameChoice::new"))
            }
            GameChoice::Othello { size: 6 } => code.run(Othello6::new()),
            GameChoice::Othello { .. } => code.run(Othello::new()),
            GameChoice::Connect4 { width, height } => match Connect4::with_size(width, height) {
                Ok(board) => code.run(board),
                Err(_) => code.run(
                    Connect4Large::with_size(width, height).expect("checked by GameChoice::new"),
                ),
            },
            GameChoice::TicTacToe => code.run(TicTacToe::new()),
        }
    }
}

impl fmt::Display for GameChoice {
    /// `hex 11x11 with swap`, `othello 8x8`, `connect4 7x6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameChoice::Hex { size, swap } => write!(
                f,
                "hex {size}x{size}{}",
                if swap { " with swap" } else { "" }
            ),
            GameChoice::Othello { size } => write!(f, "othello {size}x{size}"),
            GameChoice::Connect4 { width, height } => write!(f, "connect4 {width}x{height}"),
            GameChoice::TicTacToe => f.write_str("tictactoe 3x3"),
        }
    }
}
