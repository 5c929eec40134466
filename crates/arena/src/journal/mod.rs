//! Runs that lose nothing and scale out: a run directory keeps a run's settings and a journal
//! of its finished games, so that a stopped run resumes where it stopped and the shards of a
//! run, played on many machines, merge into what one machine would have produced.
//!
//! A run directory holds
//!
//! - `settings.txt`: `key = value` lines, everything that decides the games (the game, the
//!   agents, the schedule, the seed, the shard) and, for information only, the command line.
//!   A resumed run must have the same settings; shards to merge must have the same settings
//!   but their shard.
//! - `games.csv`: the header, then one line per finished game
//!   (`game,black,white,result,plies,seconds`, as [`games_csv`](crate::games_csv)), appended
//!   and flushed as each game ends, in the order they end. A line is written by one `write`
//!   call; a line cut short by a kill is recognised (no newline at its end) and dropped on
//!   resume. A finished run rewrites the file in game order.
//!
//! Every game's agents are seeded from the run's seed and the game's number
//! ([`Pairing::seeds`](crate::Pairing::seeds)), so a game plays the same whether it is played in one run, after a
//! resume or in a shard: with iteration budgets, a resumed or sharded run ends with exactly the
//! standings of an unbroken one.
//!
//! ```
//! use arena::journal::{RunDir, Settings, Shard};
//! use arena::{Format, schedule};
//!
//! let dir = std::env::temp_dir().join(format!("journal-doc-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//! let names = vec!["a".to_owned(), "b".to_owned()];
//! let settings = Settings::new()
//!     .with("agent", "a")
//!     .with("agent", "b")
//!     .with("shard", &Shard::WHOLE.to_string());
//! let pairings = schedule(2, Format::RoundRobin, 4);
//! let run = RunDir::create(&dir, &settings)?;
//! // ... play games, run.record(&names, &result) as each ends ...
//! drop(run);
//! let (_run, done) = RunDir::resume(&dir, &settings, &names, &pairings)?;
//! assert!(done.results.is_empty());
//! // Other settings are refused.
//! let other = Settings::new().with("agent", "a").with("agent", "c");
//! assert!(RunDir::resume(&dir, &other, &names, &pairings).is_err());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The module's files, one job each: [`settings`](Settings) (`settings.txt` and the
//! [`Shard`]), the run directory ([`RunDir`]), the CSV codec of `games.csv` ([`read_games`],
//! [`game_line`]), the play loop ([`play_share`]) and the [`merge`]; every failure is a
//! [`RunError`].

mod csv;
mod merge;
mod play;
mod run_dir;
mod settings;

use std::error::Error as StdError;
use std::io;
use std::path::PathBuf;

use search::SpecError;
use thiserror::Error;

pub(crate) use csv::csv_field;
pub use csv::{Journal, LineError, game_line, read_games};
pub use merge::{Merged, ShardsError, merge};
pub use play::{Played, play_share};
pub use run_dir::{RunDir, read_settings};
pub use settings::{Settings, SettingsError, Shard, ShardError};

/// The name of a run directory's settings file.
pub const SETTINGS: &str = "settings.txt";
/// The name of a run directory's journal of games.
pub const GAMES: &str = "games.csv";
/// The header of `games.csv`.
pub const GAMES_HEADER: &str = "game,black,white,result,plies,seconds";

/// The settings key of the command line: written for information, never compared.
pub const COMMAND: &str = "command";
/// The settings key of the shard directories a merged run came from: for information, never
/// compared.
pub const MERGED: &str = "merged";
/// The settings key of the shard.
pub const SHARD: &str = "shard";
/// The settings key of an opening (its moves), one per opening in the schedule's order.
pub const OPENING: &str = "opening";

/// What can go wrong with a run directory; each names the file (and line) at fault.
#[derive(Debug, Error)]
pub enum RunError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A new run was asked for where a run already is.
    #[error(
        "{dir} holds a run already (continue a stopped run with --resume {dir}), choose another directory",
        dir = .0.display()
    )]
    Exists(PathBuf),
    /// A directory holds no run (no settings file).
    #[error("{} holds no run ({SETTINGS} is missing)", .0.display())]
    NotARun(PathBuf),
    /// The settings differ from the run's.
    #[error("{} was run with other settings:\n  {}", dir.display(), differences.join("\n  "))]
    Differs {
        /// The run directory.
        dir: PathBuf,
        /// One line per differing key.
        differences: Vec<String>,
    },
    /// A settings file cannot be read as a run's settings.
    #[error("{}: {source}", path.display())]
    Settings {
        /// The settings file.
        path: PathBuf,
        /// What is wrong with it.
        source: SettingsError,
    },
    /// A line of a journal is wrong.
    #[error("{}, line {line}: {reason}", path.display())]
    Line {
        /// The journal.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: LineError,
    },
    /// The merge's reader of agents' names refused a run's settings.
    #[error("{}: {source}", path.display())]
    Names {
        /// The settings file.
        path: PathBuf,
        /// Why, as the reader said it.
        source: Box<dyn StdError + Send + Sync>,
    },
    /// The shards to merge are not one whole run.
    #[error(transparent)]
    Shards(#[from] ShardsError),
    /// An agent spec cannot be built for the game.
    #[error(transparent)]
    Spec(#[from] SpecError),
}
