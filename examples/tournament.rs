//! A tournament of agents on any game: every pair meets (or the first agent meets each of the
//! others), colours alternate, games run in parallel on every core.
//!
//! ```text
//! cargo run --release --example tournament -- --game hex --size 7 \
//!     --agent uct:iterations=1000 --agent mc:playouts=1000 --agent ucb1:playouts=1000 --games 20
//! cargo run --release --example tournament -- --game connect4 --gauntlet --games 50 \
//!     --agent new=uct:iterations=5000,c=0.3 --agent uct:iterations=5000 --out results/
//! ```
//!
//! Prints the standings (score with its 95% Wilson interval, Elo with its 95% margin) and the
//! cross table. With `--out DIR`, writes `standings.csv`, `games.csv` (one line per game) and
//! `ratings.svg` there. An agent may be named: `NAME=SPEC`. The tool itself is
//! `arena::cli::TournamentArgs`.

use std::process::ExitCode;

use clap::Parser;
use gamesearch::arena::cli::{TournamentArgs, finish};

mod common;

/// A round robin (or gauntlet) of agents on Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(name = "tournament", version, about)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    #[command(flatten)]
    tournament: TournamentArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    finish("tournament", cli.game.choice().run(cli.tournament))
}
