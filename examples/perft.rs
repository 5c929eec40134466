//! Perft: count the leaves of a game's tree, depth by depth.
//!
//! ```text
//! cargo run --release --example perft -- --game connect4 --size 7x6 --depth 8
//! cargo run --release --example perft -- --game othello --size 8 --depth 10
//! cargo run --release --example perft -- --game hex --size 11 --depth 3 [--swap]
//! ```
//!
//! Prints one line per depth 1..=D on stdout, `DEPTH<TAB>COUNT`, as soon as that depth is done;
//! the time and speed of each depth go to stderr. A finished game reached before depth D counts
//! as one leaf.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};
use gamesearch::connect4::{Connect4, Connect4Large};
use gamesearch::core::testing::TicTacToe;
use gamesearch::core::{Game, perft};
use gamesearch::hex::Hex;
use gamesearch::othello::{Othello, Othello6};

/// Count the leaves of a game tree, depth by depth (prints DEPTH<TAB>COUNT).
#[derive(Parser, Debug)]
#[command(name = "perft", version, about)]
struct Cli {
    /// The game.
    #[arg(long, value_enum)]
    game: GameName,
    /// The board: Hex 1 to 19 (default 11); Connect Four columns and rows such as 7x6 (the
    /// default); Othello 8 (the default) or 6; tic-tac-toe has only 3.
    #[arg(long)]
    size: Option<String>,
    /// Hex: play with the swap (pie) rule.
    #[arg(long)]
    swap: bool,
    /// The deepest depth to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Accepted like every example's; perft is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum GameName {
    /// Hex, 1x1 to 19x19.
    Hex,
    /// Connect Four, any size up to 128 bits.
    Connect4,
    /// Othello, 8x8 or 6x6; passes count as plies.
    Othello,
    /// Tic-tac-toe, the reference game.
    Tictactoe,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.swap && cli.game != GameName::Hex {
        usage_error("--swap is the pie rule of Hex; other games have no swap");
    }
    match (cli.game, cli.size.as_deref()) {
        (GameName::Hex, size) => {
            let side = size.unwrap_or("11");
            let side = side
                .split_once(['x', 'X'])
                .filter(|(a, b)| a == b)
                .map_or(side, |(a, _)| a);
            let Ok(side) = side.trim().parse::<u32>() else {
                usage_error(&format!(
                    "invalid --size {side:?} for Hex: expected a side from 1 to 19"
                ))
            };
            match if cli.swap {
                Hex::with_swap(side)
            } else {
                Hex::new(side)
            } {
                Ok(board) => run(&board, cli.depth),
                Err(error) => usage_error(&error.to_string()),
            }
        }
        (GameName::Connect4, size) => {
            let (width, height) = match parse_columns_x_rows(size.unwrap_or("7x6")) {
                Ok(size) => size,
                Err(message) => usage_error(&message),
            };
            match Connect4::with_size(width, height) {
                Ok(board) => run(&board, cli.depth),
                Err(_) => match Connect4Large::with_size(width, height) {
                    Ok(board) => run(&board, cli.depth),
                    Err(error) => usage_error(&error.to_string()),
                },
            }
        }
        (GameName::Othello, None | Some("8" | "8x8")) => run(&Othello::new(), cli.depth),
        (GameName::Othello, Some("6" | "6x6")) => run(&Othello6::new(), cli.depth),
        (GameName::Othello, Some(size)) => {
            usage_error(&format!("Othello is played on 8x8 or 6x6, not {size}"))
        }
        (GameName::Tictactoe, None | Some("3" | "3x3")) => run(&TicTacToe::new(), cli.depth),
        (GameName::Tictactoe, Some(size)) => {
            usage_error(&format!("tic-tac-toe is 3x3, not {size}"))
        }
    }
}

/// Prints the counts for depths 1..=`depth`.
fn run<G: Game>(start: &G, depth: u32) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    for d in 1..=depth {
        let clock = Instant::now();
        let count = perft(start, d);
        let seconds = clock.elapsed().as_secs_f64();
        if writeln!(stdout, "{d}\t{count}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE; // stdout closed, e.g. piped into `head`
        }
        eprintln!(
            "depth {d}: {count} leaves in {seconds:.3} s ({:.1} M leaves/s)",
            count as f64 / seconds / 1e6
        );
    }
    ExitCode::SUCCESS
}

/// `"7x6"` as (7, 6).
fn parse_columns_x_rows(text: &str) -> Result<(u8, u8), String> {
    let error = || format!("invalid --size {text:?}: expected COLUMNSxROWS such as 7x6");
    let (columns, rows) = text.split_once(['x', 'X']).ok_or_else(error)?;
    Ok((
        columns.trim().parse().map_err(|_| error())?,
        rows.trim().parse().map_err(|_| error())?,
    ))
}

/// Exits with clap's usage-error format and status 2.
fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(ErrorKind::ValueValidation, message)
        .exit()
}
