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
//! ([`Pairing::seeds`]), so a game plays the same whether it is played in one run, after a
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

use std::collections::BTreeMap;
use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use game_core::{Outcome, Player};
use search::{AgentSpec, SpecError};
use thiserror::Error;

use crate::{GameResult, Pairing, TextGame, play_games_until};

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

/// A deterministic share of a run's games: shard `index` of `count` plays the games whose
/// number (from 0) leaves the remainder `index - 1` divided by `count`. Written `K/N`.
///
/// ```
/// use arena::journal::Shard;
///
/// let shard: Shard = "2/3".parse()?;
/// assert!(shard.contains(1) && shard.contains(4) && !shard.contains(0));
/// assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
/// assert_eq!(Shard::WHOLE.to_string(), "1/1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u32,
    /// How many shares.
    pub count: u32,
}

impl Shard {
    /// The whole run: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether the game numbered `number` (from 0) is in this shard.
    #[must_use]
    pub fn contains(&self, number: u64) -> bool {
        number % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{text:?} is not a shard: K/N with 1 <= K <= N, such as 3/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// A run's settings: ordered `key = value` lines, a key possibly repeated (one `agent` line per
/// agent). Two runs play the same games exactly when their settings, the command line apart,
/// are equal.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Settings {
    lines: Vec<(String, String)>,
}

impl Settings {
    /// No settings yet.
    #[must_use]
    pub fn new() -> Self {
        Settings::default()
    }

    /// These settings and `key = value` (values are kept on one line).
    #[must_use]
    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.lines
            .push((key.to_owned(), value.replace(['\n', '\r'], " ")));
        self
    }

    /// The first value of `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.lines
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The shard these settings play (the whole run when they name none).
    ///
    /// # Errors
    ///
    /// When the `shard` value is not `K/N`.
    pub fn shard(&self) -> Result<Shard, String> {
        self.get(SHARD).map_or(Ok(Shard::WHOLE), str::parse)
    }

    /// The schedule of a run of `agents` agents with these settings: its `format` and
    /// `games` keys and its [`OPENING`]s, as [`schedule_with_openings`](crate::schedule_with_openings)
    /// makes it.
    ///
    /// # Errors
    ///
    /// When either key is missing or not a format or a number.
    pub fn schedule(&self, agents: usize) -> Result<Vec<Pairing>, String> {
        let format: crate::Format = self.get("format").ok_or("no format")?.parse()?;
        let games = self
            .get("games")
            .and_then(|g| g.parse().ok())
            .ok_or("no number of games")?;
        let openings = u32::try_from(self.all(OPENING).count()).map_err(|e| e.to_string())?;
        Ok(crate::schedule_with_openings(
            agents,
            format,
            games,
            openings.max(1),
        ))
    }

    /// These settings with `key`'s values replaced by one `value` (added at the end if absent).
    #[must_use]
    pub fn replaced(mut self, key: &str, value: &str) -> Self {
        match self.lines.iter().position(|(k, _)| k == key) {
            Some(first) => {
                self.lines[first].1 = value.to_owned();
                let mut n = 0;
                self.lines.retain(|(k, _)| {
                    n += usize::from(k == key);
                    k != key || n == 1
                });
                self
            }
            None => self.with(key, value),
        }
    }

    /// What differs between these settings and `other`, leaving out the keys in `ignore` and
    /// the informational ones ([`COMMAND`], [`MERGED`]): one line per key, `key: this vs
    /// other`.
    #[must_use]
    pub fn differences(&self, other: &Settings, ignore: &[&str]) -> Vec<String> {
        let group = |s: &Settings| {
            let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (k, v) in &s.lines {
                if k != COMMAND && k != MERGED && !ignore.contains(&k.as_str()) {
                    map.entry(k.clone()).or_default().push(v.clone());
                }
            }
            map
        };
        let (a, b) = (group(self), group(other));
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        let show =
            |v: Option<&Vec<String>>| v.map_or_else(|| "(none)".to_owned(), |v| v.join(" | "));
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| format!("{k}: {} vs {}", show(a.get(k)), show(b.get(k))))
            .collect()
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# gamesearch run settings: a resumed run must match them, shards to merge must match them but their shard"
        )?;
        for (k, v) in &self.lines {
            writeln!(f, "{k} = {v}")?;
        }
        Ok(())
    }
}

impl FromStr for Settings {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut settings = Settings::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line
                .split_once(" = ")
                .ok_or_else(|| format!("line {}: not `key = value`: {line:?}", n + 1))?;
            settings = settings.with(k.trim(), v.trim());
        }
        Ok(settings)
    }
}

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
    /// A line of a file is wrong.
    #[error("{}, line {line}: {reason}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The shards to merge are not one whole run.
    #[error("{0}")]
    Shards(String),
    /// An agent spec cannot be built for the game.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

/// The games a journal holds, and whether a line cut short was dropped from its end.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// The finished games, in game order.
    pub results: Vec<GameResult>,
    /// The line number of a last line cut short (a run killed while writing it), dropped.
    pub dropped_line: Option<usize>,
}

/// A run directory open for recording games.
#[derive(Debug)]
pub struct RunDir {
    dir: PathBuf,
    file: Mutex<File>,
}

impl RunDir {
    /// Starts a run in `dir` (created if missing) with `settings`: writes `settings.txt` and
    /// the header of `games.csv`.
    ///
    /// # Errors
    ///
    /// [`RunError::Exists`] when `dir` holds a run already; [`RunError::Io`] when it cannot be
    /// written.
    pub fn create(dir: &Path, settings: &Settings) -> Result<RunDir, RunError> {
        let games = dir.join(GAMES);
        if games.exists() || dir.join(SETTINGS).exists() {
            return Err(RunError::Exists(dir.to_owned()));
        }
        std::fs::create_dir_all(dir).map_err(io_at(dir))?;
        write_atomically(&dir.join(SETTINGS), &settings.to_string())?;
        let mut file = File::create(&games).map_err(io_at(&games))?;
        file.write_all(format!("{GAMES_HEADER}\n").as_bytes())
            .map_err(io_at(&games))?;
        Ok(RunDir {
            dir: dir.to_owned(),
            file: Mutex::new(file),
        })
    }

    /// Continues the run in `dir`, which must have been started with `settings` (the command
    /// line apart): reads its journal (the games of `pairings`, played by the agents called
    /// `names`), drops a last line cut short, and opens the journal for more.
    ///
    /// # Errors
    ///
    /// [`RunError::NotARun`], [`RunError::Differs`], a [`RunError::Line`] that does not read
    /// as a game of this run, or [`RunError::Io`].
    pub fn resume(
        dir: &Path,
        settings: &Settings,
        names: &[String],
        pairings: &[Pairing],
    ) -> Result<(RunDir, Journal), RunError> {
        let theirs = read_settings(dir)?;
        let differences = theirs.differences(settings, &[]);
        if !differences.is_empty() {
            return Err(RunError::Differs {
                dir: dir.to_owned(),
                differences,
            });
        }
        let path = dir.join(GAMES);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(RunError::Io { path, source: e }),
        };
        let journal = read_games(&path, &text, names, pairings, false)?;
        // Keep the complete lines (or write the header) before appending.
        let complete = text.rfind('\n').map_or(0, |end| end + 1);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io_at(&path))?;
        if complete < text.len() || complete == 0 {
            file.set_len(complete as u64).map_err(io_at(&path))?;
        }
        if complete == 0 {
            file.write_all(format!("{GAMES_HEADER}\n").as_bytes())
                .map_err(io_at(&path))?;
        }
        Ok((
            RunDir {
                dir: dir.to_owned(),
                file: Mutex::new(file),
            },
            journal,
        ))
    }

    /// The run's directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends one finished game to the journal and flushes it (one `write` call, so a kill
    /// leaves at most the end of this line missing, never a line half-mixed with another).
    ///
    /// # Errors
    ///
    /// [`RunError::Io`] when the journal cannot be written.
    pub fn record(&self, names: &[String], result: &GameResult) -> Result<(), RunError> {
        let line = game_line(names, result);
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(io_at(&self.dir.join(GAMES)))
    }

    /// Rewrites the journal with `results` in game order (through a new file renamed over
    /// the old one, so that a kill leaves one or the other).
    ///
    /// # Errors
    ///
    /// [`RunError::Io`] when the journal cannot be written.
    pub fn rewrite_in_order(
        &self,
        names: &[String],
        results: &[GameResult],
    ) -> Result<(), RunError> {
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        write_games(&self.dir, names, results)?;
        // Games recorded after this go to the new file, not the one renamed over.
        let path = self.dir.join(GAMES);
        *file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io_at(&path))?;
        Ok(())
    }
}

/// What [`play_share`] played: every game of the share so far, and how the run went.
#[derive(Debug)]
pub struct Played {
    /// The games of the journal before and the new ones, in game order.
    pub results: Vec<GameResult>,
    /// How many of them this call played.
    pub new: usize,
    /// Whether every game of the share has been played (a stop leaves it short).
    pub complete: bool,
    /// The first journal write that failed; it stopped the run.
    pub failure: Option<RunError>,
}

/// Plays the games of `share` (a run's games, or a shard of them) that `done` does not hold,
/// each from its opening in `starts`, between the agents `specs` called `names`, in parallel
/// until `stop` is set ([`play_games_until`]): each game is recorded in `run` as it ends, then
/// passed to `on_result`; a write that fails sets `stop`. At the end the journal is rewritten
/// in game order. This is the loop of `tournament` and `experiments`, which add the progress
/// and the tables.
///
/// # Errors
///
/// [`RunError::Spec`] when a spec cannot be built for this game (before any game), and
/// [`RunError::Io`] when the journal cannot be rewritten.
#[allow(
    clippy::too_many_arguments,
    reason = "the run, the games, and how to report them"
)]
pub fn play_share<G: TextGame>(
    run: Option<&RunDir>,
    starts: &[G],
    specs: &[AgentSpec],
    names: &[String],
    share: &[Pairing],
    done: Vec<GameResult>,
    seed: u64,
    stop: &Arc<AtomicBool>,
    on_result: impl Fn(&GameResult) + Sync,
) -> Result<Played, RunError> {
    let played: HashSet<u64> = done.iter().map(|r| r.pairing.number).collect();
    let todo: Vec<Pairing> = share
        .iter()
        .filter(|p| !played.contains(&p.number))
        .copied()
        .collect();
    let failure = Mutex::new(None);
    let new = play_games_until(starts, specs, &todo, seed, stop, |r| {
        if let Some(run) = run
            && let Err(e) = run.record(names, r)
        {
            failure
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        }
        on_result(r);
    })?;
    let count = new.len();
    let mut results = done;
    results.extend(new);
    results.sort_by_key(|r| r.pairing.number);
    if let Some(run) = run {
        run.rewrite_in_order(names, &results)?;
    }
    Ok(Played {
        complete: results.len() >= share.len(),
        results,
        new: count,
        failure: failure.into_inner().unwrap_or_else(PoisonError::into_inner),
    })
}

/// Writes `dir/games.csv` with `results` sorted by game number, through a temporary file.
fn write_games(dir: &Path, names: &[String], results: &[GameResult]) -> Result<(), RunError> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.pairing.number);
    let mut text = format!("{GAMES_HEADER}\n");
    for r in sorted {
        text.push_str(&game_line(names, r));
    }
    write_atomically(&dir.join(GAMES), &text)
}

/// Writes `text` to `path` through a temporary file renamed over it.
fn write_atomically(path: &Path, text: &str) -> Result<(), RunError> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, text).map_err(io_at(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io_at(path))
}

fn io_at(path: &Path) -> impl Fn(io::Error) -> RunError + '_ {
    move |source| RunError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The settings of the run in `dir`.
///
/// # Errors
///
/// [`RunError::NotARun`] without a settings file, [`RunError::Line`] for a bad line,
/// [`RunError::Io`].
pub fn read_settings(dir: &Path) -> Result<Settings, RunError> {
    let path = dir.join(SETTINGS);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(RunError::NotARun(dir.to_owned()));
        }
        Err(e) => return Err(RunError::Io { path, source: e }),
    };
    text.parse().map_err(|reason: String| {
        let line = reason
            .strip_prefix("line ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        RunError::Line {
            path: path.clone(),
            line,
            reason,
        }
    })
}

/// One game's line of `games.csv` (with its newline).
#[must_use]
pub fn game_line(names: &[String], r: &GameResult) -> String {
    let result = match r.outcome {
        Outcome::Win(Player::Black) => "1-0",
        Outcome::Win(Player::White) => "0-1",
        Outcome::Draw => "1/2",
    };
    format!(
        "{},{},{},{result},{},{:.3}\n",
        r.pairing.number + 1,
        csv_field(&names[r.pairing.black]),
        csv_field(&names[r.pairing.white]),
        r.plies,
        r.seconds
    )
}

/// A CSV field, quoted when it holds a comma or a quote (agent specs hold commas).
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Reads the games of a journal's `text` (from `path`, for messages): each line must be a game
/// of `pairings` between the agents it names, played once. A last line without its newline is
/// a write cut short: reported in [`Journal::dropped_line`] and left out, or an error when
/// `strict`.
///
/// # Errors
///
/// [`RunError::Line`] for a line that is not a game of this run, a game that appears twice,
/// or (when `strict`) a last line cut short.
pub fn read_games(
    path: &Path,
    text: &str,
    names: &[String],
    pairings: &[Pairing],
    strict: bool,
) -> Result<Journal, RunError> {
    let mut journal = Journal::default();
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    let lines = text[..complete].lines().count();
    if complete < text.len() {
        let line = lines + 1;
        if strict {
            return Err(RunError::Line {
                path: path.to_owned(),
                line,
                reason: "cut short (the run was stopped while writing it: resume it first)"
                    .to_owned(),
            });
        }
        journal.dropped_line = Some(line);
    }
    for (index, line) in text[..complete].lines().enumerate() {
        let number = index + 1;
        let bad = |reason: String| RunError::Line {
            path: path.to_owned(),
            line: number,
            reason,
        };
        if index == 0 {
            if line != GAMES_HEADER {
                return Err(bad(format!("expected the header {GAMES_HEADER:?}")));
            }
            continue;
        }
        let result = parse_game(line, names, pairings).map_err(bad)?;
        if let Some(first) = seen.insert(result.pairing.number, number) {
            return Err(bad(format!(
                "game {} is on line {first} already",
                result.pairing.number + 1
            )));
        }
        journal.results.push(result);
    }
    journal.results.sort_by_key(|r| r.pairing.number);
    Ok(journal)
}

/// One line of `games.csv` as a game of `pairings`.
fn parse_game(line: &str, names: &[String], pairings: &[Pairing]) -> Result<GameResult, String> {
    let malformed = || format!("not a game: {line:?}");
    let (game, rest) = line.split_once(',').ok_or_else(malformed)?;
    let mut tail = rest.rsplitn(4, ',');
    let (Some(seconds), Some(plies), Some(result), Some(players)) =
        (tail.next(), tail.next(), tail.next(), tail.next())
    else {
        return Err(malformed());
    };
    let number: u64 = game.parse().map_err(|_| malformed())?;
    let pairing = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|n| pairings.get(n))
        .copied()
        .ok_or_else(|| format!("game {number} is not in this run's schedule"))?;
    let expected = format!(
        "{},{}",
        csv_field(&names[pairing.black]),
        csv_field(&names[pairing.white])
    );
    if players != expected {
        return Err(format!(
            "game {number} was {expected} in this run's schedule, not {players}"
        ));
    }
    let outcome = match result {
        "1-0" => Outcome::Win(Player::Black),
        "0-1" => Outcome::Win(Player::White),
        "1/2" => Outcome::Draw,
        _ => return Err(format!("{result:?} is not a result (1-0, 0-1 or 1/2)")),
    };
    Ok(GameResult {
        pairing,
        outcome,
        plies: plies.parse().map_err(|_| malformed())?,
        seconds: seconds.parse().map_err(|_| malformed())?,
    })
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
/// from its settings; its games are [`Settings::schedule`] for that many agents.
///
/// # Errors
///
/// [`RunError::Differs`] for settings other than the first directory's (the shard apart),
/// [`RunError::Shards`] for a shard missing, repeated or incomplete, [`RunError::Line`] for a
/// journal line that is not a game of the run or is cut short, [`RunError::Exists`] when `out`
/// holds a run, [`RunError::Io`].
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    names: impl Fn(&Settings) -> Result<Vec<String>, String>,
) -> Result<Merged, RunError> {
    let Some(first_dir) = dirs.first() else {
        return Err(RunError::Shards("nothing to merge".to_owned()));
    };
    let first = read_settings(first_dir)?;
    let invalid = |dir: &Path, reason: String| {
        RunError::Shards(format!("{}: {reason}", dir.join(SETTINGS).display()))
    };
    let names = names(&first).map_err(|r| invalid(first_dir, r))?;
    let pairings = first
        .schedule(names.len())
        .map_err(|r| invalid(first_dir, r))?;
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
        let shard = settings.shard().map_err(|r| invalid(dir, r))?;
        if *count.get_or_insert(shard.count) != shard.count {
            return Err(RunError::Shards(format!(
                "{} is shard {shard} but {} is of {} shards",
                dir.display(),
                first_dir.display(),
                count.unwrap_or(0)
            )));
        }
        if let Some(other) = shards.insert(shard.index, dir) {
            return Err(RunError::Shards(format!(
                "{} and {} are both shard {shard}",
                other.display(),
                dir.display()
            )));
        }
        let path = dir.join(GAMES);
        let text = std::fs::read_to_string(&path).map_err(io_at(&path))?;
        let journal = read_games(&path, &text, &names, &pairings, true)?;
        let share: Vec<u64> = pairings
            .iter()
            .map(|p| p.number)
            .filter(|&n| shard.contains(n))
            .collect();
        if let Some(stray) = journal
            .results
            .iter()
            .find(|r| !shard.contains(r.pairing.number))
        {
            return Err(RunError::Shards(format!(
                "{}: game {} is not in shard {shard}",
                path.display(),
                stray.pairing.number + 1
            )));
        }
        if journal.results.len() < share.len() {
            return Err(RunError::Shards(format!(
                "{} is incomplete: {} of its {} games (resume it with --resume {})",
                dir.display(),
                journal.results.len(),
                share.len(),
                dir.display()
            )));
        }
        results.extend(journal.results);
    }
    let count = count.unwrap_or(1);
    let missing: Vec<String> = (1..=count)
        .filter(|k| !shards.contains_key(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(RunError::Shards(format!(
            "shard {} missing from the merge",
            missing.join(", ")
        )));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, schedule};

    fn result(pairing: Pairing, outcome: Outcome) -> GameResult {
        GameResult {
            pairing,
            outcome,
            plies: 7,
            seconds: 0.25,
        }
    }

    #[test]
    fn a_line_cut_short_is_dropped_on_resume_and_the_journal_goes_on() {
        let dir = std::env::temp_dir().join(format!("journal-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let names = vec!["a,1".to_owned(), "b".to_owned()];
        let pairings = schedule(2, Format::RoundRobin, 4);
        let settings = Settings::new().with("games", "4");
        let run = RunDir::create(&dir, &settings).unwrap();
        run.record(&names, &result(pairings[2], Outcome::Draw))
            .unwrap();
        run.record(&names, &result(pairings[0], Outcome::Win(Player::White)))
            .unwrap();
        drop(run);
        let path = dir.join(GAMES);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().nth(1), Some("3,\"a,1\",b,1/2,7,0.250"));
        text.push_str("2,b,\"a,1\",1-");
        std::fs::write(&path, &text).unwrap();

        let (run, journal) = RunDir::resume(&dir, &settings, &names, &pairings).unwrap();
        assert_eq!(journal.dropped_line, Some(4));
        let numbers: Vec<u64> = journal.results.iter().map(|r| r.pairing.number).collect();
        assert_eq!(numbers, [0, 2], "in game order");
        assert_eq!(journal.results[0].outcome, Outcome::Win(Player::White));
        run.record(&names, &result(pairings[1], Outcome::Win(Player::Black)))
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.ends_with("2,b,\"a,1\",1-0,7,0.250\n"), "{text}");
        // Rewritten in game order, and still open for more.
        let mut all = journal.results;
        all.push(result(pairings[1], Outcome::Win(Player::Black)));
        run.rewrite_in_order(&names, &all).unwrap();
        run.record(&names, &result(pairings[3], Outcome::Draw))
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let numbers: Vec<&str> = text.lines().skip(1).map(|l| &l[..1]).collect();
        assert_eq!(numbers, ["1", "2", "3", "4"], "{text}");
        // The same text read strictly (as merge reads) is refused at that line.
        let torn = format!("{text}5,");
        let error = read_games(&path, &torn, &names, &pairings, true).unwrap_err();
        assert!(
            error.to_string().ends_with(
                "line 6: cut short (the run was stopped while writing it: resume it first)"
            ),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn settings_round_trip_and_name_their_differences() {
        let a = Settings::new()
            .with("agent", "uct:c=0.3,iterations=10")
            .with("agent", "random")
            .with(SHARD, "1/2")
            .with(COMMAND, "x");
        let text = a.to_string();
        assert_eq!(text.parse::<Settings>().unwrap(), a);
        let b = a.clone().replaced(SHARD, "2/2").replaced(COMMAND, "y");
        assert_eq!(a.differences(&b, &[SHARD]), Vec::<String>::new());
        assert_eq!(a.differences(&b, &[]), ["shard: 1/2 vs 2/2"]);
        let c = Settings::new().with("agent", "random");
        assert_eq!(
            c.differences(&a, &[SHARD]),
            ["agent: random vs uct:c=0.3,iterations=10 | random"]
        );
        assert_eq!(b.shard().unwrap(), Shard { index: 2, count: 2 });
        assert!(
            "k = v\nno equals sign"
                .parse::<Settings>()
                .unwrap_err()
                .starts_with("line 2")
        );
    }
}
