//! Solve Othello endgames exactly: the final disc difference with best play, and a best move.
//!
//! ```text
//! cargo run --release --example othello_solve < ../shared/data/othello/ffo-01-19.obf
//! cargo run --release --example othello_solve -- ffo-01-19.obf ffo-20-39.obf
//! echo "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X" | cargo run --release --example othello_solve
//! ```
//!
//! Reads positions in the OBF format of the endgame test suites (FFO, Edax, Egaroucid): a
//! 64-character board (`X` black, `O` white, `-` empty; a1 to h1, then row 2, ...), a space,
//! the side to move, and optionally `;` and the moves with their exact scores (`G8:+18; H1:+12;
//! ...`). Prints, per position, `LINE EMPTIES SCORE BEST NODES SECONDS NODES/S`, and checks the
//! score and the move against the expected ones when given (the move must be one of those
//! with the best score). A summary goes to stderr; the exit status is 1 if any line was bad or
//! any answer wrong.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use game_core::Player;
use gamesearch::othello::{Endgame, Othello};

/// Solve Othello endgame positions (OBF lines) from files or stdin.
#[derive(Parser, Debug)]
#[command(name = "othello_solve", version, about)]
struct Cli {
    /// OBF files to read; stdin when none.
    files: Vec<std::path::PathBuf>,
    /// The transposition table's size in MiB (24 bytes a position, rounded down to a power of
    /// two of positions).
    #[arg(long, default_value_t = 96, value_parser = clap::value_parser!(u16).range(1..))]
    table: u16,
    /// Accepted like every example's; the search is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Totals over the positions read.
#[derive(Default)]
struct Tally {
    solved: u64,
    wrong: u64,
    bad: u64,
    nodes: u64,
    seconds: f64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut endgame = Endgame::with_table_bytes(usize::from(cli.table) << 20);
    let mut tally = Tally::default();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut lines: Vec<(String, String)> = Vec::new();
    if cli.files.is_empty() {
        for (number, line) in std::io::stdin().lock().lines().enumerate() {
            match line {
                Ok(line) => lines.push((format!("{}", number + 1), line)),
                Err(_) => {
                    eprintln!("line {}: not text", number + 1);
                    tally.bad += 1;
                }
            }
        }
    }
    for file in &cli.files {
        match std::fs::read_to_string(file) {
            Ok(text) => lines.extend(
                text.lines()
                    .enumerate()
                    .map(|(n, l)| (format!("{}:{}", file.display(), n + 1), l.to_owned())),
            ),
            Err(error) => {
                eprintln!("{}: {error}", file.display());
                tally.bad += 1;
            }
        }
    }
    for (place, line) in lines {
        if line.trim().is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let (board, answers) = line.split_once(';').unwrap_or((&line, ""));
        let position: Othello = match board.parse() {
            Ok(position) => position,
            Err(error) => {
                eprintln!("{place}: {error}");
                tally.bad += 1;
                continue;
            }
        };
        let expected = match expected(answers) {
            Ok(expected) => expected,
            Err(error) => {
                eprintln!("{place}: {error}");
                tally.bad += 1;
                continue;
            }
        };
        let empties = 64 - position.discs(Player::Black) - position.discs(Player::White);
        let nodes = endgame.nodes();
        let clock = Instant::now();
        let Ok((best, score)) = endgame.best_move(&position) else {
            eprintln!("{place}: the game is over");
            tally.bad += 1;
            continue;
        };
        let seconds = clock.elapsed().as_secs_f64();
        let nodes = endgame.nodes() - nodes;
        tally.solved += 1;
        tally.nodes += nodes;
        tally.seconds += seconds;
        if let Some((top, moves)) = &expected {
            let best_text = best.to_string();
            if score != *top || !moves.iter().any(|m| m.eq_ignore_ascii_case(&best_text)) {
                eprintln!(
                    "{place}: {best_text} scoring {score:+}, expected {top:+} by {}",
                    moves.join(" or ")
                );
                tally.wrong += 1;
            }
        }
        let rate = nodes as f64 / seconds.max(1e-9);
        if writeln!(
            out,
            "{place} {empties} {score:+} {best} {nodes} {seconds:.3} {rate:.0}"
        )
        .is_err()
        {
            return ExitCode::FAILURE; // stdout closed
        }
    }
    eprintln!(
        "{} positions: {} nodes in {:.2} s ({:.1} M nodes/s); {} wrong; {} bad lines",
        tally.solved,
        tally.nodes,
        tally.seconds,
        tally.nodes as f64 / tally.seconds.max(1e-9) / 1e6,
        tally.wrong,
        tally.bad
    );
    if tally.bad > 0 || tally.wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The best score and the moves that reach it, from `G8:+18; H1:+12; ...`; `None` when the
/// line gives no answers.
fn expected(answers: &str) -> Result<Option<(i32, Vec<String>)>, String> {
    let mut scored = Vec::new();
    for part in answers.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (square, score) = part
            .split_once(':')
            .ok_or_else(|| format!("{part:?} is not MOVE:SCORE"))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| format!("{part:?}: the score is not a number"))?;
        scored.push((square.trim().to_owned(), score));
    }
    let Some(top) = scored.iter().map(|(_, s)| *s).max() else {
        return Ok(None);
    };
    let moves = scored
        .into_iter()
        .filter(|(_, s)| *s == top)
        .map(|(m, _)| m)
        .collect();
    Ok(Some((top, moves)))
}
