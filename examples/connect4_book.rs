//! Build (or extend) the Connect Four opening book, resuming where it stopped.
//!
//! ```text
//! cargo run --release --example connect4_book -- --depth 12
//! cargo run --release --example connect4_book -- --depth 14 --book my.txt
//! cargo run --release --example connect4_book -- --reach 100
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
//!
//! With `--reach GAMES`, nothing is built: the tool measures how far the book and the solver
//! reach. It plays GAMES games from the empty board, the book's player alternating between
//! first and second: that player plays the book's move while the book has the position and
//! the solver's best move after it (one solver per game, its table kept from move to move, as
//! the `solver` agent keeps it), the other player a best move (by the book's scores while it
//! has every reply, by the solver after that) or, half of the time, a random legal move
//! (`--seed`), so that the games go both into lost lines and into the
//! hard middle game. Each of the
//! solver's moves past the book is timed, and a table by ply gives the median, the 90th
//! percentile and the slowest time, and how many took over half a second and over a second
//! (the `solver` agent at `time=1s` gives its solver half).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod common;

use common::say;

use clap::Parser;
use game_core::{Game, Outcome, solve::Solve};
use gamesearch::connect4::{Book, Column, Connect4, Solver};
use gamesearch::core::rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Build the Connect Four 7x6 opening book, resuming an interrupted build.
#[derive(Parser, Debug)]
#[command(name = "connect4_book", version, about)]
struct Cli {
    /// Book positions up to this many plies from the empty board.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// The book file, created if missing and extended otherwise.
    #[arg(long, default_value = "crates/games-connect4/book/7x6.txt")]
    book: PathBuf,
    /// Measure the reach of the book and the solver over this many games instead of building.
    #[arg(long, value_name = "GAMES")]
    reach: Option<u32>,
    /// The random player's seed with `--reach`; the build is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.reach {
        Some(games) => reach(&cli, games),
        None => build(&cli),
    };
    match result {
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
    let mut text = common::read_appended(path)?;
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

/// A best move for the book's opponent: from the book's scores of the positions after each
/// move while the book has them all (the opponent's own positions are not in the book), from
/// the solver after that.
fn opponent_move(solver: &mut Solver, book: &Book, position: &Connect4) -> Result<Column, String> {
    let mut best: Option<(i32, Column)> = None;
    for column in position.legal_actions_vec() {
        let after = position.after(column);
        let score = match after.status().outcome() {
            Some(Outcome::Draw) => 0,
            Some(Outcome::Win(_)) => -100, // the opponent wins at once: the book side's worst
            None => match book.get(&after) {
                Some((_, score)) => score,
                None => {
                    let best = Solve::solve(solver, position, None).best;
                    return Ok(best
                        .ok_or_else(|| format!("no best move at {position:?}"))?
                        .0);
                }
            },
        };
        if best.is_none_or(|(lowest, _)| score < lowest) {
            best = Some((score, column));
        }
    }
    Ok(best.expect("an ongoing game has a move").1)
}

/// Plays `games` games, the book and then the solver for one side and random moves for the
/// other, and prints by ply how long the solver took past the book.
fn reach(cli: &Cli, games: u32) -> Result<(), String> {
    let name = cli.book.display();
    let text =
        std::fs::read_to_string(&cli.book).map_err(|e| format!("cannot read {name}: {e}"))?;
    let book: &'static Book = Box::leak(Box::new(
        text.parse::<Book>().map_err(|e| format!("{name}: {e}"))?,
    ));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cli.seed);
    let mut solver = Solver::new().with_book(book);
    // Seconds per solve past the book, by ply.
    let mut times: Vec<Vec<f64>> = Vec::new();
    let started = Instant::now();
    for game in 0..games {
        solver.clear();
        let book_side = game % 2; // 0: the book plays first
        let mut position = Connect4::new();
        while !position.status().is_over() {
            let ply = position.plies() as usize;
            let column = if ply % 2 == book_side as usize {
                let in_book = book.get(&position).is_some();
                let clock = Instant::now();
                let (column, _) = Solve::solve(&mut solver, &position, None)
                    .best
                    .ok_or_else(|| format!("no best move at {position:?}"))?;
                if !in_book {
                    if times.len() <= ply {
                        times.resize(ply + 1, Vec::new());
                    }
                    times[ply].push(clock.elapsed().as_secs_f64());
                }
                column
            } else if rng.random_bool(0.5) {
                position
                    .random_action(&mut rng)
                    .expect("the game is ongoing")
            } else {
                opponent_move(&mut solver, book, &position)?
            };
            position.play(column);
        }
        eprintln!(
            "game {}/{games} done ({} s so far)",
            game + 1,
            started.elapsed().as_secs()
        );
    }
    say!("ply\tsolves\tmedian_s\tp90_s\tmax_s\tover_0.5s\tover_1s");
    for (ply, seconds) in times.iter_mut().enumerate() {
        if seconds.is_empty() {
            continue;
        }
        seconds.sort_by(f64::total_cmp);
        let at = |q: f64| seconds[((seconds.len() - 1) as f64 * q).round() as usize];
        let over = |limit: f64| seconds.iter().filter(|&&s| s > limit).count();
        say!(
            "{ply}\t{}\t{:.3}\t{:.3}\t{:.3}\t{}\t{}",
            seconds.len(),
            at(0.5),
            at(0.9),
            at(1.0),
            over(0.5),
            over(1.0)
        );
    }
    Ok(())
}
