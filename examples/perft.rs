//! Perft: count the leaves of a game's tree, depth by depth.
//!
//! ```text
//! cargo run --release --example perft -- --game connect4 --size 7x6 --depth 8
//! cargo run --release --example perft -- --game othello --size 8 --depth 10
//! cargo run --release --example perft -- --game hex --size 11 --depth 3 [--swap]
//! ```
//!
//! Prints one line per depth 1..=D on stdout, `DEPTH<TAB>COUNT`, as soon as that depth is done;
//! the time and speed of each depth go to stderr. A finished game reached before depth D counts
//! as one leaf. A reader that stops early (`| head -1`) ends it quietly, with status 0.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use gamesearch::arena::{TextGame, WithGame};
use gamesearch::core::testing::TicTacToe;
use gamesearch::core::{Game, perft};

mod common;

use common::say;

/// Count the leaves of a game tree, depth by depth (prints DEPTH<TAB>COUNT).
#[derive(Parser, Debug)]
#[command(name = "perft", version, about)]
struct Cli {
    /// The game (hex, othello, connect4, or tictactoe, the reference game), its size and
    /// swap rule.
    #[command(flatten)]
    game: common::GameArgs,
    /// The deepest depth to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Accepted like every example's; perft is deterministic and does not use it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Counts on whichever game `--game` chose.
struct Perft {
    depth: u32,
}

impl WithGame for Perft {
    type Output = ExitCode;

    fn run<G: TextGame>(self, start: G) -> ExitCode {
        run(&start, self.depth)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.game.name().eq_ignore_ascii_case("tictactoe") {
        if !matches!(cli.game.size(), None | Some("3" | "3x3")) || cli.game.swap() {
            common::usage_error("tic-tac-toe is 3x3, without a swap rule");
        }
        return run(&TicTacToe::new(), cli.depth);
    }
    cli.game.choice().run(Perft { depth: cli.depth })
}

/// Prints the counts for depths 1..=`depth`.
fn run<G: Game>(start: &G, depth: u32) -> ExitCode {
    for d in 1..=depth {
        let clock = Instant::now();
        let count = perft(start, d);
        let seconds = clock.elapsed().as_secs_f64();
        // Quiet on a closed pipe (`| head -1`): the reader has what it wanted.
        say!("{d}\t{count}");
        eprintln!(
            "depth {d}: {count} leaves in {seconds:.3} s ({:.1} M leaves/s)",
            count as f64 / seconds / 1e6
        );
    }
    ExitCode::SUCCESS
}
