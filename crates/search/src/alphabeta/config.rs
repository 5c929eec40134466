//! Settings of the alpha-beta agent.

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
