//! Builds (or extends) a Hex opening book (`games_hex::Book`), resuming where it stopped.
//!
//! ```text
//! cargo run --release --example hex_book -- --size 9 --openings "a1 a3 a5 a7 a9 b1 c1 e1 g1 i1"
//! cargo run --release --example hex_book -- --size 9 --plies 9 --replies 5,3,2 --book my-book.txt
//! ```
//!
//! The book answers the positions a player meets in the first `--plies` plies from each root
//! (the empty board, and each `--openings` cell as Black's first stone), whichever side it
//! plays: when the book's player is to move, the move a long search prefers (`--agent`, by
//! default `best` with 800,000 iterations, about ten times what it plays in a second); when the
//! opponent is, each of the `--replies` moves that search found likeliest (those with at least
//! `--min-share` of its visits), so that the book still has the next move after any of them.
//! Every position is searched once and kept with its preferred moves, their share of the
//! visits and their mean rewards.
//!
//! Each searched position is appended to the book file at once (a line, flushed): stop the
//! build at any moment (Ctrl-C, a time limit) and run the same command again to go on. The
//! positions are searched ply by ply, each with a fixed number of iterations and a seed of its
//! own, and the book's own moves decide the next ply, so a resumed build, or one with another
//! `--jobs`, makes the same book as an unbroken one. Raising `--plies` later extends the book.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use clap::Parser;
use gamesearch::arena::TextGame;
use gamesearch::core::{Game, Player, Status};
use gamesearch::hex::{Book, BookMove, Cell, Hex, Move};
use gamesearch::search::AgentSpec;

mod common;

/// Builds a Hex opening book from long searches, resuming an interrupted build.
#[derive(Parser, Debug)]
#[command(name = "hex_book", version, about)]
struct Cli {
    /// The board's side.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(1..=19))]
    size: u8,
    /// Games with the swap rule.
    #[arg(long)]
    swap: bool,
    /// Roots besides the empty board: Black's first stone on each of these cells.
    #[arg(long, default_value = "")]
    openings: String,
    /// Leave the empty board out of the roots.
    #[arg(long)]
    no_empty: bool,
    /// How many plies past each root the book reaches.
    #[arg(long, default_value_t = 7)]
    plies: u32,
    /// The opponent's moves followed at each of its turns: one number for every turn, or a
    /// list for its first turns in order (the last number for the turns after), such as
    /// `4,3,2`.
    #[arg(long, default_value = "5,2,1", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=8))]
    replies: Vec<u32>,
    /// An opponent's move is followed only with at least this share of the search's visits
    /// (the likeliest always is).
    #[arg(long, default_value_t = 0.001)]
    min_share: f32,
    /// The search that chooses each position's moves (with a fixed number of iterations, so
    /// that the book does not depend on the machine's speed or load).
    #[arg(long, default_value = "best:iterations=800000,book=false")]
    agent: String,
    /// Searches at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// The seed of the searches (each position's search is seeded from it and the position).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The book file, created if missing and extended otherwise (default:
    /// crates/games-hex/data/book-NxN.txt).
    #[arg(long)]
    book: Option<PathBuf>,
}

/// A position of the book's tree: the moves from the empty board, and the player whose
/// book it is (who gets one move at its turns; the other gets `--replies`).
#[derive(Clone)]
struct Node {
    history: Vec<Move>,
    player: Player,
    /// The opponent's turns on the way from the root.
    turns: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    common::finish("hex_book", build(&cli))
}

fn build(cli: &Cli) -> Result<(), String> {
    let spec: AgentSpec = cli
        .agent
        .parse()
        .unwrap_or_else(|e| common::usage_error(format!("--agent: {e}")));
    if spec.budget().iterations.is_none() || spec.budget().time.is_some() {
        common::usage_error(
            "--agent: give the search a number of iterations and no time (iterations=N), so that the book does not depend on the machine",
        );
    }
    Hex::agent(&spec, 0).unwrap_or_else(|e| common::usage_error(format!("--agent: {e}")));
    let path = cli.book.clone().unwrap_or_else(|| {
        PathBuf::from(format!("crates/games-hex/data/book-{0}x{0}.txt", cli.size))
    });
    let mut book = read_book(&path, cli.size, cli.swap)?;
    let start = book.start();
    let mut roots = Vec::new();
    if !cli.no_empty {
        roots.push(Vec::new());
    }
    for cell in cli.openings.split_whitespace() {
        let stone: Cell = cell
            .parse()
            .unwrap_or_else(|e| common::usage_error(format!("--openings: {cell:?}: {e}")));
        if let Err(e) = start.check(Move::Place(stone)) {
            common::usage_error(format!("--openings: {cell}: {e}"));
        }
        roots.push(vec![Move::Place(stone)]);
    }
    if roots.is_empty() {
        common::usage_error("no roots: give --openings or leave out --no-empty");
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if book.is_empty() && std::fs::metadata(&path).map_or(0, |m| m.len()) == 0 {
        write!(
            file,
            "# A Hex opening book: MOVES : MOVE SHARE MEAN, ... (games_hex::Book).\n\
             # Built by `hex_book --agent {} --plies {} --replies {} --min-share {}`.\n{}",
            cli.agent,
            cli.plies,
            cli.replies
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
            cli.min_share,
            book.header()
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let jobs = cli.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |j| j as usize,
    );
    let stop = common::stop_flag_saying(
        "the searches in progress finish and are kept, then the build ends",
    );
    let mut level: Vec<Node> = roots
        .iter()
        .flat_map(|history| {
            Player::BOTH.map(|player| Node {
                history: history.clone(),
                player,
                turns: 0,
            })
        })
        .collect();
    let file = Mutex::new(file);
    for depth in 0..cli.plies {
        // The positions of this ply that need a search: each once, the last ply's only where
        // the book's player is to move (the opponent's replies there would lead past the end).
        // (A book of the ones taken tells positions apart up to the half turn.)
        let mut taken = Book::new(cli.size, cli.swap);
        let todo: Vec<Vec<Move>> = level
            .iter()
            .filter(|node| {
                let position = replay(&start, &node.history);
                let wanted = position.status() == Status::Ongoing
                    && !book.contains(&position)
                    && !taken.contains(&position)
                    && (depth + 1 < cli.plies || position.to_move() == node.player);
                if wanted {
                    taken.insert(&position, &[]);
                }
                wanted
            })
            .map(|node| node.history.clone())
            .collect();
        if !todo.is_empty() {
            eprintln!(
                "ply {} of {}: {} positions to search ({} in the book)",
                depth + 1,
                cli.plies,
                todo.len(),
                book.len()
            );
            let bar = common::progress_bar_of(todo.len() as u64, "positions");
            let next = AtomicUsize::new(0);
            let found = Mutex::new(Vec::new());
            let failure = Mutex::new(None);
            std::thread::scope(|scope| {
                for _ in 0..jobs.min(todo.len()) {
                    scope.spawn(|| {
                        while !stop.load(Ordering::SeqCst) {
                            let Some(history) = todo.get(next.fetch_add(1, Ordering::SeqCst))
                            else {
                                break;
                            };
                            let position = replay(&start, history);
                            let result = search(&spec, cli.seed, &position).and_then(|moves| {
                                let line = Book::line(history, &moves);
                                let mut file = file.lock().unwrap_or_else(PoisonError::into_inner);
                                file.write_all(line.as_bytes())
                                    .and_then(|()| file.flush())
                                    .map_err(|e| format!("{}: {e}", path.display()))?;
                                Ok(moves)
                            });
                            match result {
                                Ok(moves) => found
                                    .lock()
                                    .unwrap_or_else(PoisonError::into_inner)
                                    .push((position, moves)),
                                Err(e) => {
                                    *failure.lock().unwrap_or_else(PoisonError::into_inner) =
                                        Some(e);
                                    stop.store(true, Ordering::SeqCst);
                                }
                            }
                            bar.inc(1);
                        }
                    });
                }
            });
            bar.finish_and_clear();
            if let Some(e) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
                return Err(e);
            }
            for (position, moves) in found.into_inner().unwrap_or_else(PoisonError::into_inner) {
                book.insert(&position, &moves);
            }
            if stop.load(Ordering::SeqCst) {
                eprintln!(
                    "stopped with {} positions in {}; the same command continues",
                    book.len(),
                    path.display()
                );
                return Ok(());
            }
        }
        // The next ply: the book's move at its player's turns, the likeliest replies at the
        // opponent's.
        level = level
            .iter()
            .flat_map(|node| {
                let position = replay(&start, &node.history);
                let moves = book.get(&position).unwrap_or_default();
                let theirs = position.to_move() != node.player;
                let take = if theirs {
                    cli.replies[node.turns.min(cli.replies.len() - 1)] as usize
                } else {
                    1
                };
                let children: Vec<Node> = moves
                    .iter()
                    .enumerate()
                    .filter(|&(i, m)| i == 0 || m.share >= cli.min_share)
                    .take(take)
                    .map(|(_, m)| {
                        let mut history = node.history.clone();
                        history.push(m.action);
                        Node {
                            history,
                            player: node.player,
                            turns: node.turns + usize::from(theirs),
                        }
                    })
                    .collect();
                children
            })
            .collect();
    }
    eprintln!("{} positions in {}", book.len(), path.display());
    Ok(())
}

/// The book in `path` (an empty one when there is no file yet), checked to be of this size
/// (a usage error otherwise). A last line cut short by an earlier stop is dropped from the
/// file first, so that the lines appended next start on a line of their own.
fn read_book(path: &Path, size: u8, swap: bool) -> Result<Book, String> {
    let name = path.display();
    let text = common::read_appended(path)?;
    if !text.lines().any(|l| l.trim().starts_with("hex")) {
        return Ok(Book::new(size, swap));
    }
    let book: Book = text.parse().map_err(|e| format!("{name}: {e}"))?;
    if (book.size(), book.swap_rule()) != (size, swap) {
        common::usage_error(format!(
            "{name} is a book for {}x{}{}: give the same --size and --swap",
            book.size(),
            book.size(),
            if book.swap_rule() { " with swap" } else { "" }
        ));
    }
    Ok(book)
}

fn replay(start: &Hex, history: &[Move]) -> Hex {
    let mut position = start.clone();
    for &action in history {
        position.play(action);
    }
    position
}

/// The moves a search of `position` prefers: the one it chose first, then the others by
/// visits (up to eight in all), each with its share of the visits and its mean reward.
fn search(spec: &AgentSpec, seed: u64, position: &Hex) -> Result<Vec<BookMove>, String> {
    let mut agent = Hex::agent(spec, seed ^ position.position_hash()).map_err(|e| e.to_string())?;
    let chosen = agent
        .choose(position, &spec.budget())
        .ok_or("the agent gave no move in an ongoing game")?;
    let report = agent.report().ok_or("the agent reports no search")?;
    if report.iterations == 0 {
        return Err("the agent did not search (a book of its own?): give it book=false".into());
    }
    let total: u64 = report.actions.iter().map(|a| a.visits).sum::<u64>().max(1);
    let mut moves: Vec<BookMove> = report
        .actions
        .iter()
        .filter(|a| a.action == chosen)
        .chain(report.actions.iter().filter(|a| a.action != chosen))
        .filter(|a| !a.mean.is_nan())
        .take(8)
        .map(|a| BookMove {
            action: a.action,
            share: a.visits as f32 / total as f32,
            mean: a.mean.clamp(0.0, 1.0) as f32,
        })
        .collect();
    if moves.first().map(|m| m.action) != Some(chosen) {
        moves.insert(
            0,
            BookMove {
                action: chosen,
                share: 0.0,
                mean: 0.5,
            },
        );
    }
    Ok(moves)
}
