//! How long a search may think: iterations, wall time, an external stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::setting::{Setting, SettingError};

/// The limits of one search: at most `iterations` iterations (playouts), at most `time` of
/// wall time, and no longer than `stop` stays unset. Whichever ends first ends the search;
/// with no limit at all a search does nothing.
///
/// Time and the stop flag are checked every [`Budget::CHECK_EVERY`] iterations, not at every
/// one, so that a search does not call the clock in its inner loop.
///
/// ```
/// use std::time::Duration;
/// use search::Budget;
///
/// let budget = Budget::iterations(10_000).with_time(Duration::from_millis(100));
/// assert_eq!(budget.iterations, Some(10_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// The most iterations (playouts, for Monte-Carlo agents).
    pub iterations: Option<u64>,
    /// The most wall time.
    pub time: Option<Duration>,
    /// Set it (from another thread, a signal handler, a GUI) to stop the search early.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// How many iterations pass between two looks at the clock and the stop flag.
    pub const CHECK_EVERY: u64 = 16;

    /// At most `n` iterations.
    #[must_use]
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::default()
        }
    }

    /// At most `time` of wall time.
    #[must_use]
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }

    /// This budget, also limited to `time`.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Budget {
        self.time = Some(time);
        self
    }

    /// This budget, also stopped by `flag`.
    #[must_use]
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.stop = Some(flag);
        self
    }

    /// The keys [`set`](Self::set) takes: `iterations` (or its synonym `playouts`) and `time`.
    pub const KEYS: &[&str] = &["iterations", "playouts", "time"];

    /// Sets one limit from text, as agent specs write it: `set("time", "500ms")`,
    /// `set("iterations", "10000")`.
    ///
    /// # Errors
    ///
    /// [`SettingError::UnknownKey`] for a key not in [`KEYS`](Self::KEYS) and
    /// [`SettingError::BadValue`] for a value that does not fit (a time needs its unit: `us`,
    /// `ms`, `s` or `m`); the budget is unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            "iterations" | "playouts" => self.iterations = Some(setting.count()?),
            "time" => self.time = Some(setting.duration()?),
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }

    /// Starts the clock.
    pub(crate) fn start(&self) -> Meter<'_> {
        Meter {
            budget: self,
            time: self.time,
            started: Instant::now(),
            done: 0,
            next_check: 0,
            stopped: false,
            late: false,
            extended: false,
        }
    }
}

/// A running budget: counts iterations and tells when the budget is spent.
pub(crate) struct Meter<'a> {
    budget: &'a Budget,
    /// The time allowed: the budget's, or more once [`extend`](Self::extend)ed.
    time: Option<Duration>,
    started: Instant,
    done: u64,
    /// When to look at the clock and the stop flag next (iterations may be counted several at
    /// a time, so not at multiples of [`Budget::CHECK_EVERY`]).
    next_check: u64,
    stopped: bool,
    /// Stopped because the time ran out (and for no other reason).
    late: bool,
    /// [`extend`](Self::extend)ed already.
    extended: bool,
}

impl Meter<'_> {
    /// `true` while another iteration may start.
    #[inline]
    pub(crate) fn more(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        let by_count = self.budget.iterations.is_none_or(|n| self.done < n);
        let unlimited = self.budget.iterations.is_none()
            && self.budget.time.is_none()
            && self.budget.stop.is_none();
        if !by_count || unlimited {
            self.stopped = true;
            return false;
        }
        if self.done >= self.next_check {
            self.next_check = self.done + Budget::CHECK_EVERY;
            let late = self.time.is_some_and(|t| self.started.elapsed() >= t);
            let told = self
                .budget
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
            if late || told {
                self.stopped = true;
                self.late = late && !told;
                return false;
            }
        }
        true
    }

    /// When the time alone stopped the search, allows it `factor` times the budget's time in
    /// all and returns `true` (once: `false` after the first time, and when anything else
    /// stopped it).
    pub(crate) fn extend(&mut self, factor: f64) -> bool {
        match self.time {
            Some(time) if self.late && !self.extended && factor > 1.0 => {
                self.time = Some(time.mul_f64(factor));
                self.stopped = false;
                self.late = false;
                self.extended = true;
                true
            }
            _ => false,
        }
    }

    /// Counts `n` finished iterations.
    #[inline]
    pub(crate) fn count(&mut self, n: u64) {
        self.done += n;
    }

    /// How many more iterations an iteration budget allows; `None` without one.
    pub(crate) fn remaining(&self) -> Option<u64> {
        Some(self.budget.iterations?.saturating_sub(self.done))
    }

    pub(crate) fn done(&self) -> u64 {
        self.done
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `meter` until it stops, counting one iteration at a time.
    fn run_out(meter: &mut Meter<'_>) {
        while meter.more() {
            meter.count(1);
        }
    }

    #[test]
    fn a_meter_stopped_by_its_time_extends_once() {
        let budget = Budget::time(Duration::from_millis(2));
        let mut meter = budget.start();
        run_out(&mut meter);
        assert!(meter.elapsed() >= Duration::from_millis(2));
        assert!(meter.extend(3.0), "the time ran out: it may go on");
        assert!(meter.more(), "extended, it runs again");
        run_out(&mut meter);
        assert!(meter.elapsed() >= Duration::from_millis(6));
        assert!(!meter.extend(3.0), "only once");
        assert!(!meter.more());
    }

    #[test]
    fn a_meter_stopped_otherwise_does_not_extend() {
        // By its iterations, though it has time too.
        let budget = Budget::iterations(50).with_time(Duration::from_secs(60));
        let mut meter = budget.start();
        run_out(&mut meter);
        assert_eq!(meter.done(), 50);
        assert!(!meter.extend(2.0));
        assert!(!meter.more());
        // By its stop flag.
        let flag = Arc::new(AtomicBool::new(true));
        let budget = Budget::time(Duration::from_secs(60)).with_stop(flag);
        let mut meter = budget.start();
        run_out(&mut meter);
        assert!(!meter.extend(2.0));
        // A factor of 1 or less is no extension.
        let budget = Budget::time(Duration::from_millis(1));
        let mut meter = budget.start();
        run_out(&mut meter);
        assert!(!meter.extend(1.0));
    }
}
