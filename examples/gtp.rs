//! A GTP engine for Hex, Othello and Connect Four, for GUIs (HexGui), referees and scripts.
//!
//! ```text
//! cargo run --release --example gtp -- --game hex --size 11 --agent uct:iterations=20000
//! cargo run --release --example gtp -- --game othello --agent alphabeta:time=1s
//! cargo run --release --example gtp -- --game connect4 --size 7x6 --agent uct:time=500ms
//! ```
//!
//! Commands come on standard input, answers go to standard output (see `arena::GtpEngine` for
//! the command list and the Hex swap convention). Type `list_commands` to see them.

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, error::ErrorKind};
use gamesearch::arena::{GameChoice, GtpEngine, TextGame, WithGame};
use gamesearch::search::AgentSpec;

/// Speaks GTP (Go Text Protocol) on standard input and output for Hex, Othello or Connect Four.
#[derive(Parser, Debug)]
#[command(name = "gtp", version, about)]
struct Cli {
    /// The game: hex, othello or connect4.
    #[arg(long)]
    game: String,
    /// The board: Hex 1-19 (default 11), Othello 8 or 6, Connect Four columns x rows (7x6).
    #[arg(long)]
    size: Option<String>,
    /// Hex: play with the swap (pie) rule (GTP `param_game allow_swap 1` also turns it on).
    #[arg(long)]
    swap: bool,
    /// The agent that answers genmove, e.g. uct:iterations=20000,c=0.4 or alphabeta:time=1s.
    #[arg(long, default_value = "uct:iterations=20000")]
    agent: String,
    /// The seed of the agent (game k of the session uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct Serve {
    spec: AgentSpec,
    seed: u64,
}

impl WithGame for Serve {
    type Output = io::Result<()>;

    fn run<G: TextGame>(self, start: G) -> io::Result<()> {
        GtpEngine::new(start, self.spec, self.seed).run(io::stdin().lock(), io::stdout().lock())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let fail = |message: String| -> ! {
        Cli::command()
            .error(ErrorKind::ValueValidation, message)
            .exit()
    };
    let spec: AgentSpec = cli
        .agent
        .parse()
        .unwrap_or_else(|e| fail(format!("--agent: {e}")));
    let choice =
        GameChoice::new(&cli.game, cli.size.as_deref(), cli.swap).unwrap_or_else(|e| fail(e));
    match choice.run(Serve {
        spec,
        seed: cli.seed,
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gtp: {e}");
            ExitCode::FAILURE
        }
    }
}
