//! Learns the weights of Hex's local patterns (`games_hex::patterns::Patterns`) from self-play.
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
use gamesearch::hex::patterns::{Balancing, Patterns, Sample, Target};
use gamesearch::hex::{Hex, Move};
use gamesearch::search::AgentSpec;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;

use common::say;

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
        size: u8,
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
        size: u8,
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
    /// Searches positions of recorded games and appends each with its value, as targets for
    /// `balance` (run the same command again to continue).
    Values {
        /// The board's side the games were played on.
        #[arg(long, default_value_t = 9)]
        size: u8,
        /// A file of games, as `selfplay` writes them.
        games: PathBuf,
        /// Positions taken from each game, at random plies.
        #[arg(long, default_value_t = 2)]
        per_game: usize,
        /// Plies at the start of each game not taken (the opening).
        #[arg(long, default_value_t = 3)]
        skip: usize,
        /// The agent whose value of the position is the target.
        #[arg(long, default_value = "best:iterations=50000")]
        agent: String,
        /// The run's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The file of targets (one line each: the value for the player to move, then the
        /// moves).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits playout weights to the targets `values` wrote, by simulation balancing.
    Balance {
        /// The board's side.
        #[arg(long, default_value_t = 9)]
        size: u8,
        /// A file of targets, as `values` writes them.
        targets: PathBuf,
        /// Passes over the targets.
        #[arg(long, default_value_t = 10)]
        rounds: usize,
        /// Playouts per target and step (as many again for the gradient).
        #[arg(long, default_value_t = 32)]
        playouts: usize,
        /// The step size.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// The run's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write the weights (`Patterns::to_text`), after every round.
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
        Command::Values {
            size,
            games,
            per_game,
            skip,
            agent,
            seed,
            out,
        } => values(size, &games, per_game, skip, &agent, seed, &out),
        Command::Balance {
            size,
            targets,
            rounds,
            playouts,
            rate,
            seed,
            out,
        } => balance(size, &targets, rounds, playouts, rate, seed, &out),
    };
    common::finish("hex_patterns", result)
}

fn selfplay(
    size: u8,
    games: u64,
    agent: &str,
    random_plies: u32,
    decided: f64,
    seed: u64,
    out: &PathBuf,
) -> Result<(), String> {
    let spec = agent_spec(agent);
    let start = empty_board(size);
    // A line cut short by a kill is dropped, and its game played again.
    let done = common::read_appended(out)?.lines().count() as u64;
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
    let mut games = Vec::new();
    for (i, moves) in read_games(path)?.into_iter().enumerate() {
        let at = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
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
    size: u8,
    paths: &[PathBuf],
    skip: usize,
    rounds: usize,
    out: &PathBuf,
) -> Result<(), String> {
    let started = Instant::now();
    let start = empty_board(size);
    let mut games = Vec::new();
    for path in paths {
        games.extend(samples(path, &start, skip)?);
    }
    // Whole games held out, to check that the weights predict moves they did not see.
    let (learn, check) = hold_out(games, "games")?;
    let (learn, check): (Vec<Sample>, Vec<Sample>) = (
        learn.into_iter().flatten().collect(),
        check.into_iter().flatten().collect(),
    );
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
        say!(
            "{name:<10} held-out log-likelihood {:>7.3}, move predicted first {:>5.1}%",
            t.log_likelihood(&check),
            100.0 * top / check.len().max(1) as f64
        );
    };
    report("uniform", &Patterns::default());
    report("learned", &table);
    let header = format!(
        "# Hex pattern weights (games_hex::patterns::Patterns), trained by `hex_patterns train` on {} positions\n# of: {}\n",
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

/// The `--agent` flag's spec; exits with code 2 and the reason when it does not parse.
fn agent_spec(agent: &str) -> AgentSpec {
    agent
        .parse()
        .unwrap_or_else(|e| common::usage_error(format!("--agent: {e}")))
}

/// The empty board of the `--size` flag; exits with code 2 and the reason when there is none.
fn empty_board(size: u8) -> Hex {
    Hex::new(size).unwrap_or_else(|e| common::usage_error(format!("--size: {e}")))
}

/// `items` split into those to learn from and every tenth, held out; at least 10 are needed.
fn hold_out<T>(items: Vec<T>, what: &str) -> Result<(Vec<T>, Vec<T>), String> {
    if items.len() < 10 {
        return Err(format!(
            "{} {what}: too few to learn from (at least 10, every tenth held out)",
            items.len()
        ));
    }
    let (mut learn, mut check) = (Vec::new(), Vec::new());
    for (i, item) in items.into_iter().enumerate() {
        if i % 10 == 9 { &mut check } else { &mut learn }.push(item);
    }
    Ok((learn, check))
}

/// The moves of each game of a file, a line each.
fn read_games(path: &PathBuf) -> Result<Vec<Vec<Move>>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut games = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let moves = line
            .split_whitespace()
            .map(|m| {
                m.parse::<Move>()
                    .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        games.push(moves);
    }
    Ok(games)
}

fn values(
    size: u8,
    path: &PathBuf,
    per_game: usize,
    skip: usize,
    agent: &str,
    seed: u64,
    out: &PathBuf,
) -> Result<(), String> {
    let spec = agent_spec(agent);
    let start = empty_board(size);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // Every position to search, drawn first so that a second run continues the same list.
    let mut positions = Vec::new();
    for moves in read_games(path)? {
        if moves.len() <= skip + 1 {
            continue;
        }
        for _ in 0..per_game {
            positions.push(moves[..rng.random_range(skip..moves.len() - 1)].to_vec());
        }
    }
    // A line cut short by a kill is dropped, and its position searched again.
    let done = common::read_appended(out)?.lines().count();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let stop = common::stop_flag_saying("the position in progress finishes and is kept");
    let bar = common::progress_bar(positions.len() as u64);
    bar.set_position(done.min(positions.len()) as u64);
    let budget = spec.budget();
    for (k, moves) in positions.iter().enumerate().skip(done) {
        if stop.load(Ordering::SeqCst) {
            bar.abandon();
            eprintln!("stopped after {k} positions; the same command continues");
            return Ok(());
        }
        let mut position = start.clone();
        for &action in moves {
            position.try_play(action).map_err(|e| {
                let line: Vec<String> = moves.iter().map(Move::to_string).collect();
                format!("{}: `{}`: {e}", path.display(), line.join(" "))
            })?;
        }
        let mut searcher =
            Hex::agent(&spec, seed ^ k as u64).unwrap_or_else(|e| common::usage_error(e));
        let value = if position.status() == Status::Ongoing {
            searcher.choose(&position, &budget);
            searcher.report().and_then(|r| r.value())
        } else {
            None
        };
        if let Some(value) = value {
            let line: Vec<String> = moves.iter().map(Move::to_string).collect();
            writeln!(file, "{value:.4} {}", line.join(" "))
        } else {
            // A position that is over (or unsearched) keeps its place, so that lines and
            // positions stay in step.
            writeln!(file, "-")
        }
        .and_then(|()| file.flush())
        .map_err(|e| format!("{}: {e}", out.display()))?;
        bar.inc(1);
    }
    bar.finish();
    Ok(())
}

fn balance(
    size: u8,
    path: &PathBuf,
    rounds: usize,
    playouts: usize,
    rate: f64,
    seed: u64,
    out: &PathBuf,
) -> Result<(), String> {
    let start = empty_board(size);
    if rounds == 0 || playouts == 0 {
        common::usage_error("--rounds and --playouts must be at least 1");
    }
    if !(rate.is_finite() && rate > 0.0) {
        common::usage_error(format!("--rate {rate}: a positive step size"));
    }
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut targets = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let at = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
        let mut fields = line.split_whitespace();
        let Some(value) = fields.next().filter(|&v| v != "-") else {
            continue;
        };
        let value: f64 = value
            .parse()
            .ok()
            .filter(|v| (0.0..=1.0).contains(v))
            .ok_or_else(|| at(format!("`{value}` is not a value from 0 to 1")))?;
        let mut position = start.clone();
        for m in fields {
            let action: Move = m.parse().map_err(|e| at(format!("{e}")))?;
            position.try_play(action).map_err(|e| at(format!("{e}")))?;
        }
        if position.status() == Status::Ongoing {
            targets.push(Target { position, value });
        }
    }
    // Targets held out, to check that the weights predict values they did not see.
    let (learn, check) = hold_out(targets, "targets")?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let error = |t: &Patterns, rng: &mut Xoshiro256PlusPlus| t.balance_error(&check, 256, rng);
    say!(
        "{} targets to fit, {} held out; uniform: held-out squared error {:.4}",
        learn.len(),
        check.len(),
        error(&Patterns::default(), &mut rng)
    );
    let settings = Balancing {
        rounds,
        playouts,
        rate,
    };
    let mut check_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 1);
    let mut failed = None;
    Patterns::balance(&learn, &settings, &mut rng, |round, table| {
        say!(
            "round {round}: held-out squared error {:.4}",
            error(table, &mut check_rng)
        );
        let header = format!(
            "# Hex playout weights, `hex_patterns balance` round {round} on {}\n",
            path.display()
        );
        if let Err(e) = std::fs::write(out, header + &table.to_text()) {
            failed = Some(format!("{}: {e}", out.display()));
        }
    });
    failed.map_or(Ok(()), Err)
}
