//! Game-tree search over [`game_core::Game`]: every algorithm plays every game.
//!
//! | agent | what it does | spec |
//! |---|---|---|
//! | [`Random`] | a uniformly random legal action | `random` |
//! | [`Flat`] (uniform) | flat Monte-Carlo: playouts split evenly over the root actions, best mean wins | `mc:playouts=1000` |
//! | [`Flat`] (UCB1) | a UCB1 bandit over the root actions, best mean wins | `ucb1:playouts=1000,c=0.7` |
//! | [`Uct`] | Monte-Carlo tree search with UCB1 in the tree, tree reuse, a node cap; MCTS-Solver, RAVE, GRAVE as options | `uct:iterations=10000,c=0.4`, `rave:k=300`, `grave:ref=50` |
//! | [`RootParallel`], [`TreeParallel`] | UCT on several threads: a tree each, merged at the root; or one shared tree with virtual loss | `uct:threads=2`, `uct:threads=2,parallel=tree` |
//! | [`Reference`] | plain minimax, NegaMax or alpha-beta to a fixed depth ([`reference`](mod@reference)) | `minimax:depth=4`, `negamax:depth=4` |
//! | [`AlphaBeta`] | alpha-beta with iterative deepening, PVS, a transposition table, move ordering | `alphabeta:depth=8`, `alphabeta:time=1s` |
//!
//! Every agent implements [`Agent`]: it chooses an action for a position within a [`Budget`]
//! (iterations, time, a stop flag) and is told the moves actually played. Agents are seeded
//! (`rand_xoshiro`), so a search with an iteration budget is reproducible. Tools build agents
//! from text with [`AgentSpec`].
//!
//! Which game traits each agent needs: all of them need only [`Game`](game_core::Game). The
//! Monte-Carlo agents take any [`Reward`](game_core::Reward) (win/draw/loss by default); the
//! depth-limited ones any [`Evaluator`](game_core::Evaluator) (0 everywhere by default, which
//! makes them exact solvers within their horizon).
//!
//! ```
//! use games_connect4::Connect4;
//! use search::{Agent, AgentSpec};
//!
//! // Black to move wins at once in column 4 (three stones stacked there).
//! let position: Connect4 = "414141".parse()?;
//! let spec: AgentSpec = "uct:iterations=2000".parse()?;
//! let mut agent = spec.build::<Connect4>(7)?;
//! assert_eq!(agent.choose(&position, &spec.budget()), Some("4".parse()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod agent;
mod alphabeta;
mod book;
mod budget;
mod exact;
mod flat;
mod random;
mod setting;
mod spec;
mod uct;

pub mod score;

pub use agent::{ActionStats, Agent, Report};
pub use alphabeta::{AlphaBeta, AlphaBetaConfig, Plain, Reference, reference};
pub use book::BookAgent;
pub use budget::Budget;
pub use exact::{Prover, SolverAgent};
pub use flat::{Flat, Policy};
pub use random::Random;
pub use setting::SettingError;
pub use spec::{AgentSpec, SpecError};
pub use uct::{
    BatchedUct, Expansion, FinalChoice, RaveConfig, RootParallel, TreeParallel, Uct, UctConfig,
};
