//! What Hex's virtual connections prove, position by position (`Hex::proven_moves`: the
//! inferior cells filled in, then H-search for both players).
//!
//! ```text
//! echo "e5 d6 c7" | cargo run --release --example hex_proven -- --size 9
//! cargo run --release --example hex_proven -- --size 9 < positions.txt
//! ```
//!
//! Each input line is a position, as its moves from the empty board (`e5 d6 c7`; an empty
//! line is the empty board). Each output line says what is proven for the player to move:
//!
//! ```text
//! won 3 0 76      # a winning move is known: 3 moves proven to win, 0 to lose, of 76
//! lost 0 76 76    # every move is proven to lose
//! open 0 41 76    # neither: 41 moves lose (outside the opponent's must-play region)
//! over 0 0 0      # the game is over
//! ```
//!
//! `scripts/hex-mohex.py vcs` reads these lines to compare H-search with MoHex 2.0's virtual
//! connections on recorded games.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, error::ErrorKind};
use gamesearch::core::{Game, Status};
use gamesearch::hex::Hex;

/// What Hex's virtual connections prove in each position of the input.
#[derive(Parser, Debug)]
#[command(name = "hex_proven", version, about)]
struct Cli {
    /// The board's side (1 to 19).
    #[arg(long, default_value_t = 9)]
    size: u8,
    /// Accepted like every example's; the proof is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let empty = Hex::new(cli.size).unwrap_or_else(|error| {
        Cli::command()
            .error(ErrorKind::ValueValidation, error.to_string())
            .exit()
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                eprintln!("error: reading line {}: {error}", number + 1);
                return ExitCode::FAILURE;
            }
        };
        let position = match empty.after_moves(line.trim()) {
            Ok(position) => position,
            Err(error) => {
                eprintln!("error: line {}: {error}", number + 1);
                return ExitCode::FAILURE;
            }
        };
        let answer = if position.status() == Status::Ongoing {
            let proven = position.proven_moves();
            let legal = position.num_legal_actions();
            let verdict = if !proven.winning.is_empty() {
                "won"
            } else if proven.losing.len() == legal {
                "lost"
            } else {
                "open"
            };
            format!(
                "{verdict} {} {} {legal}",
                proven.winning.len(),
                proven.losing.len()
            )
        } else {
            "over 0 0 0".to_owned()
        };
        // Flushed line by line, for a caller that writes a position and reads its answer.
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::SUCCESS; // the reader has gone
        }
    }
    ExitCode::SUCCESS
}
