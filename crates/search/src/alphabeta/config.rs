//! Settings of the alpha-beta agent.

use crate::setting::{Setting, SettingError};

/// The settings of [`AlphaBeta`](crate::AlphaBeta).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `max_depth` | 64 | the deepest iteration of iterative deepening |
/// | `table_bytes` | 16 MiB | transposition table memory; 0 turns the table off |
/// | `ordering` | true | hash move, then killer moves, then history scores first |
/// | `pvs` | true | principal variation search: null windows after the first move |
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AlphaBetaConfig {
    /// The deepest iteration.
    pub max_depth: u32,
    /// Transposition table size in bytes (0: no table).
    pub table_bytes: usize,
    /// Order moves (hash move, killers, history).
    pub ordering: bool,
    /// Principal variation search.
    pub pvs: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            max_depth: 64,
            table_bytes: 16 << 20,
            ordering: true,
            pvs: true,
        }
    }
}

impl AlphaBetaConfig {
    /// The keys [`set`](Self::set) takes: `depth` (1 to 64), `table` (MiB, 0 for none),
    /// `ordering` and `pvs` (`true` or `false`).
    pub const KEYS: &[&str] = &["depth", "table", "ordering", "pvs"];

    /// Sets one setting from text, as agent specs write it: `set("depth", "6")`.
    ///
    /// # Errors
    ///
    /// [`SettingError::UnknownKey`] for a key not in [`KEYS`](Self::KEYS) and
    /// [`SettingError::BadValue`] for a value that does not fit; the config is unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            "depth" => self.max_depth = setting.whole(1, 64)?,
            "table" => {
                let mib = setting
                    .count()
                    .ok()
                    .filter(|&mib| mib <= 1 << 16)
                    .ok_or_else(|| setting.bad("a whole number of MiB, 0 for none"))?;
                self.table_bytes = (mib as usize) << 20;
            }
            "ordering" => self.ordering = setting.flag()?,
            "pvs" => self.pvs = setting.flag()?,
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }
}
