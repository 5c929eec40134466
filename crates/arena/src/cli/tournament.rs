//! `tournament`: every pair of agents meets (or the first meets each of the others), colours
//! alternate, games run in parallel on every core.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use clap::Args;
use search::AgentSpec;

use super::{parse_agent, progress_bar, usage_error};
use crate::{Format, GameResult, Standings, TextGame, WithGame, games_csv, play_games, schedule};

/// The flags of `tournament`: a round robin (or gauntlet) of agents.
///
/// Prints the standings (score with its 95% Wilson interval, Elo with its 95% margin) and the
/// cross table. With `--out DIR`, writes `standings.csv`, `games.csv` (one line per game) and,
/// with the `plot` feature, `ratings.svg` there. An agent may be named: `NAME=SPEC`.
#[derive(Args, Clone, Debug)]
pub struct TournamentArgs {
    /// An agent, `SPEC` or `NAME=SPEC` (at least two), e.g. uct:iterations=1000,c=0.4.
    #[arg(long = "agent", required = true)]
    pub agents: Vec<String>,
    /// Games for each pair of agents that meet (colours alternate).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// The first agent against each of the others, instead of everyone against everyone.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Write standings.csv, games.csv and ratings.svg into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The tournament's seed: every game's agents get seeds derived from it and the game's
    /// number, so a tournament replays the same on any number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl WithGame for TournamentArgs {
    type Output = Result<(), String>;

    /// Plays the tournament from `start`; bad agents end the program with code 2 and the
    /// reason, a directory that cannot be written is an error.
    fn run<G: TextGame>(self, start: G) -> Result<(), String> {
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
        let format = if self.gauntlet {
            Format::Gauntlet
        } else {
            Format::RoundRobin
        };
        let kind = if self.gauntlet {
            "Gauntlet"
        } else {
            "Round robin"
        };
        let swap = if start.swap_rule() == Some(true) {
            " with swap"
        } else {
            ""
        };
        Tournament {
            names,
            specs,
            format,
            games: self.games,
            seed: self.seed,
            out: self.out,
            title: format!("{kind} on {} {}{swap}", G::NAME, start.size_text()),
        }
        .play(&start)
    }
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

impl Tournament {
    fn play<G: TextGame>(self, start: &G) -> Result<(), String> {
        let pairings = schedule(self.specs.len(), self.format, self.games);
        println!(
            "{}: {} agents, {} games for each pair, {} games on {} threads",
            self.title,
            self.specs.len(),
            self.games,
            pairings.len(),
            rayon::current_num_threads()
        );
        let progress = progress_bar(pairings.len() as u64);
        let standings = Mutex::new(Standings::new(self.names.clone()));
        let clock = Instant::now();
        let results = play_games(
            start,
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
        .unwrap_or_else(|e| usage_error(e));
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
            #[cfg(feature = "plot")]
            {
                let chart = dir.join("ratings.svg");
                crate::plot::rating_chart(&chart, &self.title, &self.names, &standings.ratings())
                    .map_err(|e| format!("cannot draw {}: {e}", chart.display()))?;
            }
            let chart = if cfg!(feature = "plot") {
                " and ratings.svg"
            } else {
                ""
            };
            println!(
                "Wrote standings.csv, games.csv{chart} to {}.",
                dir.display()
            );
        }
        Ok(())
    }
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
