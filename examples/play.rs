//! Play Hex, Othello or Connect Four against the computer, in the terminal.
//!
//! ```text
//! cargo run --release --example play -- --game connect4
//! cargo run --release --example play -- --game hex --size 9 --swap --human white
//! cargo run --release --example play -- --game othello --agent alphabeta:time=2s
//! ```
//!
//! Type a move (`4`, `d3`, `c5`, `swap`, `pass`), or `moves` for the legal moves, `undo` to
//! take back your last move, `board` to see the board again, `help`, or `quit`. After each of
//! its moves the computer says how long it thought and how it rates the position. The tool
//! itself is `arena::cli::PlayArgs`, which a game of your own gets through `arena::cli::run`.

use std::process::ExitCode;

use clap::Parser;
use gamesearch::arena::cli::{PlayArgs, finish};

mod common;

/// Play Hex, Othello or Connect Four against the computer.
#[derive(Parser, Debug)]
#[command(name = "play", version, about)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    #[command(flatten)]
    play: PlayArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    finish("play", cli.game.choice().run(cli.play))
}
