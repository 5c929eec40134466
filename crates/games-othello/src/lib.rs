//! Othello (Reversi) on the 8x8 and 6x6 boards, on bitboards.
//!
//! This crate is a skeleton; the game arrives with its own issue.
