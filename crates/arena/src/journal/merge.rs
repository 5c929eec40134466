//! The merge: the shard directories of one run into the run one machine would have written.

use std::collections::BTreeMap;
use std::error::Error as StdError;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::csv::read_games;
use super::run_dir::{io_at, read_settings, write_atomically, write_games};
use super::{GAMES, MERGED, RunError, SETTINGS, SHARD, Settings, Shard};
use crate::GameResult;

/// Why shards are not one whole run ([`RunError::Shards`]).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum ShardsError {
    /// No directory was given.
    #[error("nothing to merge")]
    Nothing,
    /// A shard is of another number of shards than the first directory's.
    #[error("{} is shard {shard} but {} is of {count} shards", dir.display(), first.display())]
    Count {
        /// The shard's directory.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// The first directory.
        first: PathBuf,
        /// The first directory's number of shards.
        count: u32,
    },
    /// Two directories are the same shard.
    #[error("{} and {} are both shard {shard}", first.display(), second.display())]
    Twice {
        /// The first directory with it.
        first: PathBuf,
        /// The second.
        second: PathBuf,
        /// The shard.
        shard: Shard,
    },
    /// A journal holds a game of another shard.
    #[error("{}: game {game} is not in shard {shard}", path.display())]
    Stray {
        /// The journal.
        path: PathBuf,
        /// The game's number, from 1.
        game: u64,
        /// The journal's shard.
        shard: Shard,
    },
    /// A shard has not played all its games.
    #[error(
        "{dir} is incomplete: {played} of its {games} games (resume it with --resume {dir})",
        dir = dir.display()
    )]
    Incomplete {
        /// The shard's directory.
        dir: PathBuf,
        /// The games it holds.
        played: usize,
        /// The games of its share.
        games: usize,
    },
    /// Shards are missing.
    #[error("shard {} missing from the merge", list(.0))]
    Missing(Vec<Shard>),
}

fn list(shards: &[Shard]) -> String {
    let shards: Vec<String> = shards.iter().map(ToString::to_string).collect();
    shards.join(", ")
}

/// A merged run: its settings (the whole run) and every game.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The settings, the shard being the whole run.
    pub settings: Settings,
    /// Every game of the run, in game order.
    pub results: Vec<GameResult>,
}

/// Merges the shard directories `dirs` of one run into `out`: checks that they are shards
/// `1/N` to `N/N` of the same settings, each complete, and writes `out/settings.txt` (the
/// whole run) and `out/games.csv` (every game, in order). `names` reads a run's agents' names
/// from its settings (or says why it cannot, with any error type, a `String` too); its games
/// are [`Settings::schedule`] for that many agents.
///
/// # Errors
///
/// [`RunError::Differs`] for settings other than the first directory's (the shard apart),
/// [`RunError::Names`] or [`RunError::Settings`] for settings that are not of a run `names`
/// knows, [`RunError::Shards`] for a shard missing, repeated or incomplete,
/// [`RunError::Line`] for a journal line that is not a game of the run or is cut short,
/// [`RunError::Exists`] when `out` holds a run, [`RunError::Io`].
pub fn merge<E: Into<Box<dyn StdError + Send + Sync>>>(
    dirs: &[PathBuf],
    out: &Path,
    names: impl Fn(&Settings) -> Result<Vec<String>, E>,
) -> Result<Merged, RunError> {
    let Some(first_dir) = dirs.first() else {
        return Err(ShardsError::Nothing.into());
    };
    let first = read_settings(first_dir)?;
    let names = names(&first).map_err(|e| RunError::Names {
        path: first_dir.join(SETTINGS),
        source: e.into(),
    })?;
    let settings_error = |dir: &Path| {
        let path = dir.join(SETTINGS);
        move |e| RunError::Settings {
            path,
            source: super::SettingsError::from(e),
        }
    };
    let pairings = first
        .schedule(names.len())
        .map_err(|source| RunError::Settings {
            path: first_dir.join(SETTINGS),
            source,
        })?;
    let mut shards: BTreeMap<u32, &PathBuf> = BTreeMap::new();
    let mut count = None;
    let mut results = Vec::new();
    for dir in dirs {
        let settings = read_settings(dir)?;
        let differences = settings.differences(&first, &[SHARD]);
        if !differences.is_empty() {
            return Err(RunError::Differs {
                dir: dir.clone(),
                differences,
            });
        }
        let shard = settings.shard().map_err(settings_error(dir))?;
        let count = *count.get_or_insert(shard.count);
        if count != shard.count {
            return Err(ShardsError::Count {
                dir: dir.clone(),
                shard,
                first: first_dir.clone(),
                count,
            }
            .into());
        }
        if let Some(other) = shards.insert(shard.index, dir) {
            return Err(ShardsError::Twice {
                first: other.clone(),
                second: dir.clone(),
                shard,
            }
            .into());
        }
        let path = dir.join(GAMES);
        let text = std::fs::read_to_string(&path).map_err(io_at(&path))?;
        let journal = read_games(&path, &text, &names, &pairings, true)?;
        let share = pairings.iter().filter(|p| shard.contains(p.number)).count();
        if let Some(stray) = journal
            .results
            .iter()
            .find(|r| !shard.contains(r.pairing.number))
        {
            return Err(ShardsError::Stray {
                path,
                game: stray.pairing.number + 1,
                shard,
            }
            .into());
        }
        if journal.results.len() < share {
            return Err(ShardsError::Incomplete {
                dir: dir.clone(),
                played: journal.results.len(),
                games: share,
            }
            .into());
        }
        results.extend(journal.results);
    }
    let count = count.unwrap_or(1);
    let missing: Vec<Shard> = (1..=count)
        .filter(|k| !shards.contains_key(k))
        .map(|index| Shard { index, count })
        .collect();
    if !missing.is_empty() {
        return Err(ShardsError::Missing(missing).into());
    }
    if out.join(GAMES).exists() || out.join(SETTINGS).exists() {
        return Err(RunError::Exists(out.to_owned()));
    }
    std::fs::create_dir_all(out).map_err(io_at(out))?;
    let sources: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let settings = first
        .replaced(SHARD, &Shard::WHOLE.to_string())
        .replaced(MERGED, &sources.join(" "));
    write_atomically(&out.join(SETTINGS), &settings.to_string())?;
    results.sort_by_key(|r| r.pairing.number);
    write_games(out, &names, &results)?;
    Ok(Merged { settings, results })
}
