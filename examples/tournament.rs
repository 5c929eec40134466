//! A tournament of agents on any game: every pair meets (or the first agent meets each of the
//! others), colours alternate, games run in parallel on every core.
//!
//! ```text
//! cargo run --release --example tournament -- --game hex --size 7 \
//!     --agent uct:iterations=1000 --agent mc:playouts=1000 --agent ucb1:playouts=1000 --games 20
//! cargo run --release --example tournament -- --game connect4 --gauntlet --games 50 \
//!     --agent new=uct:iterations=5000,c=0.3 --agent uct:iterations=5000 --out results/
//! ```
//!
//! Prints the standings (score with its 95% Wilson interval, Elo with its 95% margin) and the
//! cross table. With `--out DIR`, writes `standings.csv`, `games.csv` (one line per game) and
//! `ratings.svg` there. An agent may be named: `NAME=SPEC`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::Parser;
use gamesearch::arena::{
    Format, GameResult, Standings, TextGame, WithGame, games_csv, play_games, plot, schedule,
};
use gamesearch::search::AgentSpec;

mod common;

/// A round robin (or gauntlet) of agents on Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(name = "tournament", version, about)]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    /// An agent, `SPEC` or `NAME=SPEC` (at least two), e.g. uct:iterations=1000,c=0.4.
    #[arg(long = "agent", required = true, value_parser = named_spec)]
    agents: Vec<(String, AgentSpec)>,
    /// Games for each pair of agents that meet (colours alternate).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// The first agent against each of the others, instead of everyone against everyone.
    #[arg(long)]
    gauntlet: bool,
    /// Games at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Write standings.csv, games.csv and ratings.svg into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The tournament's seed: every game's agents get seeds derived from it and the game's
    /// number, so a tournament replays the same on any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct Tournament {
    names: Vec<String>,
    specs: Vec<AgentSpec>,
    format: Format,
    games: u32,
    seed: u64,
    out: Option<PathBuf>,
    title: String,
}

impl WithGame for Tournament {
    type Output = Result<(), String>;

    fn run<G: TextGame>(self, start: G) -> Result<(), String> {
        let pairings = schedule(self.specs.len(), self.format, self.games);
        println!(
            "{}: {} agents, {} games for each pair, {} games on {} threads",
            self.title,
            self.specs.len(),
            self.games,
            pairings.len(),
            rayon::current_num_threads()
        );
        let progress = common::progress_bar(pairings.len() as u64);
        let standings = Mutex::new(Standings::new(self.names.clone()));
        let clock = Instant::now();
        let results = play_games(
            &start,
            &self.specs,
            &pairings,
            self.seed,
            |r: &GameResult| {
                let mut standings = standings.lock().expect("no thread panicked");
                standings.add(r);
                let leader = standings.ranking()[0];
                progress.set_message(format!("leading: {}", self.names[leader]));
                progress.inc(1);
            },
        )
        .unwrap_or_else(|e| common::usage_error(e));
        progress.finish_and_clear();
        let standings = standings.into_inner().expect("no thread panicked");
        let seconds = clock.elapsed().as_secs_f64();
        println!("\n{standings}");
        let plies: u32 = results.iter().map(|r| r.plies).sum();
        println!(
            "{} games in {seconds:.1} s, {:.1} moves per game on average.",
            results.len(),
            f64::from(plies) / results.len() as f64
        );
        if let Some(dir) = &self.out {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let write = |name: &str, text: String| {
                let path = dir.join(name);
                std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            };
            write("standings.csv", standings.to_csv())?;
            write("games.csv", games_csv(&self.names, &results))?;
            let chart = dir.join("ratings.svg");
            plot::rating_chart(&chart, &self.title, &self.names, &standings.ratings())
                .map_err(|e| format!("cannot draw {}: {e}", chart.display()))?;
            println!(
                "Wrote standings.csv, games.csv and ratings.svg to {}.",
                dir.display()
            );
        }
        Ok(())
    }
}

/// `NAME=SPEC` or `SPEC` (named by its text): a name is the text before an `=` that comes
/// before any `:`.
fn named_spec(text: &str) -> Result<(String, AgentSpec), String> {
    let (name, spec) = match (text.find('='), text.find(':')) {
        (Some(eq), colon) if colon.is_none_or(|c| eq < c) => (Some(&text[..eq]), &text[eq + 1..]),
        _ => (None, text),
    };
    let spec: AgentSpec = spec.parse().map_err(|e| format!("{e}"))?;
    Ok((name.map_or_else(|| spec.to_string(), str::to_owned), spec))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.agents.len() < 2 {
        common::usage_error("a tournament needs at least two --agent");
    }
    let (names, specs): (Vec<String>, Vec<AgentSpec>) = cli.agents.into_iter().unzip();
    for (k, name) in names.iter().enumerate() {
        if names[..k].contains(name) {
            common::usage_error(format!(
                "two agents are called {name:?}: name them, as in strong=uct:iterations=1000"
            ));
        }
    }
    let choice = cli.game.choice();
    if let Some(threads) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .expect("the first and only thread pool");
    }
    let format = if cli.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let title = format!(
        "{} on {choice}",
        if cli.gauntlet {
            "Gauntlet"
        } else {
            "Round robin"
        }
    );
    let tournament = Tournament {
        names,
        specs,
        format,
        games: cli.games,
        seed: cli.seed,
        out: cli.out,
        title,
    };
    common::finish("tournament", choice.run(tournament))
}
