//! The run directory: its settings file and its journal of games, created, resumed and
//! appended to.

use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::csv::{game_line, games_text, read_games};
use super::{GAMES, GAMES_HEADER, Journal, RunError, SETTINGS, Settings};
use crate::{GameResult, Pairing};

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

/// The settings of the run in `dir`.
///
/// # Errors
///
/// [`RunError::NotARun`] without a settings file, [`RunError::Settings`] for a bad line,
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
    text.parse()
        .map_err(|source| RunError::Settings { path, source })
}

/// Writes `dir/games.csv` with `results` sorted by game number, through a temporary file.
pub(super) fn write_games(
    dir: &Path,
    names: &[String],
    results: &[GameResult],
) -> Result<(), RunError> {
    write_atomically(&dir.join(GAMES), &games_text(names, results))
}

/// Writes `text` to `path` through a temporary file renamed over it.
pub(super) fn write_atomically(path: &Path, text: &str) -> Result<(), RunError> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, text).map_err(io_at(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io_at(path))
}

/// A function that names `path` in an I/O error.
pub(super) fn io_at(path: &Path) -> impl Fn(io::Error) -> RunError + '_ {
    move |source| RunError::Io {
        path: path.to_owned(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Outcome, Player};

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
    fn a_bad_settings_line_is_named() {
        let dir = std::env::temp_dir().join(format!("journal-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(SETTINGS), "# a comment\ngames = 4\ngames: 5\n").unwrap();
        let error = read_settings(&dir).unwrap_err();
        assert!(
            error.to_string().ends_with(&format!(
                "{SETTINGS}: line 3: not `key = value`: \"games: 5\""
            )),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
