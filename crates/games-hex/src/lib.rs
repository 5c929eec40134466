//! Hex on any board from 1x1 to 19x19, with the swap rule, on bitboards.
//!
//! This crate is a skeleton; the game arrives with its own issue.
