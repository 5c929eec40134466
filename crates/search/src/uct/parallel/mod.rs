//! UCT on several threads: root parallelisation (a tree per thread, merged at the root,
//! `root.rs`) and tree parallelisation (one shared tree: lock-free in `shared_tree.rs`, driven
//! by `tree.rs`; under one lock in `locked.rs`, for the options the lock-free tree lacks).

mod locked;
mod root;
mod shared_tree;
mod tree;

pub use root::RootParallel;
pub use tree::TreeParallel;
