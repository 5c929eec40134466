//! Solve small Hex boards: for every first move, does Black (moving first) win?
//!
//! ```text
//! cargo run --release --example hex_solve -- --size 4
//! ```
//!
//! Prints one line per first move, `CELL win` or `CELL loss` for Black, in cell order, with the
//! positions searched and the time on stderr. The search is `search::AlphaBeta` with an
//! evaluator that returns 0: iterative deepening to the end of the game, a transposition table,
//! move ordering; a win is proved when a forced connection is found within the horizon.

use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, Parser, error::ErrorKind};
use gamesearch::core::Game;
use gamesearch::hex::{Hex, Move};
use gamesearch::search::{Agent, AlphaBeta, AlphaBetaConfig, Budget, score};

/// Solve Hex on a small board: win or loss for Black after each first move.
#[derive(Parser, Debug)]
#[command(name = "hex_solve", version, about)]
struct Cli {
    /// The board's side (1 to 19; beyond 5 expect to wait a very long time).
    #[arg(long, default_value_t = 4)]
    size: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    table: usize,
    /// Accepted like every example's; the solver is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Hex::new(cli.size).unwrap_or_else(|e| {
        Cli::command()
            .error(ErrorKind::ValueValidation, e.to_string())
            .exit()
    });
    let config = AlphaBetaConfig {
        max_depth: cli.size * cli.size,
        table_bytes: cli.table << 20,
        ..AlphaBetaConfig::default()
    };
    let mut solver = AlphaBeta::with_config(config, |_: &Hex| 0);
    let clock = Instant::now();
    for first in start.legal_actions_vec() {
        let Move::Place(_) = first else { continue };
        let after = start.after(first);
        let move_clock = Instant::now();
        let verdict = if let Some(outcome) = after.status().outcome() {
            outcome
                .winner()
                .map(|w| w == gamesearch::core::Player::Black)
        } else {
            solver.choose(&after, &Budget::default());
            let report = solver.report().expect("a search report");
            // The value is White's; a proved loss for White is a win for Black.
            report
                .score
                .filter(|&v| score::is_decisive(v))
                .map(|v| v < 0)
        };
        let nodes = solver.report().map_or(0, |r| r.nodes);
        match verdict {
            Some(black_wins) => println!("{first} {}", if black_wins { "win" } else { "loss" }),
            None => {
                eprintln!("{first}: not proved within depth {}", config.max_depth);
                return ExitCode::FAILURE;
            }
        }
        eprintln!(
            "  {first}: {nodes} positions in {:.2} s",
            move_clock.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "{0}x{0} solved in {1:.1} s",
        cli.size,
        clock.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
