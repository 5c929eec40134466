//! What the tool examples share: the flags that choose a game, the progress bar, and how
//! they end.

#![allow(
    dead_code,
    unused_imports,
    reason = "each example uses a part of this module"
)]

use clap::Args;
use gamesearch::arena::GameChoice;

/// `--game`, `--size`, `--swap`.
#[derive(Args, Debug)]
pub(crate) struct GameArgs {
    /// The game: hex, othello or connect4.
    #[arg(long, required = true)]
    game: Option<String>,
    /// The board: Hex 1-19 (default 11), Othello 8 or 6, Connect Four columns x rows (7x6).
    #[arg(long)]
    size: Option<String>,
    /// Hex: play with the swap (pie) rule.
    #[arg(long)]
    swap: bool,
}

impl GameArgs {
    /// The game's name as given.
    pub(crate) fn name(&self) -> &str {
        self.game.as_deref().unwrap_or_default()
    }

    /// The size as given.
    pub(crate) fn size(&self) -> Option<&str> {
        self.size.as_deref()
    }

    /// Whether `--swap` was given.
    pub(crate) fn swap(&self) -> bool {
        self.swap
    }

    /// The game these flags choose; exits with code 2 and the reason when there is none.
    pub(crate) fn choice(&self) -> GameChoice {
        GameChoice::new(self.name(), self.size.as_deref(), self.swap)
            .unwrap_or_else(|e| usage_error(e))
    }
}

pub(crate) use gamesearch::arena::cli::{
    finish, progress_bar, progress_bar_of, stop_flag, stop_flag_saying, usage_error,
};
