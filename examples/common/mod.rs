//! What the tool examples share: the flags that choose a game, the progress bar, and how
//! they end.

#![allow(dead_code, reason = "each example uses a part of this module")]

use std::fmt::Display;
use std::process::ExitCode;

use clap::Args;
use clap::error::ErrorKind;
use gamesearch::arena::GameChoice;
use indicatif::{ProgressBar, ProgressStyle};

/// `--game`, `--size`, `--swap`.
#[derive(Args, Debug)]
pub(crate) struct GameArgs {
    /// The game: hex, othello or connect4.
    #[arg(long)]
    game: String,
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
        &self.game
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
        GameChoice::new(&self.game, self.size.as_deref(), self.swap)
            .unwrap_or_else(|e| usage_error(e))
    }
}

/// Exits with code 2 and `message`, as clap does for a bad argument.
pub(crate) fn usage_error(message: impl Display) -> ! {
    clap::Error::raw(ErrorKind::ValueValidation, format!("{message}\n")).exit()
}

/// The exit code of a tool that ran: success, or the error on standard error and code 1.
pub(crate) fn finish<E: Display>(tool: &str, result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{tool}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The progress bar of a tool that plays `games` games: done and total, time elapsed, an
/// estimate of the time left, and a message (a label or the leader) after them. Hidden when
/// standard error is not a terminal.
pub(crate) fn progress_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left  {msg}",
        )
        .expect("a valid template"),
    );
    bar
}
