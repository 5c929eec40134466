//! Solve small Hex boards: for every first move, does Black (moving first) win?
//!
//! ```text
//! cargo run --release --example hex_solve -- --size 5
//! cargo run --release --example hex_solve -- --size 4 --method alphabeta
//! ```
//!
//! Prints one line per first move, `CELL win` or `CELL loss` for Black, in cell order, with the
//! positions searched and the time on stderr. Two methods:
//!
//! - `solver` (the default): [`games_hex::Solver`], a proof search with Hex's shortcuts
//!   (winning cells, forced blocks) and a table; 5x5 in seconds.
//! - `alphabeta`: the generic `search::AlphaBeta` with an evaluator that returns 0 (iterative
//!   deepening to the end of the game, a transposition table, move ordering), which knows
//!   nothing of Hex; 4x4 in seconds, 5x5 out of reach.

use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};
use gamesearch::core::{Game, Player};
use gamesearch::hex::{Hex, Move, Solver};
use gamesearch::search::{Agent, AlphaBeta, AlphaBetaConfig, Budget, score};

/// Solve Hex on a small board: win or loss for Black after each first move.
#[derive(Parser, Debug)]
#[command(name = "hex_solve", version, about)]
struct Cli {
    /// The board's side (1 to 19; beyond 5 expect to wait a very long time).
    #[arg(long, default_value_t = 4)]
    size: u32,
    /// How to solve.
    #[arg(long, value_enum, default_value_t = Method::Solver)]
    method: Method,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    table: usize,
    /// Accepted like every example's; the solver is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Method {
    /// Hex's own proof search (`games_hex::Solver`).
    Solver,
    /// Generic alpha-beta with a zero evaluator (`search::AlphaBeta`).
    Alphabeta,
}

/// A way to find who wins a position.
trait Prover {
    /// The winner with perfect play (`None` if not proved), and the positions searched.
    fn solve(&mut self, position: &Hex) -> (Option<Player>, u64);
}

impl Prover for Solver {
    fn solve(&mut self, position: &Hex) -> (Option<Player>, u64) {
        let before = self.nodes();
        let winner = self.winner(position);
        (Some(winner), self.nodes() - before)
    }
}

impl<E: gamesearch::core::Evaluator<Hex>> Prover for AlphaBeta<Hex, E> {
    fn solve(&mut self, position: &Hex) -> (Option<Player>, u64) {
        self.choose(position, &Budget::default());
        let Some(report) = self.report() else {
            return (None, 0);
        };
        // The value is for the player to move; a decisive one says who wins.
        let mover = position.to_move();
        let winner = report
            .score
            .filter(|&v| score::is_decisive(v))
            .map(|v| if v > 0 { mover } else { mover.opponent() });
        (winner, report.nodes as u64)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Hex::new(cli.size).unwrap_or_else(|e| {
        Cli::command()
            .error(ErrorKind::ValueValidation, e.to_string())
            .exit()
    });
    let table_bytes = cli.table.checked_mul(1 << 20).unwrap_or_else(|| {
        Cli::command()
            .error(ErrorKind::ValueValidation, "the table is too large")
            .exit()
    });
    match cli.method {
        Method::Solver => solve_all(&start, Solver::new(table_bytes)),
        Method::Alphabeta => {
            let config = AlphaBetaConfig {
                max_depth: cli.size * cli.size,
                table_bytes,
                ..AlphaBetaConfig::default()
            };
            solve_all(&start, AlphaBeta::with_config(config, |_: &Hex| 0))
        }
    }
}

/// Prints the result of every first move on the empty board `start`.
fn solve_all(start: &Hex, mut prover: impl Prover) -> ExitCode {
    let clock = Instant::now();
    let mut total = 0;
    for first in start.legal_actions_vec() {
        let Move::Place(_) = first else { continue };
        let after = start.after(first);
        let move_clock = Instant::now();
        let (winner, nodes) = match after.status().outcome() {
            Some(outcome) => (outcome.winner(), 0),
            None => prover.solve(&after),
        };
        total += nodes;
        match winner {
            Some(Player::Black) => println!("{first} win"),
            Some(Player::White) => println!("{first} loss"),
            None => {
                eprintln!("{first}: not proved");
                return ExitCode::FAILURE;
            }
        }
        eprintln!(
            "  {first}: {nodes} positions in {:.2} s",
            move_clock.elapsed().as_secs_f64()
        );
    }
    let size = start.size();
    eprintln!(
        "{size}x{size} solved in {:.1} s, {total} positions",
        clock.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
