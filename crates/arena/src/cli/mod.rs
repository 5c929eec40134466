//! The command-line tools, for any [`TextGame`] (feature `cli`): `play`, `gtp` and
//! `tournament` with every flag of the `play`, `gtp` and `tournament` examples, for a game of
//! your own in a binary of your own.
//!
//! ```no_run
//! use std::process::ExitCode;
//! # use game_core::testing::TicTacToe as MyGame;
//! # use game_core::Game;
//!
//! fn main() -> ExitCode {
//!     // my_game play --agent best:time=1s
//!     // my_game gtp --agent uct:iterations=20000
//!     // my_game tournament --agent best:time=100ms --agent uct:time=100ms --games 100
//!     # #[cfg(any())]
//!     arena::cli::run(MyGame::new())
//!     # ; ExitCode::SUCCESS
//! }
//! ```
//!
//! The game implements [`TextGame`] (its name, its size as text, how to clear and resize it;
//! the rest has defaults). Its own agents enter every tool by name: list them in
//! [`TextGame::AGENTS`] and build them in [`TextGame::build`] (see there); `mine:time=1s`
//! then works in `play`, `gtp` and `tournament` like any built-in spec.
//!
//! The pieces are public too, for a tool that wants more: [`Tool`] is the subcommand (flatten
//! it into your own `clap` parser), and [`PlayArgs`], [`GtpArgs`] and [`TournamentArgs`]
//! each run on a game ([`WithGame`]).
//!
//! A tool whose standard output is closed early (`tournament ... | head -1`) ends quietly,
//! with status 0: the reader has what it wanted, and nothing is wrong. The tools print
//! through [`say`] (where `println!` would panic) and treat a write error of kind
//! [`BrokenPipe`](io::ErrorKind::BrokenPipe) as the end ([`finish`]).

mod play;
mod tournament;

use std::fmt::{self, Display};
use std::io::{self, Write as _};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use search::AgentSpec;

use crate::{GtpEngine, Resign, TextGame, WithGame};

pub use play::PlayArgs;
pub use tournament::{MergeArgs, TournamentArgs, TournamentCommand};

/// One of the tools, as a `clap` subcommand.
#[derive(Subcommand, Clone, Debug)]
pub enum Tool {
    /// Play against the computer in the terminal.
    Play(PlayArgs),
    /// Speak GTP (Go Text Protocol) on standard input and output, for GUIs and referees.
    Gtp(GtpArgs),
    /// A round robin (or gauntlet) of agents, games in parallel.
    Tournament(TournamentArgs),
}

impl WithGame for Tool {
    type Output = ExitCode;

    /// Runs the tool on the game of `start`: success, or the error on standard error and code
    /// 1 (code 2 for bad flags or agents).
    fn run<G: TextGame>(self, start: G) -> ExitCode {
        match self {
            Tool::Play(args) => finish("play", args.run(start)),
            Tool::Gtp(args) => finish("gtp", args.run(start)),
            Tool::Tournament(args) => finish("tournament", args.run(start)),
        }
    }
}

/// A program of the tools for one game: `NAME play|gtp|tournament [FLAGS]`.
#[derive(Parser, Debug)]
#[command(version, about = "Play, serve GTP and run tournaments", long_about = None)]
struct Tools {
    #[command(subcommand)]
    tool: Tool,
}

/// The tools for the game of `start` (its empty board, with its rules), reading the command
/// line: `play`, `gtp` or `tournament` and its flags (`--help` lists them). Returns the exit
/// code for `main`.
#[must_use]
pub fn run<G: TextGame>(start: G) -> ExitCode {
    Tools::parse().tool.run(start)
}

/// The flags of `gtp`: a GTP engine on standard input and output (see [`GtpEngine`] for the
/// commands).
#[derive(Args, Clone, Debug)]
pub struct GtpArgs {
    /// The agent that answers genmove: best (the strongest configuration for the game) or any
    /// spec, e.g. best:time=1s, uct:iterations=20000,c=0.4 or alphabeta:time=1s.
    #[arg(long, default_value = "best:iterations=20000")]
    pub agent: String,
    /// The seed of the agent (game k of the session uses seed + k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search on the opponent's time, from each genmove's answer to the next command.
    #[arg(long)]
    pub ponder: bool,
    /// When genmove answers resign.
    #[command(flatten)]
    pub resign: ResignArgs,
}

/// The flags of when the computer resigns (`gtp`, `play`, `web`).
#[derive(Args, Clone, Debug)]
pub struct ResignArgs {
    /// Never resign: play on in positions the search proved lost (by default the computer
    /// resigns there, as MoHex does, and after three moves in a row rated under
    /// --resign-below).
    #[arg(long)]
    pub no_resign: bool,
    /// Resign once the search's winning chances have stayed below this for three moves in a
    /// row (0 to 1; 0: on a proven loss only).
    #[arg(long, default_value_t = 0.05, value_parser = chances)]
    pub resign_below: f64,
}

/// Reads a probability, 0 to 1, for `--resign-below`.
pub(crate) fn chances(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a probability from 0 to 1, not {text}")),
    }
}

impl ResignArgs {
    /// The resigning rule of the flags.
    #[must_use]
    pub fn rule(&self) -> Resign {
        if self.no_resign {
            Resign::NEVER
        } else {
            Resign {
                below: self.resign_below,
                ..Resign::default()
            }
        }
    }
}

impl WithGame for GtpArgs {
    type Output = io::Result<()>;

    /// Serves GTP from `start` until `quit`, the end of the input or a closed output; a bad
    /// agent spec ends the program with code 2 and the reason.
    fn run<G: TextGame>(self, start: G) -> io::Result<()> {
        // Playing, not measuring: a tree search on every core unless the spec says threads=N.
        let spec = parse_agent(&self.agent, &start).on_cores(0);
        let mut engine = GtpEngine::new(start, spec, self.seed)
            .unwrap_or_else(|e| usage_error(e))
            .with_ponder(self.ponder)
            .with_resign(self.resign.rule());
        until_closed(engine.run(io::stdin().lock(), io::stdout().lock()))
    }
}

/// Reads an agent spec for the game of `start` (its own agents too, [`TextGame::AGENTS`]) and
/// checks that it can be built for it; ends the program with code 2 and the reason when not.
fn parse_agent<G: TextGame>(text: &str, start: &G) -> AgentSpec {
    let spec = G::parse_agent(text).unwrap_or_else(|e| usage_error(e));
    spec.check_for(start).unwrap_or_else(|e| usage_error(e));
    if let Err(e) = G::agent(&spec, 0) {
        usage_error(e);
    }
    spec
}

/// Exits with code 2 and `message`, as `clap` does for a bad argument.
pub fn usage_error(message: impl Display) -> ! {
    clap::Error::raw(ErrorKind::ValueValidation, format!("{message}\n")).exit()
}

/// `println!` for the tools: writes `line` and a newline to standard output, except that a
/// closed standard output (the reader of a pipe gone, as in `tool | head -1`) ends the program
/// quietly with status 0, where `println!` panics. The examples call it through their `say!`
/// macro.
///
/// ```no_run
/// arena::cli::say(format_args!("{}\t{}", 1, 7));
/// ```
///
/// # Panics
///
/// When standard output fails otherwise, as `println!` does.
pub fn say(line: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(error) = writeln!(out, "{line}") {
        if error.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        panic!("failed printing to stdout: {error}");
    }
}

/// `result`, with a closed standard output (a write's [`BrokenPipe`](io::ErrorKind::BrokenPipe))
/// counted as a tool's normal end: the reader stopped reading.
fn until_closed(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// The exit code of a tool that ran: success, or the error on standard error (after the tool's
/// name) and code 1.
pub fn finish<E: Display>(tool: &str, result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{tool}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The progress bar of a tool that plays `games` games: done and total, time elapsed, an
/// estimate of the time left, and a message (a label or the leader) after them. Hidden when
/// standard error is not a terminal.
#[must_use]
pub fn progress_bar(games: u64) -> ProgressBar {
    progress_bar_of(games, "games")
}

/// A progress bar for `total` things of a kind (`unit`: "positions", say), with the time
/// elapsed and the time left.
#[must_use]
pub fn progress_bar_of(total: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, about {{eta}} left  {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar
}

/// The flag that Ctrl-C (or SIGTERM, as batch schedulers send at a time limit) sets, cleared
/// for a new run: pass it to [`play_games_until`](crate::play_games_until). The first signal
/// stops the run cleanly, a second one ends the process at once. The handler is installed at
/// the first call; if the program has a handler of its own, the flag is never set.
pub fn stop_flag() -> Arc<AtomicBool> {
    stop_flag_saying("the games in progress are dropped, the finished ones kept")
}

/// [`stop_flag`] for a tool whose work stops another way: the first signal prints
/// "Stopping: `what` (again to quit at once)."
pub fn stop_flag_saying(what: &'static str) -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    static SAYING: Mutex<&str> = Mutex::new("");
    *SAYING.lock().unwrap_or_else(PoisonError::into_inner) = what;
    let flag = FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if handler.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            let what = *SAYING.lock().unwrap_or_else(PoisonError::into_inner);
            eprintln!("\nStopping: {what} (again to quit at once).");
        });
        flag
    });
    flag.store(false, Ordering::SeqCst);
    Arc::clone(flag)
}
