//! Solve Hex: for every first move on a small board, does Black (moving first) win? Or, with
//! `--positions`, who wins each position read from standard input, and a winning move.
//!
//! ```text
//! cargo run --release --example hex_solve -- --size 5
//! cargo run --release --example hex_solve -- --size 4 --method alphabeta
//! echo "e5 d6 c7" | cargo run --release --example hex_solve -- --size 9 --positions --time 1
//! ```
//!
//! Without `--positions`, prints one line per first move, `CELL win` or `CELL loss` for Black,
//! in cell order, with the positions searched and the time on stderr. Three methods:
//!
//! - `solver` (the default): [`games_hex::Solver`], a proof search with Hex's shortcuts
//!   (winning cells, forced blocks) and a table; 5x5 in seconds.
//! - `dfpn`: [`games_hex::Dfpn`], proof-number search guided by virtual connections, for
//!   larger boards: 6x6 in seconds, 7x7 in minutes (and some 9x9 middle games in seconds).
//! - `alphabeta`: the generic `search::AlphaBeta` with an evaluator that returns 0 (iterative
//!   deepening to the end of the game, a transposition table, move ordering), which knows
//!   nothing of Hex; 4x4 in seconds, 5x5 out of reach.
//!
//! With `--positions` (df-pn, at most `--time` seconds a position, each from an empty table),
//! each input line is a position as its moves from the empty board (`e5 d6 c7`), and each
//! output line says what df-pn proved for the player to move, the winning move, the seconds and
//! the positions searched:
//!
//! ```text
//! win c3 0.03 103      # the player to move wins, by c3
//! loss - 0.41 1517     # every move loses
//! unknown - 1.00 2351  # not proved in time
//! over - 0.00 0        # the game is over
//! ```
//!
//! `scripts/hex-mohex.py solvers` runs it beside MoHex 2.0's solver on the same positions.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};
use gamesearch::core::{Game, Player, Status, Wdl, solve::Solve};
use gamesearch::hex::{Dfpn, Hex, Move, Solver};
use gamesearch::search::{Agent, AlphaBeta, AlphaBetaConfig, Budget, score};

mod common;

use common::say;

/// Solve Hex on a small board: win or loss for Black after each first move.
#[derive(Parser, Debug)]
#[command(name = "hex_solve", version, about)]
struct Cli {
    /// The board's side (1 to 19; beyond 5, or 7 with dfpn, expect to wait a very long time).
    #[arg(long, default_value_t = 4)]
    size: u8,
    /// How to solve (`--positions`: dfpn, the default there, only).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Read positions from standard input, one a line as their moves, and prove each with
    /// df-pn.
    #[arg(long)]
    positions: bool,
    /// With `--positions`: the most seconds spent on a position.
    #[arg(long, default_value_t = 10.0)]
    time: f64,
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
    /// Proof-number search with virtual connections (`games_hex::Dfpn`).
    Dfpn,
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

impl Prover for Dfpn {
    fn solve(&mut self, position: &Hex) -> (Option<Player>, u64) {
        let before = Solve::nodes(self);
        let mover = position.to_move();
        let winner = self.prove(position, None).map(|value| match value.outcome {
            Wdl::Win => mover,
            _ => mover.opponent(),
        });
        (winner, Solve::nodes(self) - before)
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
    if cli.positions {
        if !matches!(cli.method, None | Some(Method::Dfpn)) {
            Cli::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    "--positions solves with dfpn only",
                )
                .exit()
        }
        if !(cli.time.is_finite() && cli.time > 0.0) {
            Cli::command()
                .error(
                    ErrorKind::ValueValidation,
                    "--time must be a positive number of seconds",
                )
                .exit()
        }
        let limit = Duration::from_secs_f64(cli.time.min(1e9));
        return prove_each(&start, &mut Dfpn::with_table_bytes(table_bytes), limit);
    }
    match cli.method.unwrap_or(Method::Solver) {
        Method::Solver => solve_all(&start, Solver::with_table_bytes(table_bytes)),
        Method::Dfpn => solve_all(&start, Dfpn::with_table_bytes(table_bytes)),
        Method::Alphabeta => {
            let config = AlphaBetaConfig {
                max_depth: u32::from(cli.size).pow(2),
                table_bytes,
                ..AlphaBetaConfig::default()
            };
            solve_all(&start, AlphaBeta::with_config(config, |_: &Hex| 0))
        }
    }
}

/// Proves each position of standard input (moves from the empty board `start`) with `dfpn`
/// within `limit`, and prints what it found, a line each (flushed, for a caller that writes a
/// position and reads its answer).
fn prove_each(start: &Hex, dfpn: &mut Dfpn, limit: Duration) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let position = match line
            .map_err(|e| e.to_string())
            .and_then(|line| start.after_moves(line.trim()).map_err(|e| e.to_string()))
        {
            Ok(position) => position,
            Err(error) => {
                eprintln!("error: line {}: {error}", number + 1);
                return ExitCode::FAILURE;
            }
        };
        // Each position from an empty table, so that its answer does not depend on the others.
        dfpn.clear();
        let clock = Instant::now();
        let before = Solve::nodes(dfpn);
        let answer = if position.status() == Status::Ongoing {
            match dfpn.prove(&position, Some(clock + limit)) {
                // The proof is in the table: the winning move comes back at once (a new
                // limit, in case the proof ended on the last one).
                Some(value) if value.outcome == Wdl::Win => {
                    match Solve::solve(dfpn, &position, Some(Instant::now() + limit)).best {
                        Some((action, _)) => format!("win {action}"),
                        None => "win -".to_owned(),
                    }
                }
                Some(_) => "loss -".to_owned(),
                None => "unknown -".to_owned(),
            }
        } else {
            "over -".to_owned()
        };
        let seconds = clock.elapsed().as_secs_f64();
        let nodes = Solve::nodes(dfpn) - before;
        if writeln!(out, "{answer} {seconds:.2} {nodes}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::SUCCESS; // the reader has gone
        }
    }
    ExitCode::SUCCESS
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
            Some(Player::Black) => say!("{first} win"),
            Some(Player::White) => say!("{first} loss"),
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
