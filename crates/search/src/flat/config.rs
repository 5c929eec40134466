//! Settings of the flat (root-only) Monte-Carlo agents.

use crate::setting::{Setting, SettingError};

/// How a flat agent spreads its playouts over the root actions.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Policy {
    /// Round-robin: every action gets the same number of playouts (flat Monte-Carlo).
    Uniform,
    /// UCB1 with exploration constant `c`: each action once, then the action maximising
    /// `mean + c * sqrt(ln N / n)`.
    Ucb1 {
        /// The exploration constant.
        c: f64,
    },
}

impl Policy {
    /// The keys [`set`](Self::set) takes: `c`, UCB1's exploration constant (at least 0).
    pub const KEYS: &[&str] = &["c"];

    /// Sets one setting from text, as agent specs write it: `set("c", "0.7")`.
    ///
    /// # Errors
    ///
    /// [`SettingError::UnknownKey`] for a key the policy does not have (uniform has none) and
    /// [`SettingError::BadValue`] for a value that does not fit; the policy is unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match (self, key) {
            (Policy::Ucb1 { c }, "c") => {
                *c = setting.number_where(|c| c >= 0.0, "a number of at least 0")?;
                Ok(())
            }
            (Policy::Ucb1 { .. }, _) => Err(setting.unknown(Self::KEYS)),
            (Policy::Uniform, _) => Err(setting.unknown(&[])),
        }
    }
}
