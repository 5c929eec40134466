//! Build (or extend) the Connect Four opening book, resuming where it stopped.
//!
//! ```text
//! cargo run --release --example connect4_book -- --depth 10
//! cargo run --release --example connect4_book -- --depth 12 --book my.txt
//! ```
//!
//! The book holds the positions a perfect player meets first, whichever side it plays: the
//! empty board, then ply by ply every position reached when one side plays the book's moves
//! and the other anything at all (so, as first player, every reply to its moves; as second
//! player, every first move and every reply after). Each position gets its exact score and a
//! best move from `games_connect4::Solver` (one position and its mirror image are one entry).
//!
//! Every solved position is appended to the book file at once (a line, flushed): stop the
//! build at any moment (Ctrl-C, a time limit) and run the same command again to go on. The
//! positions are solved ply by ply, shallowest first, in a fixed order, and the book's own
//! moves decide the next ply, so a resumed build does exactly what an unbroken one would.
//! Progress goes to stderr: the ply, positions done and left, the time per position.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use game_core::Game;
use gamesearch::connect4::{Book, Column, Connect4, Solver};

/// Build the Connect Four 7x6 opening book, resuming an interrupted build.
#[derive(Parser, Debug)]
#[command(name = "connect4_book", version, about)]
struct Cli {
    /// Book positions up to this many plies from the empty board.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// The book file, created if missing and extended otherwise.
    #[arg(long, default_value = "crates/games-connect4/book/7x6.txt")]
    book: PathBuf,
    /// Accepted like every example's; the search is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match build(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("connect4_book: {error}");
            ExitCode::FAILURE
        }
    }
}

fn build(cli: &Cli) -> Result<(), String> {
    let path = &cli.book;
    let name = path.display();
    let mut text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    // A line cut short by an earlier stop is dropped from the file before anything is added.
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    if complete < text.len() {
        eprintln!("{name}: dropping an unfinished last line");
        text.truncate(complete);
        std::fs::write(path, &text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    if text.is_empty() {
        text = "# Connect Four 7x6 opening book: MOVES SCORE BEST (see docs/tools.md)\n".to_owned();
        std::fs::write(path, &text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    let mut book: Book = text.parse().map_err(|e| format!("{name}: {e}"))?;
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    eprintln!("{name}: {} positions so far", book.len());
    let mut solver = Solver::new();
    let started = Instant::now();
    // The positions of each ply to book, as move strings, two plies at a time: the book's
    // side to move at ply p leads to ply p + 2 through its move and any reply.
    let root = Connect4::new();
    let mut plies: Vec<Vec<String>> = vec![vec![String::new()], Vec::new()];
    plies[1] = root
        .legal_actions_vec()
        .iter()
        .map(|c: &Column| c.to_string())
        .collect();
    for ply in 0..=cli.depth as usize {
        let positions = unique(std::mem::take(&mut plies[ply]));
        let todo = positions
            .iter()
            .filter(|(_, p)| book.get(p).is_none())
            .count();
        eprintln!(
            "ply {ply}: {} positions, {todo} to solve ({} s so far)",
            positions.len(),
            started.elapsed().as_secs()
        );
        let (mut done, ply_started) = (0usize, Instant::now());
        let mut next = Vec::new();
        for (moves, position) in &positions {
            let best = match book.get(position) {
                Some((best, _)) => best,
                None => {
                    let clock = Instant::now();
                    let (best, score) = solver
                        .best_move(position)
                        .map_err(|e| format!("{moves}: {e}"))?;
                    let written = if moves.is_empty() { "-" } else { moves };
                    file.write_all(Book::line(written, best, score).as_bytes())
                        .and_then(|()| file.flush())
                        .map_err(|e| format!("cannot write {name}: {e}"))?;
                    book.insert(position, best, score);
                    done += 1;
                    let per = ply_started.elapsed().as_secs_f64() / done as f64;
                    eprintln!(
                        "ply {ply}: {done}/{todo} {written} score {score:+} best {best} ({:.1} s; about {:.0} s left in this ply)",
                        clock.elapsed().as_secs_f64(),
                        per * (todo - done) as f64
                    );
                    best
                }
            };
            // The opponent's every reply to the book's move.
            let after = position.after(best);
            if after.status().is_over() {
                continue;
            }
            for reply in after.legal_actions_vec() {
                if !after.after(reply).status().is_over() {
                    next.push(format!("{moves}{best}{reply}"));
                }
            }
        }
        if plies.len() <= ply + 2 {
            plies.resize(ply + 3, Vec::new());
        }
        plies[ply + 2].extend(next);
    }
    eprintln!(
        "{name}: {} positions, {} s",
        book.len(),
        started.elapsed().as_secs()
    );
    Ok(())
}

/// The positions of `lines` (move strings), one per position up to mirror image, in a fixed
/// order (by move string).
fn unique(mut lines: Vec<String>) -> Vec<(String, Connect4)> {
    lines.sort();
    let mut seen = Book::default();
    let mut out = Vec::new();
    for moves in lines {
        let position: Connect4 = moves.parse().expect("moves played by this tool");
        if seen.get(&position).is_none() {
            seen.insert(&position, Column::new(0), 0);
            out.push((moves, position));
        }
    }
    out
}
