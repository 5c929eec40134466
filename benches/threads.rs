//! How UCT's iterations per second grow with threads: one tree per thread (`parallel=root`)
//! and one lock-free tree shared by all (`parallel=tree`), against one thread, on each game
//! from its start position. The shared tree also runs on one thread, which shows what its
//! atomics cost before any sharing. The runs alternate in one process (one thread, then two, ...,
//! round after round) so that a shared machine's changing load falls on all of them alike;
//! the median of the rounds is printed, with its ratio to one thread.
//!
//! ```sh
//! cargo bench --bench threads                                   # 1 and 2 threads, every game
//! cargo bench --bench threads -- --threads 1,2,4,8,16 --game hex --rounds 9
//! cargo bench --bench threads -- --agent best --iterations 20000   # best's settings (RAVE on Hex)
//! ```

use std::time::Instant;

use clap::Parser;
use gamesearch::arena::TextGame;
use gamesearch::connect4::Connect4;
use gamesearch::hex::Hex;
use gamesearch::othello::Othello;
use gamesearch::search::{Agent, AgentSpec};

/// Iterations per second of UCT on 1..N threads.
#[derive(Parser)]
struct Args {
    /// The thread counts to measure, comma separated (1 is always measured: the baseline).
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// The games: hex (11x11), connect4 (7x6), othello (8x8), or all.
    #[arg(long, default_value = "all")]
    game: String,
    /// Rounds of the alternation; the median is reported.
    #[arg(long, default_value_t = 7)]
    rounds: usize,
    /// Iterations per search (per thread count and mode), times the game's own factor (1 for
    /// Connect Four and Hex, a quarter for Othello's slower playouts).
    #[arg(long, default_value_t = 200_000)]
    iterations: u64,
    /// Which sharing to measure beside one thread: root, tree or both.
    #[arg(long, default_value = "both")]
    parallel: String,
    /// More settings for every agent, as a spec writes them (`nodes=1000000,c=0.6`).
    #[arg(long)]
    with: Option<String>,
    /// The agent whose iterations are counted: `uct`, `rave`, `grave`, or `best` (each
    /// game's strongest settings: RAVE with Hex's knowledge, UCT with the others').
    #[arg(long, default_value = "uct")]
    agent: String,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn main() {
    let args = Args::parse();
    let mut threads = args.threads.clone();
    threads.retain(|&t| t > 1);
    threads.sort_unstable();
    threads.dedup();
    let all = args.game == "all";
    if !["root", "tree", "both"].contains(&args.parallel.as_str()) {
        eprintln!("error: --parallel takes root, tree or both");
        std::process::exit(2);
    }
    if !all && !["hex", "connect4", "othello"].contains(&args.game.as_str()) {
        eprintln!("error: --game takes hex, connect4, othello or all");
        std::process::exit(2);
    }
    handover();
    println!("| game | threads | parallel | iterations/s | against 1 thread |");
    println!("|---|---:|---|---:|---:|");
    if all || args.game == "connect4" {
        measure("connect4-7x6", &Connect4::new(), &args, &threads, 1);
    }
    if all || args.game == "hex" {
        measure(
            "hex-11x11",
            &Hex::new(11).expect("11x11 is a size"),
            &args,
            &threads,
            1,
        );
    }
    if all || args.game == "othello" {
        measure("othello-8x8", &Othello::new(), &args, &threads, 4);
    }
}

/// Measures every thread count in both modes on `start`, alternating, and prints the rows.
fn measure<G: TextGame>(name: &str, start: &G, args: &Args, threads: &[usize], divisor: u64) {
    let iterations = (args.iterations / divisor).max(1);
    // One thread on the shared tree: what its atomics and layout cost before any sharing.
    let mut setups: Vec<(usize, &str)> = vec![(1, "-")];
    if args.parallel != "root" {
        setups.push((1, "tree"));
    }
    for &t in threads {
        for parallel in ["root", "tree"] {
            if args.parallel == "both" || args.parallel == parallel {
                setups.push((t, parallel));
            }
        }
    }
    let mut agents: Vec<(Box<dyn Agent<G> + Send>, AgentSpec)> = setups
        .iter()
        .map(|&(t, parallel)| {
            let agent = &args.agent;
            let text = if parallel == "-" {
                format!("{agent}:iterations={iterations},reuse=false")
            } else {
                format!(
                    "{agent}:iterations={iterations},reuse=false,threads={t},parallel={parallel}"
                )
            };
            let text = match &args.with {
                Some(more) => format!("{text},{more}"),
                None => text,
            };
            let spec: AgentSpec = text.parse().unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(2)
            });
            let mut agent = G::agent(&spec, 1).unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(2)
            });
            // A first search, untimed: the agent's memory, the threads' first start.
            agent.choose(start, &spec.budget());
            (agent, spec)
        })
        .collect();
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); setups.len()];
    for _ in 0..args.rounds.max(1) {
        for ((agent, spec), rates) in agents.iter_mut().zip(&mut rates) {
            let started = Instant::now();
            agent.choose(start, &spec.budget());
            let done = agent.report().map_or(0, |r| r.iterations);
            rates.push(done as f64 / started.elapsed().as_secs_f64());
        }
    }
    let medians: Vec<f64> = rates
        .iter_mut()
        .map(|r| {
            r.sort_by(f64::total_cmp);
            r[r.len() / 2]
        })
        .collect();
    for (&(t, parallel), rate) in setups.iter().zip(&medians) {
        println!(
            "| {name} | {t} | {parallel} | {} | {:.2}x |",
            human(*rate),
            rate / medians[0]
        );
    }
}

/// Prints how long one cache line takes to travel from one core to another here: two threads
/// hand a counter back and forth. A shared tree pays about this for every node near the root
/// that one thread writes and another then reads or writes, several times an iteration; so this
/// number, against an iteration's time on one thread, says how well a shared tree can scale on
/// the machine (root parallelisation does not pay it).
fn handover() {
    use std::sync::atomic::{AtomicU64, Ordering};
    #[repr(align(128))]
    struct Line(AtomicU64);
    let line = Line(AtomicU64::new(0));
    let trips: u64 = 400_000;
    let mut times = Vec::new();
    for _ in 0..5 {
        line.0.store(0, Ordering::Relaxed);
        let started = Instant::now();
        std::thread::scope(|scope| {
            for me in 0..2 {
                let line = &line;
                scope.spawn(move || {
                    let mut turn = me;
                    while turn < trips {
                        while line.0.load(Ordering::Acquire) != turn {
                            std::hint::spin_loop();
                        }
                        line.0.store(turn + 1, Ordering::Release);
                        turn += 2;
                    }
                });
            }
        });
        times.push(started.elapsed().as_nanos() as f64 / trips as f64);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "A cache line from one core to another: {:.0} ns (median of 5 runs of {trips} hand-overs)\n",
        times[2]
    );
}

/// A rate as `1.23 M` or `456 k`.
fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else {
        format!("{:.0} k", rate / 1e3)
    }
}
