//! Connect Four on 7x6 and other boards up to 64 bits, on bitboards.
//!
//! This crate is a skeleton; the game arrives with its own issue.
