//! `tournament`: every pair of agents meets (or the first meets each of the others), colours
//! alternate, games run in parallel on every core.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use clap::{Args, Subcommand};
use search::AgentSpec;

use super::{parse_agent, progress_bar, stop_flag, usage_error};

/// `println!` through [`super::say`]: quiet on a closed pipe.
macro_rules! say {
    ($($arg:tt)*) => {
        super::say(format_args!($($arg)*))
    };
}
use crate::journal::{self, RunDir, RunError, Settings, Shard};
use crate::{
    Format, GameResult, Pairing, Resign, Standings, TextGame, WithGame, schedule_with_openings,
};

/// The settings key of the resigning rule, written only for a run with `--resign`.
const RESIGN: &str = "resign";

/// The flags of `tournament`: a round robin (or gauntlet) of agents.
///
/// Prints the standings (score with its 95% Wilson interval, Elo with its 95% margin) and the
/// cross table. With `--out DIR`, keeps the run in DIR ([`journal`](crate::journal)): its
/// settings, and each game in `games.csv` as it ends; at the end `standings.csv` and, with
/// the `plot` feature, `ratings.svg`. `--resume DIR` continues a run stopped in DIR, `--shard
/// K/N` plays a share of the games, and `tournament merge` combines the shards. Ctrl-C (or
/// SIGTERM) stops cleanly: the games in progress are dropped, the finished ones kept. An agent
/// may be named: `NAME=SPEC`.
#[derive(Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    /// `merge`: combine shard directories into one run's standings.
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,
    /// An agent, `SPEC` or `NAME=SPEC` (at least two), e.g. uct:iterations=1000,c=0.4.
    #[arg(long = "agent", required = true)]
    pub agents: Vec<String>,
    /// Games for each pair of agents that meet (colours alternate).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// The first agent against each of the others, instead of everyone against everyone.
    #[arg(long)]
    pub gauntlet: bool,
    /// Start the games from the openings in FILE, one a line (moves in the game's notation,
    /// separated by spaces; `#` starts a comment): each pair plays each opening in turn, twice
    /// in a row with the colours swapped.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Let an engine resign, as in `gtp` and `play`: on a position its search proved lost, or
    /// after three of its moves in a row rated under --resign-below (by default every game is
    /// played to its end). A resigned game is a win for the other side.
    #[arg(long)]
    pub resign: bool,
    /// With --resign: the winning chances under which three moves in a row resign (0 to 1;
    /// 0: on a proven loss only).
    #[arg(long, default_value_t = 0.05, value_parser = super::chances, requires = "resign")]
    pub resign_below: f64,
    /// Games at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Keep the run in this directory: settings.txt, games.csv (each game as it ends),
    /// standings.csv and ratings.svg. It must not hold a run already.
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Continue the run stopped in DIR: the same command line otherwise (other settings are
    /// refused); the games already in DIR/games.csv are not played again.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Play shard K of N: the games whose number leaves K-1 divided by N (deterministic, so
    /// N machines can each play one and `tournament merge` combines them).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The tournament's seed: every game's agents get seeds derived from it and the game's
    /// number, so a tournament replays the same on any number of threads, resumed or sharded.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The subcommands of `tournament`.
#[derive(Subcommand, Clone, Debug)]
pub enum TournamentCommand {
    /// Combine the shard directories of one tournament (`--shard 1/N` to `N/N`, each complete)
    /// into the standings, cross table, CSV and chart one machine would have produced.
    Merge(MergeArgs),
}

/// The flags of `tournament merge`.
#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// The shard directories (each written by `tournament --shard K/N --out DIR`).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged run (settings.txt, games.csv, standings.csv, ratings.svg).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

impl TournamentCommand {
    /// Runs the subcommand (it needs no game: the shards' settings say everything).
    ///
    /// # Errors
    ///
    /// The reason the shards cannot be merged, or a file that cannot be written.
    pub fn run(self) -> Result<(), String> {
        match self {
            TournamentCommand::Merge(args) => args.run(),
        }
    }
}

impl MergeArgs {
    /// Merges the shards, prints the standings and writes them into `--out`.
    ///
    /// # Errors
    ///
    /// As [`journal::merge`].
    pub fn run(self) -> Result<(), String> {
        let merged = journal::merge(&self.dirs, &self.out, run_names).map_err(|e| e.to_string())?;
        let names = run_names(&merged.settings)?;
        let title = merged
            .settings
            .get("title")
            .unwrap_or("Tournament")
            .to_owned();
        say!(
            "{title}: {} games merged from {} shards",
            merged.results.len(),
            self.dirs.len()
        );
        let mut standings = Standings::new(names.clone());
        for r in &merged.results {
            standings.add(r);
        }
        say!("\n{standings}");
        publish(&self.out, &title, &names, &standings)
    }
}

/// The agents' names of a tournament run's settings.
fn run_names(settings: &Settings) -> Result<Vec<String>, String> {
    if settings.get("tool") != Some("tournament") {
        return Err("not a tournament run".to_owned());
    }
    let names: Vec<String> = settings.all("name").map(str::to_owned).collect();
    if names.len() < 2 || names.len() != settings.all("agent").count() {
        return Err("a tournament run names two agents or more, each with its spec".to_owned());
    }
    Ok(names)
}

impl WithGame for TournamentArgs {
    type Output = Result<(), String>;

    /// Plays the tournament from `start` (or runs `merge`, which needs no game); bad agents end
    /// the program with code 2 and the reason; a directory that cannot be written, a run to
    /// resume with other settings, or a stop (Ctrl-C) is an error.
    fn run<G: TextGame>(self, start: G) -> Result<(), String> {
        if let Some(command) = self.command {
            return command.run();
        }
        if self.agents.len() < 2 {
            usage_error("a tournament needs at least two --agent");
        }
        let (names, specs): (Vec<String>, Vec<AgentSpec>) = self
            .agents
            .iter()
            .map(|text| named_spec(text, &start))
            .unzip();
        for (k, name) in names.iter().enumerate() {
            if names[..k].contains(name) {
                usage_error(format!(
                    "two agents are called {name:?}: name them, as in strong=uct:iterations=1000"
                ));
            }
        }
        if let Some(threads) = self.threads {
            // A second tournament in the same process keeps the first one's pool.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(threads as usize)
                .build_global();
        }
        let (format, kind) = if self.gauntlet {
            (Format::Gauntlet, "Gauntlet")
        } else {
            (Format::RoundRobin, "Round robin")
        };
        let swap = if start.swap_rule() == Some(true) {
            " with swap"
        } else {
            ""
        };
        let openings = match &self.openings {
            Some(path) => read_openings(path, &start).unwrap_or_else(|e| usage_error(e)),
            None => Vec::new(),
        };
        let from = match openings.len() {
            0 => String::new(),
            1 => " from 1 opening".to_owned(),
            n => format!(" from {n} openings"),
        };
        let title = format!("{kind} on {} {}{swap}{from}", G::NAME, start.size_text());
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let mut settings = Settings::new()
            .with("tool", "tournament")
            .with("title", &title)
            .with("game", G::NAME)
            .with("size", &start.size_text())
            .with(
                "swap",
                match start.swap_rule() {
                    Some(true) => "on",
                    Some(false) => "off",
                    None => "none",
                },
            )
            .with("format", &format.to_string())
            .with("games", &self.games.to_string())
            .with("seed", &self.seed.to_string());
        let resign = if self.resign {
            Resign {
                below: self.resign_below,
                ..Resign::default()
            }
        } else {
            Resign::NEVER
        };
        if resign != Resign::NEVER {
            // Only when on, so that the runs kept before the flag still resume.
            settings = settings.with(RESIGN, &resign.to_string());
        }
        for (name, spec) in names.iter().zip(&specs) {
            settings = settings.with("name", name).with("agent", &spec.to_string());
        }
        for (moves, _) in &openings {
            settings = settings.with(journal::OPENING, moves);
        }
        if !openings.is_empty() && !self.games.is_multiple_of(2 * openings.len() as u32) {
            eprintln!(
                "note: {} games a pair do not play each of the {} openings equally often with each colour (use a multiple of {})",
                self.games,
                openings.len(),
                2 * openings.len()
            );
        }
        let command: Vec<String> = std::env::args().collect();
        let settings = settings
            .with(journal::SHARD, &shard.to_string())
            .with(journal::COMMAND, &command.join(" "));
        let pairings = schedule_with_openings(
            specs.len(),
            format,
            self.games,
            openings.len().max(1) as u32,
        );
        let starts: Vec<G> = if openings.is_empty() {
            vec![start]
        } else {
            openings.into_iter().map(|(_, position)| position).collect()
        };
        let (run, done) = match (&self.resume, &self.out) {
            (Some(dir), _) => {
                let (run, journal) =
                    RunDir::resume(dir, &settings, &names, &pairings).map_err(|e| e.to_string())?;
                if let Some(line) = journal.dropped_line {
                    eprintln!(
                        "{}: dropped line {line}, cut short when the run stopped",
                        dir.join(journal::GAMES).display()
                    );
                }
                (Some(run), journal.results)
            }
            (None, Some(dir)) => (
                Some(RunDir::create(dir, &settings).map_err(|e| e.to_string())?),
                Vec::new(),
            ),
            (None, None) => (None, Vec::new()),
        };
        Tournament {
            names,
            specs,
            pairings: pairings
                .into_iter()
                .filter(|p| shard.contains(p.number))
                .collect(),
            done,
            shard,
            seed: self.seed,
            resign,
            run,
            title,
        }
        .play(&starts)
    }
}

/// The openings of `path`: each line's moves from `start` (blank lines and `#` comments
/// skipped), with the moves as written; an error names the line and the move.
fn read_openings<G: TextGame>(path: &Path, start: &G) -> Result<Vec<(String, G)>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or_default().trim();
        if moves.is_empty() {
            continue;
        }
        let at = |reason: String| {
            format!(
                "--openings {}, line {}: {reason}",
                path.display(),
                number + 1
            )
        };
        let mut position = start.clone();
        for text in moves.split_whitespace() {
            let action = position.parse_move(text).map_err(|e| at(e.to_string()))?;
            if !position.is_legal(action) {
                return Err(at(format!("{text} is not legal here")));
            }
            position.play(action);
        }
        if position.status().is_over() {
            return Err(at(format!("the game is over after {moves}")));
        }
        openings.push((moves.to_owned(), position));
    }
    if openings.is_empty() {
        return Err(format!("--openings {}: no openings in it", path.display()));
    }
    Ok(openings)
}

struct Tournament {
    names: Vec<String>,
    specs: Vec<AgentSpec>,
    /// This shard's games.
    pairings: Vec<Pairing>,
    /// Those already played (a resumed run).
    done: Vec<GameResult>,
    shard: Shard,
    seed: u64,
    resign: Resign,
    run: Option<RunDir>,
    title: String,
}

impl Tournament {
    fn play<G: TextGame>(self, starts: &[G]) -> Result<(), String> {
        let shard = if self.shard == Shard::WHOLE {
            String::new()
        } else {
            format!(" (shard {})", self.shard)
        };
        say!(
            "{}: {} agents, {} games{shard}, {} to play on {} threads",
            self.title,
            self.specs.len(),
            self.pairings.len(),
            self.pairings.len().saturating_sub(self.done.len()),
            rayon::current_num_threads()
        );
        let progress = progress_bar(self.pairings.len() as u64);
        progress.set_position(self.done.len() as u64);
        progress.reset_eta();
        let mut standings = Standings::new(self.names.clone());
        for r in &self.done {
            standings.add(r);
        }
        let standings = Mutex::new(standings);
        let clock = Instant::now();
        let played = journal::play_share(
            self.run.as_ref(),
            starts,
            &self.specs,
            &self.names,
            &self.pairings,
            self.done,
            self.seed,
            self.resign,
            &stop_flag(),
            |r| {
                let mut standings = standings.lock().unwrap_or_else(PoisonError::into_inner);
                standings.add(r);
                let leader = standings.ranking()[0];
                progress.set_message(format!("leading: {}", self.names[leader]));
                progress.inc(1);
            },
        )
        .map_err(|e| match e {
            RunError::Spec(e) => usage_error(e),
            e => e.to_string(),
        })?;
        progress.finish_and_clear();
        let standings = standings
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let seconds = clock.elapsed().as_secs_f64();
        say!("\n{standings}");
        let results = &played.results;
        let plies: u32 = results.iter().map(|r| r.plies).sum();
        say!(
            "{} games ({} in {seconds:.1} s), {:.1} moves per game on average.",
            results.len(),
            played.new,
            f64::from(plies) / results.len().max(1) as f64
        );
        if let Some(run) = &self.run {
            publish(run.dir(), &self.title, &self.names, &standings)?;
        }
        if let Some(failure) = played.failure {
            return Err(failure.to_string());
        }
        if !played.complete {
            let resume = self.run.as_ref().map_or_else(String::new, |run| {
                format!(
                    "; continue with the same command and --resume {}",
                    run.dir().display()
                )
            });
            return Err(format!(
                "stopped after {} of {} games{resume}",
                results.len(),
                self.pairings.len()
            ));
        }
        Ok(())
    }
}

/// Writes `standings.csv` and (feature `plot`) `ratings.svg` into `dir`, and says so.
fn publish(dir: &Path, title: &str, names: &[String], standings: &Standings) -> Result<(), String> {
    let path = dir.join("standings.csv");
    std::fs::write(&path, standings.to_csv())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    #[cfg(feature = "plot")]
    {
        let chart = dir.join("ratings.svg");
        crate::plot::rating_chart(&chart, title, names, &standings.ratings())
            .map_err(|e| format!("cannot draw {}: {e}", chart.display()))?;
    }
    let _ = (title, names);
    let chart = if cfg!(feature = "plot") {
        " and ratings.svg"
    } else {
        ""
    };
    say!(
        "Wrote games.csv, standings.csv{chart} to {}.",
        dir.display()
    );
    Ok(())
}

/// `NAME=SPEC` or `SPEC` (named by its text): a name is the text before an `=` that comes
/// before any `:`. A bad spec ends the program with code 2.
fn named_spec<G: TextGame>(text: &str, start: &G) -> (String, AgentSpec) {
    let (name, spec) = match (text.find('='), text.find(':')) {
        (Some(eq), colon) if colon.is_none_or(|c| eq < c) => (Some(&text[..eq]), &text[eq + 1..]),
        _ => (None, text),
    };
    let spec = parse_agent(spec, start);
    (name.map_or_else(|| spec.to_string(), str::to_owned), spec)
}
