//! What the tool examples share: the flags that choose a game, the progress bar, how they
//! print and how they end.

#![allow(
    dead_code,
    unused_imports,
    unused_macros,
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

/// `println!` for the examples: the same, except that a closed standard output (`| head -1`)
/// ends the example quietly with status 0 where `println!` panics ([`arena::cli::say`]).
///
/// [`arena::cli::say`]: gamesearch::arena::cli::say
macro_rules! say {
    () => {
        gamesearch::arena::cli::say(format_args!(""))
    };
    ($($arg:tt)*) => {
        gamesearch::arena::cli::say(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// The text of a file that a tool appends to a line at a time (empty when there is no file
/// yet). A last line cut short by an earlier stop is dropped from the file first, and said on
/// standard error, so that the next line appended starts a line of its own.
pub(crate) fn read_appended(path: &std::path::Path) -> Result<String, String> {
    let name = path.display();
    let mut text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    if complete < text.len() {
        eprintln!("{name}: dropping an unfinished last line");
        text.truncate(complete);
        std::fs::write(path, &text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    Ok(text)
}
