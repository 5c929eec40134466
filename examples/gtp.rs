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
//! `--swap` Hex starts with the swap rule; GTP `param_game allow_swap 1` turns it on too. The
//! tool itself is `arena::cli::GtpArgs`.

use std::process::ExitCode;

use clap::Parser;
use gamesearch::arena::cli::{GtpArgs, finish};

mod common;

/// Speaks GTP (Go Text Protocol) on standard input and output for Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(name = "gtp", version, about)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    #[command(flatten)]
    gtp: GtpArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    finish("gtp", cli.game.choice().run(cli.gtp))
}
