//! Game-tree search over [`game_core::Game`]: every algorithm plays every game.
//!
//! This crate is a skeleton. It will hold the agents of the design: random play, flat
//! Monte-Carlo, UCB1, UCT on an arena-allocated tree with tree reuse, and minimax, NegaMax and
//! alpha-beta, each described by a text spec such as `uct:iterations=10000,c=0.4`.

#![forbid(unsafe_code)]
