//! `settings.txt`: a run's settings as `key = value` lines, and the shard they play.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{COMMAND, MERGED, OPENING, SHARD};
use crate::Pairing;

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

/// A text that is not a shard (`K/N` with `1 <= K <= N`); it hands the text back.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{0:?} is not a shard: K/N with 1 <= K <= N, such as 3/8")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || ShardError(text.to_owned());
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

/// What is wrong with a run's settings.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SettingsError {
    /// A line of `settings.txt` is not `key = value`.
    #[error("line {line}: not `key = value`: {text:?}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A key the run needs is missing.
    #[error("no {0}")]
    Missing(&'static str),
    /// A key's value cannot be read.
    #[error("{key} = {value}: {reason}")]
    Value {
        /// The key.
        key: &'static str,
        /// Its value.
        value: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// The shard is not `K/N`.
    #[error(transparent)]
    Shard(#[from] ShardError),
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
    pub fn shard(&self) -> Result<Shard, ShardError> {
        self.get(SHARD).map_or(Ok(Shard::WHOLE), str::parse)
    }

    /// The schedule of a run of `agents` agents with these settings: its `format` and
    /// `games` keys and its [`OPENING`]s, as [`schedule_with_openings`](crate::schedule_with_openings)
    /// makes it.
    ///
    /// # Errors
    ///
    /// [`SettingsError::Missing`] when either key is missing, [`SettingsError::Value`] when
    /// it is not a format or a number.
    pub fn schedule(&self, agents: usize) -> Result<Vec<Pairing>, SettingsError> {
        let value = |key: &'static str| self.get(key).ok_or(SettingsError::Missing(key));
        let bad = |key: &'static str, value: &str, reason: String| SettingsError::Value {
            key,
            value: value.to_owned(),
            reason,
        };
        let format_text = value("format")?;
        let format: crate::Format = format_text
            .parse()
            .map_err(|reason| bad("format", format_text, reason))?;
        let games_text = value("games")?;
        let games = games_text
            .parse()
            .map_err(|e: std::num::ParseIntError| bad("games", games_text, e.to_string()))?;
        let openings = u32::try_from(self.all(OPENING).count()).unwrap_or(u32::MAX);
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
        let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
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
    type Err = SettingsError;

    /// Reads `settings.txt`: `key = value` lines; empty lines and lines that start with `#`
    /// are skipped.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut settings = Settings::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once(" = ").ok_or_else(|| SettingsError::Line {
                line: n + 1,
                text: line.to_owned(),
            })?;
            settings = settings.with(k.trim(), v.trim());
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let error = "k = v\nno equals sign".parse::<Settings>().unwrap_err();
        assert_eq!(
            error,
            SettingsError::Line {
                line: 2,
                text: "no equals sign".to_owned()
            }
        );
        assert!(error.to_string().starts_with("line 2"));
    }

    #[test]
    fn a_schedule_needs_its_format_and_games() {
        let settings = Settings::new().with("format", "round-robin");
        assert_eq!(
            settings.schedule(2).unwrap_err(),
            SettingsError::Missing("games")
        );
        let settings = settings.with("games", "x");
        assert!(matches!(
            settings.schedule(2),
            Err(SettingsError::Value { key: "games", .. })
        ));
        let settings = settings.replaced("games", "4");
        assert_eq!(settings.schedule(2).unwrap().len(), 4);
        let bad = Settings::new().with("format", "swiss").with("games", "4");
        assert!(
            bad.schedule(2)
                .unwrap_err()
                .to_string()
                .starts_with("format = swiss: unknown format")
        );
    }
}
