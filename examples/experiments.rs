//! The experiments of `docs/journal/reproductions.md` (summed up in `docs/experiments.md`): each
//! writes CSV and an SVG chart into `docs/experiments/` and prints its table and wall time.
//!
//! ```text
//! cargo run --release --example experiments -- uct-c          # 1. UCT's exploration constant, Hex 7x7
//! cargo run --release --example experiments -- algorithms     # 2. flat MC, UCB1, UCT on Hex 7x7
//! cargo run --release --example experiments -- equal-time     # 3. MC and UCT at equal time, Connect Four
//! cargo run --release --example experiments -- othello-grid   # 4. simulations x c against MCTS(11, 1.5), Othello 6x6
//! cargo run --release --example experiments -- rewards        # 5. reward decay and a loss of -100, Connect Four
//! cargo run --release --example experiments -- all
//! ```
//!
//! `--games N` changes the games per data point (for a quick look: `--games 10`), `--out DIR`
//! the output directory. The games of each experiment run in parallel on every core; every
//! game's agents are seeded from `--seed` and the game's number, so the experiments with
//! iteration budgets reproduce exactly.
//!
//! Nothing is lost: each data point is a run directory, `OUT/runs/EXPERIMENT/POINT/`
//! (`arena::journal`), whose `games.csv` gains each game as it ends. `--resume` continues runs
//! stopped by Ctrl-C, a kill or a time limit; `--shard K/N` plays a share of every data
//! point's games (its tables then count that share only), and
//!
//! ```text
//! cargo run --release --example experiments -- merge shard-1 shard-2 shard-3 --out DIR
//! ```
//!
//! merges the shards of one experiment and writes its tables and charts, as one machine would
//! have (`docs/cluster.md`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand, ValueEnum};
use gamesearch::arena::journal::{self, RunDir, Settings, Shard};
use gamesearch::arena::plot::{self, Labels, Series};
use gamesearch::arena::{Format, Pairing, Resign, Score, Standings, Table, TextGame, schedule};
use gamesearch::connect4::Connect4;
use gamesearch::core::Player;
use gamesearch::hex::Hex;
use gamesearch::othello::Othello6;
use gamesearch::search::AgentSpec;

mod common;

use common::say;

/// Reproduces the published student experiments with this library's agents.
#[derive(Parser, Debug)]
#[command(
    name = "experiments",
    version,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    /// `merge`: combine the shard directories of one experiment.
    #[command(subcommand)]
    command: Option<Command>,
    /// Which experiment to run.
    #[arg(value_enum, required = true)]
    experiment: Option<Which>,
    /// Games per data point (default: each experiment's own, 100 to 200).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..))]
    games: Option<u32>,
    /// Where to write the CSV and SVG files, and the runs (`runs/`).
    #[arg(long, default_value = "docs/experiments")]
    out: PathBuf,
    /// Continue the runs stopped in `--out` (the same command otherwise): the games already
    /// played are kept, the rest played.
    #[arg(long)]
    resume: bool,
    /// Play shard K of N of every data point's games (`merge` combines the shards).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// The seed from which every game's agents are seeded.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Merge the shard directories of one experiment (each `--shard K/N --out DIR`, complete)
    /// into `--out`, and write its tables and charts.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// The shard directories.
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Where to write the merged runs, tables and charts.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Which {
    /// 1. UCT(c) against UCT(c = 1.41) on Hex 7x7, at 100 and 1000 iterations per move.
    UctC,
    /// 2. Flat Monte-Carlo, UCB1 and UCT on Hex 7x7 at 100, 1000 and 10000 playouts per move.
    Algorithms,
    /// 3. Random, flat Monte-Carlo and UCT at equal time per move on Connect Four.
    EqualTime,
    /// 4. MCTS(simulations, c) against MCTS(11, 1.5) on Othello 6x6.
    OthelloGrid,
    /// 5. Reward decay 0.9 and a loss worth -100 against plain win/loss rewards, Connect Four.
    Rewards,
    /// All five, one after the other.
    All,
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// How an experiment runs: where it writes, games per data point, the seed, the shard, and
/// whether it continues stopped runs.
struct Run {
    experiment: Which,
    out: PathBuf,
    games: u32,
    seed: u64,
    shard: Shard,
    resume: bool,
}

impl Which {
    /// The experiment's name on the command line (`uct-c`).
    fn name(self) -> String {
        self.to_possible_value()
            .expect("every experiment has a name")
            .get_name()
            .to_owned()
    }
}

/// An experiment.
type Experiment = fn(&Run) -> Result<()>;

fn spec(text: &str) -> AgentSpec {
    text.parse().expect("the experiments' specs are valid")
}

/// A data point's directory name: its label in lower case, runs of other characters as `-`.
fn slug(label: &str) -> String {
    let mut slug = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_matches('-').to_owned()
}

/// Plays `run.games` games for each pair of `specs` that meets (colours alternating), in
/// parallel, with a progress bar labelled `label`: this shard's games that its run directory
/// (`runs/EXPERIMENT/LABEL`) does not hold yet, each kept as it ends. The standings count every
/// game of the shard in the directory.
fn tournament<G: TextGame>(
    run: &Run,
    start: &G,
    specs: &[AgentSpec],
    format: Format,
    label: &str,
) -> Result<Standings> {
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let pairings = schedule(specs.len(), format, run.games);
    let dir = run
        .out
        .join("runs")
        .join(run.experiment.name())
        .join(slug(label));
    let mut settings = Settings::new()
        .with("tool", "experiments")
        .with("experiment", &run.experiment.name())
        .with("point", label)
        .with("game", G::NAME)
        .with("size", &start.size_text())
        .with("format", &format.to_string())
        .with("games", &run.games.to_string())
        .with("seed", &run.seed.to_string());
    for name in &names {
        settings = settings.with("agent", name);
    }
    let settings = settings.with(journal::SHARD, &run.shard.to_string());
    let (run_dir, done) = if run.resume && dir.join(journal::SETTINGS).exists() {
        let (run_dir, done) = RunDir::resume(&dir, &settings, &names, &pairings)?;
        (run_dir, done.results)
    } else {
        let run_dir = RunDir::create(&dir, &settings).map_err(|e| match e {
            journal::RunError::Exists(dir) => format!(
                "{} holds a run already: continue it with --resume, or choose another --out",
                dir.display()
            )
            .into(),
            e => Box::<dyn std::error::Error + Send + Sync>::from(e),
        })?;
        (run_dir, Vec::new())
    };
    let share: Vec<Pairing> = pairings
        .iter()
        .filter(|p| run.shard.contains(p.number))
        .copied()
        .collect();
    let progress = common::progress_bar(share.len() as u64);
    progress.set_position(done.len() as u64);
    progress.reset_eta();
    progress.set_message(label.to_owned());
    let played = journal::play_share(
        Some(&run_dir),
        std::slice::from_ref(start),
        specs,
        &names,
        &share,
        done,
        run.seed,
        Resign::NEVER,
        &common::stop_flag(),
        |_| progress.inc(1),
    )?;
    progress.finish_and_clear();
    if let Some(e) = played.failure {
        return Err(e.into());
    }
    if !played.complete {
        return Err(format!(
            "stopped after {} of {} games of {label:?}; continue with the same command and --resume",
            played.results.len(),
            share.len()
        )
        .into());
    }
    let mut standings = Standings::new(names);
    for r in &played.results {
        standings.add(r);
    }
    Ok(standings)
}

/// `(rate, low, high)` of a score.
fn rate(score: Score) -> (f64, f64, f64) {
    let (low, high) = score.interval95();
    (score.rate(), low, high)
}

/// A rate and its interval as table cells.
fn rate_cells(score: Score) -> [String; 3] {
    let (r, low, high) = rate(score);
    [format!("{r:.4}"), format!("{low:.4}"), format!("{high:.4}")]
}

/// The columns of a score in a game with draws, and its cells.
const SCORE: [&str; 7] = [
    "games", "wins", "draws", "losses", "score", "low95", "high95",
];

fn score_cells(score: Score) -> impl Iterator<Item = String> {
    let counts = [score.games(), score.wins, score.draws, score.losses];
    counts
        .map(|n| n.to_string())
        .into_iter()
        .chain(rate_cells(score))
}

/// The columns of a score in a game without draws (Hex), and its cells.
const WIN_RATE: [&str; 6] = ["games", "wins", "losses", "win_rate", "low95", "high95"];

fn win_rate_cells(score: Score) -> impl Iterator<Item = String> {
    let counts = [score.games(), score.wins, score.losses];
    counts
        .map(|n| n.to_string())
        .into_iter()
        .chain(rate_cells(score))
}

/// Prints `table` under `title` and writes it as CSV to `out/name`.
fn publish(out: &Path, name: &str, title: &str, table: &Table) -> Result<()> {
    say!("{title}\n{table}");
    std::fs::write(out.join(name), table.to_csv())?;
    Ok(())
}

/// 1. The exploration constant on Hex 7x7.
fn uct_c(run: &Run) -> Result<()> {
    let (out, games) = (run.out.as_path(), run.games);
    let constants = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.41, 2.0];
    let start = Hex::new(7)?;
    let mut table = Table::new(["iterations", "c"].into_iter().chain(WIN_RATE));
    let mut series = Vec::new();
    for iterations in [100, 1000] {
        let fixed = spec(&format!("uct:iterations={iterations},c=1.41,reuse=false"));
        let mut specs = vec![fixed];
        specs.extend(
            constants
                .iter()
                .map(|c| spec(&format!("uct:iterations={iterations},c={c},reuse=false"))),
        );
        let label = format!("{iterations} iterations");
        let standings = tournament(run, &start, &specs, Format::Gauntlet, &label)?;
        let mut points = Vec::new();
        for (k, &c) in constants.iter().enumerate() {
            let score = standings.against(k + 1, 0);
            table.row(
                [iterations.to_string(), c.to_string()]
                    .into_iter()
                    .chain(win_rate_cells(score)),
            );
            let (r, low, high) = rate(score);
            points.push((c, r, low, high));
        }
        series.push(Series {
            name: format!("{iterations} iterations per move"),
            points,
        });
    }
    let title = format!("Hex 7x7: UCT(c) against UCT(c = 1.41), {games} games each");
    publish(out, "uct-c.csv", &title, &table)?;
    plot::line_chart(
        &out.join("uct-c.svg"),
        Labels {
            title: "Hex 7x7: UCT(c) against UCT(c = 1.41)",
            x: "exploration constant c",
            y: "win rate (95% interval)",
        },
        &series,
        0.0..1.0,
    )?;
    Ok(())
}

/// 2. Flat Monte-Carlo, UCB1 and UCT on Hex 7x7, by budget and colour.
fn algorithms(run: &Run) -> Result<()> {
    let (out, games) = (run.out.as_path(), run.games);
    let start = Hex::new(7)?;
    let names = ["mc", "ucb1", "uct"];
    let columns = ["playouts", "agent", "opponent", "agent_colour"];
    let mut table = Table::new(columns.into_iter().chain(WIN_RATE));
    let mut series: Vec<Series> = Vec::new();
    for name in names {
        for colour in ["first", "second"] {
            series.push(Series {
                name: format!("{name} moving {colour}"),
                points: Vec::new(),
            });
        }
    }
    for budget in [100, 1000, 10000] {
        let specs = [
            spec(&format!("mc:playouts={budget}")),
            spec(&format!("ucb1:playouts={budget}")),
            spec(&format!("uct:iterations={budget},reuse=false")),
        ];
        let label = format!("{budget} playouts");
        let standings = tournament(run, &start, &specs, Format::RoundRobin, &label)?;
        for (i, name) in names.iter().enumerate() {
            for (c, colour) in [Player::Black, Player::White].into_iter().enumerate() {
                let colour_name = ["first", "second"][c];
                let mut all = Score::default();
                for (j, opponent) in names.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let score = standings.against_as(i, j, colour);
                    all = all + score;
                    let labels = [
                        budget.to_string(),
                        (*name).to_owned(),
                        (*opponent).to_owned(),
                    ];
                    table.row(
                        labels
                            .into_iter()
                            .chain([colour_name.to_owned()])
                            .chain(win_rate_cells(score)),
                    );
                }
                let (r, low, high) = rate(all);
                series[2 * i + c]
                    .points
                    .push((f64::from(budget).log10(), r, low, high));
            }
        }
    }
    let title =
        format!("Hex 7x7: each algorithm against the others by colour, {games} games per pair");
    publish(out, "algorithms.csv", &title, &table)?;
    plot::line_chart(
        &out.join("algorithms.svg"),
        Labels {
            title: "Hex 7x7: win rate against the two other algorithms",
            x: "log10(playouts per move)",
            y: "win rate (95% interval)",
        },
        &series,
        0.0..1.0,
    )?;
    Ok(())
}

/// 3. Random, flat Monte-Carlo and UCT at equal time per move on Connect Four.
fn equal_time(run: &Run) -> Result<()> {
    let (out, games) = (run.out.as_path(), run.games);
    let start = Connect4::new();
    let names = ["random", "mc", "uct"];
    let mut table = Table::new(
        ["ms_per_move", "agent", "opponent"]
            .into_iter()
            .chain(SCORE),
    );
    let pairs = [
        (2, 1, "UCT against MC"),
        (2, 0, "UCT against random"),
        (1, 0, "MC against random"),
    ];
    let mut series: Vec<Series> = pairs
        .iter()
        .map(|p| Series {
            name: p.2.to_owned(),
            points: Vec::new(),
        })
        .collect();
    for ms in [1, 4, 16, 64] {
        let specs = [
            spec("random"),
            spec(&format!("mc:time={ms}ms")),
            spec(&format!("uct:time={ms}ms")),
        ];
        let label = format!("{ms} ms per move");
        let standings = tournament(run, &start, &specs, Format::RoundRobin, &label)?;
        for (k, &(i, j, _)) in pairs.iter().enumerate() {
            let score = standings.against(i, j);
            let labels = [ms.to_string(), names[i].to_owned(), names[j].to_owned()];
            table.row(labels.into_iter().chain(score_cells(score)));
            let (r, low, high) = rate(score);
            series[k].points.push((f64::from(ms).log2(), r, low, high));
        }
    }
    let title = format!("Connect Four at equal time per move, {games} games per pair");
    publish(out, "equal-time.csv", &title, &table)?;
    plot::line_chart(
        &out.join("equal-time.svg"),
        Labels {
            title: "Connect Four at equal time per move",
            x: "log2(milliseconds per move)",
            y: "score (95% interval)",
        },
        &series,
        0.0..1.0,
    )?;
    Ok(())
}

/// 4. MCTS(simulations, c) against MCTS(11 simulations, c = 1.5) on Othello 6x6.
fn othello_grid(run: &Run) -> Result<()> {
    let (out, games) = (run.out.as_path(), run.games);
    let start = Othello6::new();
    let simulations: Vec<u32> = (1..=101).step_by(10).collect();
    let constants = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5];
    let mut specs = vec![spec("uct:iterations=11,c=1.5,reuse=false")];
    for c in constants {
        for s in &simulations {
            specs.push(spec(&format!("uct:iterations={s},c={c},reuse=false")));
        }
    }
    let standings = tournament(run, &start, &specs, Format::Gauntlet, "Othello 6x6 grid")?;
    let mut table = Table::new(["simulations", "c"].into_iter().chain(SCORE));
    // The same scores as a grid, c by simulations, to print.
    let mut grid = Table::new(
        std::iter::once("c \\ sims".to_owned()).chain(simulations.iter().map(ToString::to_string)),
    );
    let mut values = Vec::new();
    for (row, c) in constants.iter().enumerate() {
        let mut line = Vec::new();
        for (col, s) in simulations.iter().enumerate() {
            let score = standings.against(1 + row * simulations.len() + col, 0);
            table.row(
                [s.to_string(), c.to_string()]
                    .into_iter()
                    .chain(score_cells(score)),
            );
            line.push(score.rate());
        }
        grid.row(std::iter::once(c.to_string()).chain(line.iter().map(|r| format!("{r:.2}"))));
        values.push(line);
    }
    say!(
        "Othello 6x6: score of MCTS(simulations, c) against MCTS(11, 1.5), {games} games each\n{grid}"
    );
    std::fs::write(out.join("othello-grid.csv"), table.to_csv())?;
    plot::heat_map(
        &out.join("othello-grid.svg"),
        Labels {
            title: "Othello 6x6: score of MCTS(simulations, c) against MCTS(11, 1.5)",
            x: "simulations per move",
            y: "exploration constant c",
        },
        &simulations
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        &constants
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        &values,
    )?;
    Ok(())
}

/// 5. Reward decay and a loss of -100 against plain win/loss rewards on Connect Four.
fn rewards(run: &Run) -> Result<()> {
    let (out, games) = (run.out.as_path(), run.games);
    let start = Connect4::new();
    let variants = [
        ("plain", ""),
        ("decay 0.9", ",decay=0.9"),
        ("loss -100", ",loss=-100"),
        ("decay 0.9 + loss -100", ",decay=0.9,loss=-100"),
    ];
    let columns = ["iterations", "variant"].into_iter().chain(SCORE);
    let mut table = Table::new(columns.chain(["elo", "elo_margin95"]));
    let mut series: Vec<Series> = variants
        .iter()
        .skip(1)
        .map(|v| Series {
            name: format!("{} against plain", v.0),
            points: Vec::new(),
        })
        .collect();
    for iterations in [1000, 10000] {
        let specs: Vec<AgentSpec> = variants
            .iter()
            .map(|(_, keys)| spec(&format!("uct:iterations={iterations},reuse=false{keys}")))
            .collect();
        let label = format!("{iterations} iterations");
        let standings = tournament(run, &start, &specs, Format::RoundRobin, &label)?;
        let ratings = standings.ratings();
        for (k, (name, _)) in variants.iter().enumerate() {
            let total = standings.total(k);
            let elo = [
                format!("{:.1}", ratings[k].elo),
                format!("{:.1}", ratings[k].margin),
            ];
            table.row(
                [iterations.to_string(), (*name).to_owned()]
                    .into_iter()
                    .chain(score_cells(total))
                    .chain(elo),
            );
            if k > 0 {
                let (r, low, high) = rate(standings.against(k, 0));
                series[k - 1]
                    .points
                    .push((f64::from(iterations).log10(), r, low, high));
            }
        }
    }
    let title = format!("Connect Four: UCT reward variants, round robin, {games} games per pair");
    publish(out, "rewards.csv", &title, &table)?;
    plot::line_chart(
        &out.join("rewards.svg"),
        Labels {
            title: "Connect Four: UCT reward variants against plain win/loss UCT",
            x: "log10(iterations per move)",
            y: "score against plain (95% interval)",
        },
        &series,
        0.0..1.0,
    )?;
    Ok(())
}
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Merge(args)) => merge(&args),
        None => run(
            &Run {
                experiment: cli.experiment.expect("clap requires it"),
                out: cli.out,
                games: 0, // each experiment's own unless --games
                seed: cli.seed,
                shard: cli.shard.unwrap_or(Shard::WHOLE),
                resume: cli.resume,
            },
            cli.games,
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("experiments: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `base.experiment` (each of them for `All`) with `games` games per point, or each
/// experiment's own number.
fn run(base: &Run, games: Option<u32>) -> Result<()> {
    std::fs::create_dir_all(&base.out)
        .map_err(|e| format!("cannot create {}: {e}", base.out.display()))?;
    let runs: [(Which, u32, Experiment); 5] = [
        (Which::UctC, 200, uct_c),
        (Which::Algorithms, 200, algorithms),
        (Which::EqualTime, 100, equal_time),
        (Which::OthelloGrid, 100, othello_grid),
        (Which::Rewards, 100, rewards),
    ];
    if base.shard != Shard::WHOLE {
        say!(
            "Shard {}: the tables count this shard's games only; `experiments merge` combines the shards.\n",
            base.shard
        );
    }
    for (which, default_games, experiment) in runs {
        if base.experiment != Which::All && which != base.experiment {
            continue;
        }
        let clock = Instant::now();
        let run = Run {
            experiment: which,
            out: base.out.clone(),
            games: games.unwrap_or(default_games),
            ..*base
        };
        experiment(&run).map_err(|e| format!("{which:?}: {e}"))?;
        say!(
            "{which:?}: {:.1} s on {} threads\n",
            clock.elapsed().as_secs_f64(),
            rayon::current_num_threads()
        );
    }
    Ok(())
}

/// Merges each data point's runs across the shard directories into `args.out`, then writes
/// the experiment's tables and charts from them (nothing is left to play).
fn merge(args: &MergeArgs) -> Result<()> {
    let first = args.dirs.first().ok_or("nothing to merge")?;
    let runs = first.join("runs");
    let mut points = Vec::new();
    for experiment in read_dir(&runs)? {
        for point in read_dir(&experiment)? {
            points.push(point.strip_prefix(first)?.to_owned());
        }
    }
    if points.is_empty() {
        return Err(format!("{} holds no experiment runs", runs.display()).into());
    }
    // Each experiment found, with the games per point and the seed its runs were played with.
    let mut experiments = std::collections::BTreeMap::new();
    for point in &points {
        let dirs: Vec<PathBuf> = args.dirs.iter().map(|d| d.join(point)).collect();
        let merged = journal::merge(&dirs, &args.out.join(point), experiment_names)?;
        let settings = &merged.settings;
        let name = settings.get("experiment").unwrap_or_default().to_owned();
        let games: Option<u32> = settings.get("games").and_then(|g| g.parse().ok());
        let seed: Option<u64> = settings.get("seed").and_then(|s| s.parse().ok());
        experiments.insert(name, (games, seed));
    }
    say!(
        "Merged {} data points from {} shards.\n",
        points.len(),
        args.dirs.len()
    );
    for (name, (games, seed)) in experiments {
        let experiment =
            Which::from_str(&name, false).map_err(|_| format!("unknown experiment {name:?}"))?;
        let whole = Run {
            experiment,
            out: args.out.clone(),
            games: 0,
            seed: seed.ok_or("no seed in the settings")?,
            shard: Shard::WHOLE,
            resume: true,
        };
        run(&whole, games)?;
    }
    Ok(())
}

/// The subdirectories of `dir`, sorted.
fn read_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// The agents' names of an experiment's data point: their specs.
fn experiment_names(settings: &Settings) -> std::result::Result<Vec<String>, String> {
    if settings.get("tool") != Some("experiments") {
        return Err("not an experiment's run".to_owned());
    }
    Ok(settings.all("agent").map(str::to_owned).collect())
}
