//! Learns the weights of Hex's local patterns (`games_hex::Patterns`) from self-play.
//!
//! ```text
//! # 1. games: an agent against itself from random openings, one line of moves per game,
//! #    appended and flushed as each ends (run the same command again to continue)
//! cargo run --release --example hex_patterns -- selfplay --size 9 --games 600 --out games-9.txt
//! # 2. weights: minorisation-maximisation on every position of those games, checked on a tenth
//! #    of the games held out
//! cargo run --release --example hex_patterns -- train games-9.txt --out crates/games-hex/data/patterns.txt
//! ```
//!
//! Each position's candidates are its empty cells less the inferior ones (which the prior
//! weighs 0 anyway); positions whose move was inferior are skipped.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use clap::{Parser, Subcommand};
use gamesearch::arena::{Pairing, TextGame};
use gamesearch::core::{Game, Status};
use gamesearch::hex::{Hex, Move, Patterns, Sample};
use gamesearch::search::AgentSpec;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;

/// Learns Hex's pattern weights from self-play.
#[derive(Parser, Debug)]
#[command(name = "hex_patterns", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Plays an agent against itself and appends each game's moves to a file.
    Selfplay {
        /// The board's side.
        #[arg(long, default_value_t = 9)]
        size: u32,
        /// How many games the file should hold; those it holds already are not played again.
        #[arg(long, default_value_t = 600)]
        games: u64,
        /// The agent on both sides.
        #[arg(long, default_value = "best:iterations=10000")]
        agent: String,
        /// Plies played at random before the agent takes over, for varied games.
        #[arg(long, default_value_t = 2)]
        random_plies: u32,
        /// A game ends when the mover's chosen move has a mean reward below this or above one
        /// minus this: once a game is decided, every move wins (or loses) and the moves teach
        /// nothing.
        #[arg(long, default_value_t = 0.05)]
        decided: f64,
        /// The run's seed: game `k` is seeded from it and `k`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The file of games (one line each: the moves, separated by spaces).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the pattern weights to the moves of recorded games.
    Train {
        /// The board's side the games were played on.
        #[arg(long, default_value_t = 9)]
        size: u32,
        /// Files of games, as `selfplay` writes them.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Plies at the start of each game not learned from (the random opening).
        #[arg(long, default_value_t = 2)]
        skip: usize,
        /// Rounds of minorisation-maximisation.
        #[arg(long, default_value_t = 40)]
        rounds: usize,
        /// Where to write the weights (`Patterns::to_text`).
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Selfplay {
            size,
            games,
            agent,
            random_plies,
            decided,
            seed,
            out,
        } => selfplay(size, games, &agent, random_plies, decided, seed, &out),
        Command::Train {
            size,
            games,
            skip,
            rounds,
            out,
        } => train(size, &games, skip, rounds, &out),
    };
    common::finish("hex_patterns", result)
}

fn selfplay(
    size: u32,
    games: u64,
    agent: &str,
    random_plies: u32,
    decided: f64,
    seed: u64,
    out: &PathBuf,
) -> Result<(), String> {
    let spec: AgentSpec = agent
        .parse()
        .unwrap_or_else(|e| common::usage_error(format!("--agent: {e}")));
    let start = Hex::new(size).unwrap_or_else(|e| common::usage_error(format!("--size: {e}")));
    let done = match File::open(out) {
        Ok(file) => BufReader::new(file).lines().count() as u64,
        Err(_) => 0,
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let stop = common::stop_flag_saying("the game in progress finishes and is kept");
    let bar = common::progress_bar(games);
    bar.set_position(done.min(games));
    for k in done..games {
        if stop.load(Ordering::SeqCst) {
            bar.abandon();
            eprintln!("stopped after {k} of {games} games; the same command continues");
            return Ok(());
        }
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut position = start.clone();
        let mut moves = Vec::new();
        for _ in 0..random_plies {
            if position.status() != Status::Ongoing {
                break;
            }
            let mut actions = Vec::new();
            position.legal_actions(&mut actions);
            let action = actions[rng.random_range(0..actions.len())];
            position.play(action);
            moves.push(action);
        }
        let [b, w] = Pairing {
            black: 0,
            white: 1,
            number: k,
            opening: 0,
        }
        .seeds(seed);
        let build = |s| Hex::agent(&spec, s).unwrap_or_else(|e| common::usage_error(e));
        let (mut black, mut white) = (build(b), build(w));
        let budget = spec.budget();
        // The agents' moves until the game ends or is decided.
        let mut agents = [&mut *black, &mut *white];
        while position.status() == Status::Ongoing {
            let mover = position.to_move().index();
            let action = agents[mover]
                .choose(&position, &budget)
                .ok_or("the agent gave no move in an ongoing game")?;
            let mean = agents[mover].report().and_then(|r| {
                r.actions
                    .iter()
                    .find(|a| a.action == action)
                    .map(|a| a.mean)
            });
            for agent in &mut agents {
                agent.played(&position, action);
            }
            position.play(action);
            moves.push(action);
            if mean.is_some_and(|m| m < decided || m > 1.0 - decided) {
                break;
            }
        }
        let line: Vec<String> = moves.iter().map(Move::to_string).collect();
        writeln!(file, "{}", line.join(" "))
            .and_then(|()| file.flush())
            .map_err(|e| format!("{}: {e}", out.display()))?;
        bar.inc(1);
    }
    bar.finish();
    eprintln!("{games} games in {}", out.display());
    Ok(())
}

/// The positions of one file's games, each with its candidates and the move played.
fn samples(path: &PathBuf, start: &Hex, skip: usize) -> Result<Vec<Vec<Sample>>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut games = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let at = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
        let moves: Vec<Move> = line
            .split_whitespace()
            .map(|m| m.parse().map_err(|e| at(format!("{e}"))))
            .collect::<Result<_, _>>()?;
        let mut position = start.clone();
        let mut game = Vec::new();
        for (ply, &action) in moves.iter().enumerate() {
            if ply >= skip
                && let Move::Place(played) = action
            {
                let inferior = position.inferior_cells();
                let mut candidates = Vec::new();
                let mut chosen = None;
                let mut actions = Vec::new();
                position.legal_actions(&mut actions);
                for action in actions {
                    if let Move::Place(cell) = action
                        && !inferior.contains(cell)
                        && let Some(shape) = position.local_shape(cell)
                    {
                        if cell == played {
                            chosen = Some(candidates.len());
                        }
                        candidates.push(shape);
                    }
                }
                if let Some(chosen) = chosen {
                    game.push(Sample { candidates, chosen });
                }
            }
            position
                .try_play(action)
                .map_err(|e| at(format!("move {}: {e}", ply + 1)))?;
        }
        games.push(game);
    }
    Ok(games)
}

fn train(
    size: u32,
    paths: &[PathBuf],
    skip: usize,
    rounds: usize,
    out: &PathBuf,
) -> Result<(), String> {
    let started = Instant::now();
    let start = Hex::new(size).unwrap_or_else(|e| common::usage_error(format!("--size: {e}")));
    let mut games = Vec::new();
    for path in paths {
        games.extend(samples(path, &start, skip)?);
    }
    if games.len() < 10 {
        return Err(format!(
            "{} games: too few to learn from (at least 10)",
            games.len()
        ));
    }
    // Every tenth game is held out, to check that the weights predict moves they did not see.
    let (mut learn, mut check) = (Vec::new(), Vec::new());
    for (i, game) in games.into_iter().enumerate() {
        if i % 10 == 9 { &mut check } else { &mut learn }.extend(game);
    }
    eprintln!(
        "{} positions to learn from, {} held out ({:.1} s to read)",
        learn.len(),
        check.len(),
        started.elapsed().as_secs_f64()
    );
    let table = Patterns::train(&learn, rounds);
    let report = |name: &str, t: &Patterns| {
        // The share of positions where the move played weighs most (ties shared).
        let top: f64 = check
            .iter()
            .map(|s| {
                let best = s
                    .candidates
                    .iter()
                    .map(|&c| t.weight(c))
                    .fold(0.0f32, f32::max);
                let tied = s
                    .candidates
                    .iter()
                    .filter(|&&c| t.weight(c) == best)
                    .count();
                if t.weight(s.candidates[s.chosen]) == best {
                    1.0 / tied as f64
                } else {
                    0.0
                }
            })
            .sum();
        println!(
            "{name:<10} held-out log-likelihood {:>7.3}, move predicted first {:>5.1}%",
            t.log_likelihood(&check),
            100.0 * top / check.len().max(1) as f64
        );
    };
    report("uniform", &Patterns::default());
    report("learned", &table);
    let header = format!(
        "# Hex pattern weights (games_hex::Patterns), trained by `hex_patterns train` on {} positions\n# of: {}\n",
        learn.len(),
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    std::fs::write(out, header + &table.to_text())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "weights in {} ({:.1} s)",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
