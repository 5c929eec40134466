//! A GTP engine for Hex, Othello and Connect Four, for GUIs (HexGui), referees and scripts.
//!
//! ```text
//! cargo run --release --example gtp -- --game hex --size 11 --agent uct:iterations=20000
//! cargo run --release --example gtp -- --game othello --agent alphabeta:time=1s
//! cargo run --release --example gtp -- --game connect4 --size 7x6 --agent uct:time=500ms
//! ```
//!
//! Commands come on standard input, answers go to standard output (see `arena::GtpEngine` for
//! the command list and the Hex swap convention). Type `list_commands` to see them. With
//! `--swap` Hex starts with the swap rule; GTP `param_game allow_swap 1` turns it on too.

use std::io;
use std::process::ExitCode;

use clap::Parser;
use gamesearch::arena::{GtpEngine, TextGame, WithGame};
use gamesearch::search::AgentSpec;

mod common;

/// Speaks GTP (Go Text Protocol) on standard input and output for Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(name = "gtp", version, about)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    /// The agent that answers genmove: best (the strongest configuration for the game) or any
    /// spec, e.g. best:time=1s, uct:iterations=20000,c=0.4 or alphabeta:time=1s.
    #[arg(long, default_value = "best:iterations=20000")]
    agent: AgentSpec,
    /// The seed of the agent (game k of the session uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct Serve {
    spec: AgentSpec,
    seed: u64,
}

impl WithGame for Serve {
    type Output = io::Result<()>;

    fn run<G: TextGame>(self, start: G) -> io::Result<()> {
        GtpEngine::new(start, self.spec, self.seed)
            .unwrap_or_else(|e| common::usage_error(e))
            .run(io::stdin().lock(), io::stdout().lock())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let serve = Serve {
        spec: cli.agent,
        seed: cli.seed,
    };
    common::finish("gtp", cli.game.choice().run(serve))
}
