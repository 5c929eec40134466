//! Settings from text: one `key=value` for a config's `set` method, and the parsers of the
//! values they share.

use std::time::Duration;

use thiserror::Error;

/// Why a config refused a `key=value` setting ([`UctConfig::set`](crate::UctConfig::set) and
/// the other configs' `set`).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SettingError {
    /// The config has no such key.
    #[error("unknown key {key:?}: expected {}", expected.join(", "))]
    UnknownKey {
        /// The key given.
        key: String,
        /// The keys it has.
        expected: &'static [&'static str],
    },
    /// The value does not fit the key.
    #[error("bad value {value:?} for {key}: expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What would fit.
        expected: String,
    },
}

/// One setting being parsed: its key and its value's text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Setting<'a> {
    pub(crate) key: &'a str,
    pub(crate) value: &'a str,
}

impl<'a> Setting<'a> {
    pub(crate) fn new(key: &'a str, value: &'a str) -> Self {
        Setting { key, value }
    }

    /// The error for a key that the config does not have.
    pub(crate) fn unknown(self, expected: &'static [&'static str]) -> SettingError {
        SettingError::UnknownKey {
            key: self.key.to_owned(),
            expected,
        }
    }

    /// The error for a value that is not `expected`.
    pub(crate) fn bad(self, expected: impl Into<String>) -> SettingError {
        SettingError::BadValue {
            key: self.key.to_owned(),
            value: self.value.to_owned(),
            expected: expected.into(),
        }
    }

    /// A finite number.
    pub(crate) fn number(self) -> Result<f64, SettingError> {
        self.value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad("a number"))
    }

    /// A finite number for which `fits` holds (`expected` says which).
    pub(crate) fn number_where(
        self,
        fits: impl Fn(f64) -> bool,
        expected: &str,
    ) -> Result<f64, SettingError> {
        self.number()
            .ok()
            .filter(|&v| fits(v))
            .ok_or_else(|| self.bad(expected))
    }

    /// A whole number from `low` to `high` (no upper limit when `high` is `u32::MAX`).
    pub(crate) fn whole(self, low: u32, high: u32) -> Result<u32, SettingError> {
        self.value
            .parse::<u32>()
            .ok()
            .filter(|n| (low..=high).contains(n))
            .ok_or_else(|| match high {
                u32::MAX => self.bad(format!("a whole number of at least {low}")),
                _ => self.bad(format!("a whole number from {low} to {high}")),
            })
    }

    /// Any whole number that fits a `u64`.
    pub(crate) fn count(self) -> Result<u64, SettingError> {
        self.value.parse().map_err(|_| self.bad("a whole number"))
    }

    /// `true` or `false`.
    pub(crate) fn flag(self) -> Result<bool, SettingError> {
        self.value.parse().map_err(|_| self.bad("true or false"))
    }

    /// One of `options`' names, as its value.
    pub(crate) fn choice<T: Copy>(self, options: &[(&str, T)]) -> Result<T, SettingError> {
        options
            .iter()
            .find(|(name, _)| *name == self.value)
            .map(|&(_, value)| value)
            .ok_or_else(|| {
                let names: Vec<&str> = options.iter().map(|(name, _)| *name).collect();
                let expected = match names.split_last() {
                    Some((last, [])) => (*last).to_owned(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => "nothing".to_owned(),
                };
                self.bad(expected)
            })
    }

    /// A duration with its unit: `500ms`, `2s`, `1.5s`, `1m`, `250us`.
    pub(crate) fn duration(self) -> Result<Duration, SettingError> {
        parse_duration(self.value).ok_or_else(|| self.bad("a duration such as 500ms, 2s or 1m"))
    }
}

/// `500ms`, `2s`, `1.5s`, `1m`, `250us` as a duration.
fn parse_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n >= 0.0)?;
    let seconds = match unit.trim() {
        "us" | "µs" => number / 1e6,
        "ms" => number / 1e3,
        "s" => number,
        "m" | "min" => number * 60.0,
        _ => return None,
    };
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("250us"), Some(Duration::from_micros(250)));
        assert_eq!(parse_duration("5"), None);
        assert_eq!(parse_duration("-1s"), None);
    }

    #[test]
    fn choices_list_their_names() {
        let error = Setting::new("final", "best")
            .choice(&[("visits", 0), ("mean", 1), ("wins", 2)])
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "bad value \"best\" for final: expected visits, mean or wins"
        );
    }
}
