//! Settings of the flat (root-only) Monte-Carlo agents.

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
