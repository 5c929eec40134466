//! `games.csv`: one line per finished game, written and read.

use std::collections::BTreeMap;
use std::path::Path;

use game_core::{Outcome, Player};
use thiserror::Error;

use super::{GAMES_HEADER, RunError};
use crate::{GameResult, Pairing};

/// The games a journal holds, and whether a line cut short was dropped from its end.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// The finished games, in game order.
    pub results: Vec<GameResult>,
    /// The line number of a last line cut short (a run killed while writing it), dropped.
    pub dropped_line: Option<usize>,
}

/// What is wrong with a line of `games.csv` ([`RunError::Line`] names the file and the line).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum LineError {
    /// The first line is not [`GAMES_HEADER`].
    #[error("expected the header {GAMES_HEADER:?}")]
    Header,
    /// The line does not read as a game; it is handed back.
    #[error("not a game: {0:?}")]
    NotAGame(String),
    /// The game's number (from 1) is not in the run's schedule.
    #[error("game {0} is not in this run's schedule")]
    NotScheduled(u64),
    /// The game (numbered from 1) was scheduled between other agents.
    #[error("game {game} was {expected} in this run's schedule, not {found}")]
    Players {
        /// The game's number, from 1.
        game: u64,
        /// `black,white` as the schedule has them.
        expected: String,
        /// `black,white` as the line has them.
        found: String,
    },
    /// The result is not `1-0`, `0-1` or `1/2`; it is handed back.
    #[error("{0:?} is not a result (1-0, 0-1 or 1/2)")]
    Result(String),
    /// The game (numbered from 1) is on an earlier line too.
    #[error("game {game} is on line {first} already")]
    Twice {
        /// The game's number, from 1.
        game: u64,
        /// The earlier line, from 1.
        first: usize,
    },
    /// The last line has no newline: the run was killed while writing it.
    #[error("cut short (the run was stopped while writing it: resume it first)")]
    CutShort,
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

/// `games.csv`'s text: the header, then `results` sorted by game number.
pub(super) fn games_text(names: &[String], results: &[GameResult]) -> String {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.pairing.number);
    let mut text = format!("{GAMES_HEADER}\n");
    for r in sorted {
        text.push_str(&game_line(names, r));
    }
    text
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
    let at = |line: usize| {
        move |reason: LineError| RunError::Line {
            path: path.to_owned(),
            line,
            reason,
        }
    };
    if complete < text.len() {
        let line = lines + 1;
        if strict {
            return Err(at(line)(LineError::CutShort));
        }
        journal.dropped_line = Some(line);
    }
    for (index, line) in text[..complete].lines().enumerate() {
        let number = index + 1;
        if index == 0 {
            if line != GAMES_HEADER {
                return Err(at(number)(LineError::Header));
            }
            continue;
        }
        let result = parse_game(line, names, pairings).map_err(at(number))?;
        if let Some(first) = seen.insert(result.pairing.number, number) {
            return Err(at(number)(LineError::Twice {
                game: result.pairing.number + 1,
                first,
            }));
        }
        journal.results.push(result);
    }
    journal.results.sort_by_key(|r| r.pairing.number);
    Ok(journal)
}

/// One line of `games.csv` as a game of `pairings`.
fn parse_game(line: &str, names: &[String], pairings: &[Pairing]) -> Result<GameResult, LineError> {
    let malformed = || LineError::NotAGame(line.to_owned());
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
        .ok_or(LineError::NotScheduled(number))?;
    let expected = format!(
        "{},{}",
        csv_field(&names[pairing.black]),
        csv_field(&names[pairing.white])
    );
    if players != expected {
        return Err(LineError::Players {
            game: number,
            expected,
            found: players.to_owned(),
        });
    }
    let outcome = match result {
        "1-0" => Outcome::Win(Player::Black),
        "0-1" => Outcome::Win(Player::White),
        "1/2" => Outcome::Draw,
        _ => return Err(LineError::Result(result.to_owned())),
    };
    Ok(GameResult {
        pairing,
        outcome,
        plies: plies.parse().map_err(|_| malformed())?,
        seconds: seconds.parse().map_err(|_| malformed())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, schedule};

    /// A journal as the first version of this code wrote it (a spec with commas quoted, the
    /// games in the order they ended, a last line cut short by a kill) still reads.
    #[test]
    fn a_journal_written_before_reads() {
        let names = vec!["uct:iterations=100,c=0.7".to_owned(), "mc".to_owned()];
        let pairings = schedule(2, Format::RoundRobin, 4);
        let text = "game,black,white,result,plies,seconds\n\
                    2,mc,\"uct:iterations=100,c=0.7\",0-1,21,0.014\n\
                    1,\"uct:iterations=100,c=0.7\",mc,1-0,17,0.009\n\
                    4,mc,\"uct:iterations=100,c=0.7\",1/2,42,0.030\n\
                    3,\"uct:iter";
        let journal = read_games(Path::new("games.csv"), text, &names, &pairings, false).unwrap();
        assert_eq!(journal.dropped_line, Some(5));
        let numbers: Vec<u64> = journal.results.iter().map(|r| r.pairing.number).collect();
        assert_eq!(numbers, [0, 1, 3]);
        assert_eq!(journal.results[1].outcome, Outcome::Win(Player::White));
        assert_eq!(journal.results[2].outcome, Outcome::Draw);
        assert_eq!(journal.results[2].plies, 42);
        // Written back, in game order, the lines are the same.
        let back = games_text(&names, &journal.results);
        let mut lines: Vec<&str> = text.lines().take(4).collect();
        lines[1..].sort_unstable();
        assert_eq!(back.lines().collect::<Vec<_>>(), lines);
        let error = read_games(Path::new("games.csv"), text, &names, &pairings, true).unwrap_err();
        assert!(matches!(
            error,
            RunError::Line {
                line: 5,
                reason: LineError::CutShort,
                ..
            }
        ));
    }
}
