//! UCT on several threads: root parallelisation (a tree per thread, merged at the root,
//! `root.rs`) and tree parallelisation (one shared tree: lock-free in `shared_tree.rs`, driven
//! by `tree.rs`, with RAVE's part in `shared_tree/rave.rs`; under one lock in `locked.rs`, for
//! the options the lock-free tree lacks).

mod locked;
mod root;
mod shared_tree;
mod tree;

pub use root::RootParallel;
pub use tree::TreeParallel;

use crate::Budget;

/// One thread's clock in a tree-parallel search: the budget's time and stop flag, which each
/// thread reads itself (the threads share the iteration count, in a counter of their own), and
/// whether there is a time or a flag at all. `None` when the budget has no limit of any kind:
/// a search then does nothing.
fn thread_clock(budget: &Budget) -> Option<(Budget, bool)> {
    let clock = Budget {
        iterations: None,
        ..budget.clone()
    };
    let timed = clock.time.is_some() || clock.stop.is_some();
    (timed || budget.iterations.is_some()).then_some((clock, timed))
}
