//! Solve Connect Four positions exactly.
//!
//! ```text
//! cargo run --release --example connect4_solve < crates/games-connect4/tests/data/Test_L2_R1
//! head -50 crates/games-connect4/tests/data/Test_L1_R3 | cargo run --release --example connect4_solve
//! echo 4453 | cargo run --release --example connect4_solve -- --weak
//! cargo run --release --example connect4_solve -- --best < crates/games-connect4/tests/data/Test_L1_R2
//! ```
//!
//! Reads lines of the public test-set format from stdin (a move string of 1-based columns,
//! optionally followed by the expected score) and prints, per line, `MOVES SCORE NODES
//! MICROSECONDS`, then a summary on stderr: positions, mean time and nodes, and how many scores
//! differ from the expected ones. SCORE is for the player to move: positive when it wins (the
//! earlier, the larger: 22 - k for a win with its k-th stone on 7x6), 0 for a draw. A bad line
//! is reported and skipped; the exit status is 1 if any line was bad or any score differed.
//!
//! With `--best`, each line also gets the best move (`MOVES SCORE BEST NODES MICROSECONDS`, as
//! the `solver` agent would play it) and the move is checked: the position after it is solved
//! again and must score the negative of the position's score (or end the game), so that a
//! wrong move counts as a difference too.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use game_core::Game;
use gamesearch::connect4::{Connect4, Solver};

/// Solve Connect Four positions read from stdin (MOVES [EXPECTED] per line).
#[derive(Parser, Debug)]
#[command(name = "connect4_solve", version, about)]
struct Cli {
    /// Only win, draw or loss (scores 1, 0, -1): faster. Expected scores compare by sign.
    #[arg(long)]
    weak: bool,
    /// Also find a best move (the fastest win, the slowest loss) and check that it keeps the
    /// score. Not with `--weak`.
    #[arg(long, conflicts_with = "weak")]
    best: bool,
    /// Accepted like every example's; the solver is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut solver = Solver::new();
    let (mut solved, mut bad_lines, mut wrong) = (0u64, 0u64, 0u64);
    let (mut total_micros, mut total_nodes) = (0u128, 0u64);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("line {}: not text", number + 1);
            bad_lines += 1;
            continue;
        };
        let mut fields = line.split_whitespace();
        let Some(moves) = fields.next() else { continue };
        let expected = match fields.next().map(str::parse::<i32>) {
            None => None,
            Some(Ok(score)) => Some(score),
            Some(Err(_)) => {
                eprintln!(
                    "line {}: the expected score is not a number: {line:?}",
                    number + 1
                );
                bad_lines += 1;
                continue;
            }
        };
        let position: Connect4 = match moves.parse() {
            Ok(position) => position,
            Err(error) => {
                eprintln!("line {}: {error}", number + 1);
                bad_lines += 1;
                continue;
            }
        };
        let nodes_before = solver.nodes();
        let clock = Instant::now();
        let solved_now = if cli.best {
            solver
                .best_move(&position)
                .map(|(column, score)| (score, Some(column)))
        } else {
            solver.score(&position, cli.weak).map(|score| (score, None))
        };
        let (score, best) = match solved_now {
            Ok(solved_now) => solved_now,
            Err(error) => {
                eprintln!("line {}: {moves}: {error}", number + 1);
                bad_lines += 1;
                continue;
            }
        };
        let micros = clock.elapsed().as_micros();
        if let Some(column) = best {
            let after = position.after(column);
            let kept = after.status().is_over() || solver.score(&after, false) == Ok(-score);
            if !kept {
                eprintln!(
                    "line {}: {moves}: the move {column} does not keep the score {score}",
                    number + 1
                );
                wrong += 1;
            }
        }
        let nodes = solver.nodes() - nodes_before;
        solved += 1;
        total_micros += micros;
        total_nodes += nodes;
        if let Some(expected) = expected {
            let expected = if cli.weak {
                expected.signum()
            } else {
                expected
            };
            if expected != score {
                eprintln!(
                    "line {}: {moves}: score {score}, expected {expected}",
                    number + 1
                );
                wrong += 1;
            }
        }
        let best = best.map(|c| format!(" {c}")).unwrap_or_default();
        if writeln!(out, "{moves} {score}{best} {nodes} {micros}").is_err() {
            return ExitCode::FAILURE; // stdout closed
        }
    }
    let mean = |total: f64| {
        if solved == 0 {
            0.0
        } else {
            total / solved as f64
        }
    };
    eprintln!(
        "{solved} positions: mean {:.1} us and {:.0} nodes per position; {wrong} scores differ from the expected ones; {bad_lines} bad lines",
        mean(total_micros as f64),
        mean(total_nodes as f64)
    );
    if bad_lines > 0 || wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
