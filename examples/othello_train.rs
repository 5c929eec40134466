//! Trains Othello's pattern evaluation (`games_othello::Patterns`): self-play games with exact
//! endgames, then a ridge least-squares fit, in rounds, each resumable.
//!
//! ```text
//! # Round 0: games played by alpha-beta on the hand-set heuristic.
//! cargo run --release --example othello_train -- generate --dir runs/othello --round 0 --chunks 100
//! cargo run --release --example othello_train -- fit --dir runs/othello --rounds 0
//! # Round 1: games played with round 0's weights, fitted on both rounds' games.
//! cargo run --release --example othello_train -- generate --dir runs/othello --round 1 --chunks 100
//! cargo run --release --example othello_train -- fit --dir runs/othello --rounds 0,1
//! ```
//!
//! `generate` plays games in chunks of `--games` (default 100), each chunk in a file of its own
//! (`DIR/round-R/chunk-NNNNN.bin`, written whole and renamed, so a stop never leaves half a
//! chunk): run the same command again after a stop and it plays only the chunks that are
//! missing. Every game's randomness comes from the round, the chunk and the game's number, so
//! the data do not depend on stops, `--jobs` or the machine. A game: `--random` uniformly
//! random moves from the start (a range, `8-16`), then alpha-beta to `--depth` plies on the
//! last round's weights (round 0: on the hand-set heuristic), then, from `--exact` empty
//! squares, the exact endgame's best line. Each position where the player to move has a move
//! is kept with the game's final disc difference for that player: the exact score from
//! `--exact` empties on, the result of the engine's play before.
//!
//! `fit` reads the chunks of `--rounds`, holds out every 20th chunk, fits each phase (in
//! parallel), prints the held-out mean absolute error by phase, and writes
//! `DIR/round-R/patterns.bin` for the last round given (or `--out`). Copy the file to
//! `crates/games-othello/weights/patterns.bin` to build it into the crate; `docs/othello.md`
//! records each round and what it was worth in play.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::{Parser, Subcommand};
use gamesearch::core::{Game, Player, mix64};
use gamesearch::othello::pattern::train::{FitConfig, Sample, errors, fit_phase};
use gamesearch::othello::pattern::{PHASES, phase};
use gamesearch::othello::{BoardValue, Endgame, Heuristic, Midgame, Move, Othello, Patterns};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::prelude::IndexedRandom;
use rayon::prelude::*;

mod common;

/// Trains Othello's pattern evaluation from self-play with exact endgames.
#[derive(Parser, Debug)]
#[command(name = "othello_train", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Plays the chunks of a round's games that are not on disk yet.
    Generate {
        /// The training directory.
        #[arg(long, default_value = "runs/othello")]
        dir: PathBuf,
        /// The round: its games are played with the previous round's weights.
        #[arg(long)]
        round: u32,
        /// Chunks to have in the round (chunk numbers 0 to this minus one).
        #[arg(long, default_value_t = 100)]
        chunks: u32,
        /// Games per chunk.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Random moves at the start of each game: a range `MIN-MAX`.
        #[arg(long, default_value = "8-16")]
        random: String,
        /// The engine's search depth in plies.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Empty squares from which the game is played exactly.
        #[arg(long, default_value_t = 18)]
        exact: u32,
        /// Chunks played at once (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Fits the weights to the games of some rounds.
    Fit {
        /// The training directory.
        #[arg(long, default_value = "runs/othello")]
        dir: PathBuf,
        /// The rounds whose games to fit, such as `0,1,2`.
        #[arg(long, value_delimiter = ',', required = true)]
        rounds: Vec<u32>,
        /// Conjugate-gradient iterations per phase.
        #[arg(long, default_value_t = 100)]
        iterations: u32,
        /// The ridge prior (pseudo-observations of 0 per weight).
        #[arg(long, default_value_t = 50.0)]
        l2: f32,
        /// Where to write the weights (default: the last round's `patterns.bin`).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Measures what ProbCut needs: how far a deep search's value strays from a shallow
    /// one's, by depth, on positions of a round's games (searched with `--weights`).
    Probcut {
        /// The training directory.
        #[arg(long, default_value = "runs/othello")]
        dir: PathBuf,
        /// The round whose positions to use.
        #[arg(long)]
        round: u32,
        /// The weights to search with (default: the built-in ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Positions to measure.
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// The deepest search.
        #[arg(long, default_value_t = 10)]
        depth: u32,
    },
}

/// The settings that decide a round's games, kept in `settings.txt`: a resumed round must
/// have the same.
fn settings_text(
    round: u32,
    games: u32,
    random: (u32, u32),
    depth: u32,
    exact: u32,
    engine: &str,
) -> String {
    format!(
        "round = {round}\ngames per chunk = {games}\nrandom = {}-{}\ndepth = {depth}\nexact = {exact}\nengine = {engine}\n",
        random.0, random.1
    )
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate {
            dir,
            round,
            chunks,
            games,
            random,
            depth,
            exact,
            jobs,
        } => generate(&dir, round, chunks, games, &random, depth, exact, jobs),
        Command::Fit {
            dir,
            rounds,
            iterations,
            l2,
            out,
        } => fit(&dir, &rounds, FitConfig { iterations, l2 }, out),
        Command::Probcut {
            dir,
            round,
            weights,
            positions,
            depth,
        } => probcut(&dir, round, weights.as_deref(), positions, depth),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("othello_train: {message}");
            ExitCode::FAILURE
        }
    }
}

fn round_dir(dir: &Path, round: u32) -> PathBuf {
    dir.join(format!("round-{round}"))
}

fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--random {text}: expected MIN-MAX, such as 8-16");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u32 = low.trim().parse().map_err(|_| bad())?;
    let high: u32 = high.trim().parse().map_err(|_| bad())?;
    if low > high || high > 59 {
        return Err(bad());
    }
    Ok((low, high))
}

#[allow(
    clippy::too_many_arguments,
    reason = "the subcommand's flags, passed on"
)]
fn generate(
    dir: &Path,
    round: u32,
    chunks: u32,
    games: u32,
    random: &str,
    depth: u32,
    exact: u32,
    jobs: Option<usize>,
) -> Result<(), String> {
    let random = parse_range(random)?;
    if !(1..=30).contains(&depth) {
        return Err(format!("--depth {depth}: expected 1 to 30"));
    }
    if exact > 24 {
        return Err(format!(
            "--exact {exact}: at most 24 (each 2 more is about 4 times slower)"
        ));
    }
    if games == 0 {
        return Err("--games must be at least 1".to_owned());
    }
    let here = round_dir(dir, round);
    std::fs::create_dir_all(&here).map_err(|e| format!("{}: {e}", here.display()))?;
    // The engine: the previous round's weights, or the heuristic for round 0.
    let weights = if round == 0 {
        None
    } else {
        let path = round_dir(dir, round - 1).join("patterns.bin");
        Some(Patterns::read(&path).map_err(|e| {
            format!(
                "{e}\n(round {round} plays with round {}'s weights: fit them first)",
                round - 1
            )
        })?)
    };
    let engine = match &weights {
        None => "alpha-beta on the heuristic".to_owned(),
        Some(_) => format!("alpha-beta on round-{}/patterns.bin", round - 1),
    };
    let settings = settings_text(round, games, random, depth, exact, &engine);
    let settings_path = here.join("settings.txt");
    match std::fs::read_to_string(&settings_path) {
        Ok(old) if old != settings => {
            return Err(format!(
                "{} was made with other settings:\n{old}\nthis command has:\n{settings}\
                 use another --round or --dir, or the same settings",
                settings_path.display()
            ));
        }
        Ok(_) => {}
        Err(_) => std::fs::write(&settings_path, &settings)
            .map_err(|e| format!("{}: {e}", settings_path.display()))?,
    }
    let missing: Vec<u32> = (0..chunks)
        .filter(|c| !chunk_path(&here, *c).exists())
        .collect();
    eprintln!(
        "round {round}: {} of {chunks} chunks to play ({games} games each, {engine})",
        missing.len()
    );
    let bar = ProgressBar::new(missing.len() as u64 * u64::from(games));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} of about {duration}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let failed = AtomicUsize::new(0);
    let start = Instant::now();
    let positions = AtomicUsize::new(0);
    pool.install(|| {
        missing.par_iter().for_each(|&chunk| {
            let samples = match &weights {
                None => play_chunk(
                    &Heuristic::default(),
                    round,
                    chunk,
                    games,
                    random,
                    depth,
                    exact,
                    &bar,
                ),
                Some(w) => play_chunk(w, round, chunk, games, random, depth, exact, &bar),
            };
            positions.fetch_add(samples.len(), Ordering::Relaxed);
            let path = chunk_path(&here, chunk);
            let bytes: Vec<u8> = samples.iter().flat_map(Sample::to_bytes).collect();
            let temporary = path.with_extension("tmp");
            if std::fs::write(&temporary, bytes)
                .and_then(|()| std::fs::rename(&temporary, &path))
                .is_err()
            {
                failed.fetch_add(1, Ordering::Relaxed);
            }
        });
    });
    bar.finish_and_clear();
    eprintln!(
        "round {round}: {} positions from {} games in {:.0} s",
        positions.load(Ordering::Relaxed),
        missing.len() as u64 * u64::from(games),
        start.elapsed().as_secs_f64()
    );
    match failed.load(Ordering::Relaxed) {
        0 => Ok(()),
        n => Err(format!(
            "{n} chunks could not be written in {}",
            here.display()
        )),
    }
}

fn chunk_path(here: &Path, chunk: u32) -> PathBuf {
    here.join(format!("chunk-{chunk:05}.bin"))
}

/// One chunk's games, their positions labelled.
#[allow(clippy::too_many_arguments, reason = "the round's settings")]
fn play_chunk<V: BoardValue>(
    value: &V,
    round: u32,
    chunk: u32,
    games: u32,
    random: (u32, u32),
    depth: u32,
    exact: u32,
    bar: &ProgressBar,
) -> Vec<Sample> {
    let mut search = Midgame::with_value(value).without_endgame();
    let mut endgame = Endgame::with_table_bytes(16 << 20);
    let mut samples = Vec::new();
    for game in 0..games {
        let seed = mix64(u64::from(round) << 48 ^ u64::from(chunk) << 20 ^ u64::from(game));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let opening = random.0 + (mix64(seed) % u64::from(random.1 - random.0 + 1)) as u32;
        let mut position = Othello::new();
        let mut seen: Vec<(u64, u64, Player)> = Vec::new();
        let mut final_black = None;
        while !position.status().is_over() {
            let mover = position.to_move();
            if position.mobility() != 0 {
                seen.push((position.bits(mover), position.bits(mover.opponent()), mover));
            }
            let empties = 64 - position.plies() - 4;
            let action = if position.plies() < opening {
                *position
                    .legal_actions_vec()
                    .choose(&mut rng)
                    .unwrap_or(&Move::Pass)
            } else if empties <= exact {
                let (best, score) = endgame.best_move(&position).unwrap_or((Move::Pass, 0));
                if final_black.is_none() {
                    final_black = Some(if mover == Player::Black {
                        score
                    } else {
                        -score
                    });
                }
                best
            } else {
                search
                    .think(&position, None, depth)
                    .map_or(Move::Pass, |t| t.best)
            };
            position.play(action);
        }
        let black = final_black.unwrap_or_else(|| {
            position.discs(Player::Black) as i32 - position.discs(Player::White) as i32
        });
        // The played result, empty squares to the winner, when no exact score was taken.
        let black = if final_black.is_some() {
            black
        } else {
            let empties = 64 - position.plies() as i32 - 4;
            black + black.signum() * empties
        };
        for (me, them, mover) in seen {
            let score = if mover == Player::Black {
                black
            } else {
                -black
            };
            samples.push(Sample {
                me,
                them,
                score: score as i8,
            });
        }
        bar.inc(1);
        endgame.clear();
    }
    samples
}

fn read_round(dir: &Path, round: u32) -> Result<Vec<(u32, Vec<Sample>)>, String> {
    let here = round_dir(dir, round);
    let entries = std::fs::read_dir(&here).map_err(|e| format!("{}: {e}", here.display()))?;
    let mut chunks = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(number) = name
            .strip_prefix("chunk-")
            .and_then(|n| n.strip_suffix(".bin"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let bytes = std::fs::read(entry.path()).map_err(|e| format!("{name}: {e}"))?;
        if bytes.len() % Sample::BYTES != 0 {
            return Err(format!(
                "{}: not a chunk of samples",
                entry.path().display()
            ));
        }
        let samples = bytes
            .chunks_exact(Sample::BYTES)
            .map(|b| Sample::from_bytes(b.try_into().unwrap_or(&[0; Sample::BYTES])))
            .collect();
        chunks.push((number, samples));
    }
    if chunks.is_empty() {
        return Err(format!(
            "{}: no chunks (run generate first)",
            here.display()
        ));
    }
    Ok(chunks)
}

fn fit(dir: &Path, rounds: &[u32], config: FitConfig, out: Option<PathBuf>) -> Result<(), String> {
    let start = Instant::now();
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    for &round in rounds {
        for (number, samples) in read_round(dir, round)? {
            if number % 20 == 19 {
                held_out.extend(samples);
            } else {
                train.extend(samples);
            }
        }
    }
    eprintln!(
        "{} positions to fit, {} held out (rounds {rounds:?}), read in {:.1} s",
        train.len(),
        held_out.len(),
        start.elapsed().as_secs_f64()
    );
    let last = *rounds.iter().max().unwrap_or(&0);
    let out = out.unwrap_or_else(|| round_dir(dir, last).join("patterns.bin"));
    let bar = ProgressBar::new(PHASES as u64);
    let fitted: Vec<Vec<f32>> = (0..PHASES)
        .into_par_iter()
        .map(|p| {
            let weights = fit_phase(p, &train, &config, |_, _| {});
            bar.inc(1);
            weights
        })
        .collect();
    bar.finish_and_clear();
    let patterns = Patterns::from_fitted(&fitted);
    patterns.write(&out).map_err(|e| e.to_string())?;
    let train_errors = errors(&patterns, &train);
    let test_errors = errors(&patterns, &held_out);
    println!("phase  discs  positions  held-out  train MAE  held-out MAE (discs)");
    for p in 0..PHASES {
        let discs = (4..=64).filter(|&d| phase(d) == p).collect::<Vec<_>>();
        println!(
            "{p:>5}  {:>2}-{:<2}  {:>9}  {:>8}  {:>9.2}  {:>12.2}",
            discs.first().unwrap_or(&0),
            discs.last().unwrap_or(&0),
            train_errors[p].0,
            test_errors[p].0,
            train_errors[p].1,
            test_errors[p].1
        );
    }
    let total: f64 = test_errors
        .iter()
        .filter(|e| e.0 > 0)
        .map(|e| e.1 * e.0 as f64)
        .sum();
    let count: usize = test_errors.iter().map(|e| e.0).sum();
    println!(
        "held-out MAE over all phases: {:.2} discs; weights in {} ({:.0} s)",
        total / count.max(1) as f64,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// For each depth `d`, the mean and standard deviation of `v(d) - v(d')`, `d'` ProbCut's
/// shallow depth, over positions of 20 to 50 empty squares, in two groups by empties.
fn probcut(
    dir: &Path,
    round: u32,
    weights: Option<&Path>,
    positions: usize,
    depth: u32,
) -> Result<(), String> {
    if !(3..=14).contains(&depth) {
        return Err(format!("--depth {depth}: 3 to 14"));
    }
    let patterns = match weights {
        Some(path) => Patterns::read(path).map_err(|e| e.to_string())?,
        None => Patterns::standard().clone(),
    };
    let samples: Vec<Sample> = read_round(dir, round)?
        .into_iter()
        .flat_map(|(_, s)| s)
        .filter(|s| (20..=50).contains(&(64 - (s.me | s.them).count_ones())))
        .collect();
    if samples.is_empty() {
        return Err("no positions of 20 to 50 empties".to_owned());
    }
    let step = (samples.len() / positions.max(1)).max(1);
    let chosen: Vec<Sample> = samples
        .iter()
        .step_by(step)
        .take(positions)
        .copied()
        .collect();
    let bar = ProgressBar::new(chosen.len() as u64);
    // Per position: its empties and its value at each depth (discs).
    let values: Vec<(u32, Vec<f64>)> = chosen
        .par_iter()
        .map(|s| {
            let position = Othello::from_discs(s.me, s.them, Player::Black);
            let mut search = Midgame::with_value(&patterns)
                .without_endgame()
                .without_probcut();
            let values = (0..=depth)
                .map(|d| {
                    if d == 0 {
                        let moves = position.mobility();
                        f64::from(patterns.board_value(s.me, s.them, moves)) / 32.0
                    } else {
                        search
                            .think(&position, None, d)
                            .map_or(0.0, |t| f64::from(t.score) / 32.0)
                    }
                })
                .collect();
            bar.inc(1);
            (64 - (s.me | s.them).count_ones(), values)
        })
        .collect();
    bar.finish_and_clear();
    println!("depth  shallow  empties  positions  mean(deep - shallow)  sd (discs)");
    for d in 3..=depth {
        let shallow = gamesearch::othello::probcut_shallow_depth(d) as usize;
        for (low, high) in [(36, 50), (20, 35)] {
            let diffs: Vec<f64> = values
                .iter()
                .filter(|(e, _)| (low..=high).contains(e))
                .map(|(_, v)| v[d as usize] - v[shallow])
                .collect();
            let n = diffs.len().max(1) as f64;
            let mean = diffs.iter().sum::<f64>() / n;
            let sd = (diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
            println!(
                "{d:>5}  {shallow:>7}  {low}-{high}  {:>9}  {mean:>20.2}  {sd:>10.2}",
                diffs.len()
            );
        }
    }
    Ok(())
}
