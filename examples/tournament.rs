//! A tournament of agents on any game: every pair meets (or the first agent meets each of the
//! others), colours alternate, games run in parallel on every core.
//!
//! ```text
//! cargo run --release --example tournament -- --game hex --size 7 \
//!     --agent uct:iterations=1000 --agent mc:playouts=1000 --agent ucb1:playouts=1000 --games 20
//! cargo run --release --example tournament -- --game connect4 --gauntlet --games 50 \
//!     --agent new=uct:iterations=5000,c=0.3 --agent uct:iterations=5000 --out results/
//! # stopped? the same command with --resume results/ instead of --out results/
//! # on N machines: ... --shard K/N --out shard-K, then
//! cargo run --release --example tournament -- merge shard-1 shard-2 shard-3 --out results/
//! ```
//!
//! Prints the standings (score with its 95% Wilson interval, Elo with its 95% margin) and the
//! cross table. With `--out DIR`, keeps the run in DIR: `settings.txt`, `games.csv` (each game
//! as it ends, so a stopped run loses nothing: `--resume DIR` continues it), and at the end
//! `standings.csv` and `ratings.svg`. `--shard K/N` plays a share of the games and `merge`
//! combines the shards (docs/cluster.md). An agent may be named: `NAME=SPEC`. The tool itself
//! is `arena::cli::TournamentArgs`.

use std::process::ExitCode;

use clap::Parser;
use gamesearch::arena::cli::{TournamentArgs, finish};

mod common;

/// A round robin (or gauntlet) of agents on Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(
    name = "tournament",
    version,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    #[command(flatten)]
    tournament: TournamentArgs,
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    match cli.tournament.command.take() {
        Some(command) => finish("tournament merge", command.run()),
        None => finish("tournament", cli.game.choice().run(cli.tournament)),
    }
}
