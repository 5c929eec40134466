//! Hex between two search agents.
//!
//! ```text
//! cargo run --release --example hex_selfplay                      # one game of best on 11x11, move by move
//! cargo run --release --example hex_selfplay -- --games 20        # a match, with a 95% interval
//! cargo run --release --example hex_selfplay -- --size 7 --black uct:iterations=20000 --white mc:playouts=20000 --swap
//! ```
//!
//! One game shows the board after every move, each move's thinking time, the agent's view of
//! the position (its top moves with visits and mean reward, its principal variation, and
//! whether its virtual connections prove the position won or lost), and the winner. A player
//! resigns when its search proves its loss, or once it has rated its chances under 5% for
//! three moves in a row (`--resign-below`, `--no-resign`); the game then ends with the
//! reason and, when the winner is connected whoever moves, the board with its connection
//! marked `*`. Played on, a player connected whoever moves closes its connection rather
//! than fill the board.
//! A match (`--games N`) plays the games in parallel on every core and prints the score of
//! Black's agent with a 95% Wilson interval.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, error::ErrorKind};
use gamesearch::arena::cli::ResignArgs;
use gamesearch::arena::{
    GameResult, MoveEvent, Pairing, Resign, Score, TextGame, play_game_resigning, play_games,
};
use gamesearch::core::{Game, Player, Wdl};
use gamesearch::hex::Hex;
use gamesearch::search::AgentSpec;

mod common;

use common::say;

/// Hex between two search agents: one game move by move, or a match.
#[derive(Parser, Debug)]
#[command(name = "hex_selfplay", version, about)]
struct Cli {
    /// The board's side, 1 to 19.
    #[arg(long, default_value_t = 11)]
    size: u8,
    /// Black's agent (moves first, connects top and bottom): best (the strongest configuration
    /// for Hex) or any spec, e.g. uct:iterations=50000,c=0.4.
    #[arg(long, default_value = "best:iterations=50000")]
    black: String,
    /// White's agent (connects left and right).
    #[arg(long, default_value = "best:iterations=50000")]
    white: String,
    /// Play with the swap (pie) rule.
    #[arg(long)]
    swap: bool,
    /// How many games; with more than one, only the result of each game is shown.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// The match's seed: every game's agents are seeded from it and the game's number, as in
    /// `tournament` (the same seed and agents give the same first game in both tools).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// When a player of the one game resigns (a match plays every game to its end).
    #[command(flatten)]
    resign: ResignArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let specs = [("--black", &cli.black), ("--white", &cli.white)].map(|(flag, text)| {
        text.parse::<AgentSpec>().unwrap_or_else(|e| {
            Cli::command()
                .error(ErrorKind::ValueValidation, format!("{flag}: {e}"))
                .exit()
        })
    });
    let start = if cli.swap {
        Hex::with_swap(cli.size)
    } else {
        Hex::new(cli.size)
    }
    .unwrap_or_else(|e| {
        Cli::command()
            .error(ErrorKind::ValueValidation, format!("--size: {e}"))
            .exit()
    });

    if cli.games == 1 {
        show_one_game(&start, &specs, cli.seed, cli.resign.rule());
    } else {
        play_match(&start, &specs, cli.games, cli.seed);
    }
    ExitCode::SUCCESS
}

/// Game `k` of the match: the Black agent (0) against the White one (1), numbered as in a
/// tournament, so that its seeds are a tournament's.
fn pairing(k: u32) -> Pairing {
    Pairing {
        black: 0,
        white: 1,
        number: u64::from(k),
        opening: 0,
    }
}

fn show_one_game(start: &Hex, specs: &[AgentSpec; 2], seed: u64, resign: Resign) {
    say!(
        "Hex {0}x{0}{1}",
        start.size(),
        if start.swap_rule() { ", swap rule" } else { "" }
    );
    say!(
        "Black (X, top to bottom): {}\nWhite (O, left to right): {}\n",
        specs[0],
        specs[1]
    );
    say!("{start}\n");
    let [b, w] = pairing(0).seeds(seed);
    let build =
        |spec: &AgentSpec, seed| Hex::agent(spec, seed).unwrap_or_else(|e| common::usage_error(e));
    // The one game searches on every core (unless a spec says threads=N); a match plays a
    // game on each core instead.
    let (mut black, mut white) = (
        build(&specs[0].on_cores(0), b),
        build(&specs[1].on_cores(0), w),
    );
    let budgets = [specs[0].budget(), specs[1].budget()];
    let record = play_game_resigning(
        start,
        [&mut *black, &mut *white],
        [&budgets[0], &budgets[1]],
        [resign; 2],
        |event| {
            print_move(&event);
            say!("{}\n", event.before.after(event.action));
        },
    );
    let winner = record.outcome.winner().expect("Hex has no draws");
    if let Some((loser, why)) = &record.resigned {
        say!("{}.", record.end.resignation(*loser, why));
        if let Some(connection) = record.end.connection(winner) {
            say!(
                "{}'s connection (*: the empty cells it holds):\n\n{}\n",
                colour(winner),
                record.end.to_string_marked(&connection.cells)
            );
        }
    }
    say!(
        "{} wins after {} moves.",
        colour(winner),
        record.moves.len()
    );
}

fn colour(player: Player) -> &'static str {
    match player {
        Player::Black => "Black (X)",
        Player::White => "White (O)",
    }
}

fn print_move(event: &MoveEvent<'_, Hex>) {
    let number = event.before.plies() + 1;
    let played = format!(
        "{number}. {} plays {} after {:.2} s",
        colour(event.player),
        event.action,
        event.elapsed.as_secs_f64()
    );
    let Some(report) = event.report else {
        say!("{played}");
        return;
    };
    if report.book {
        say!("{played} (from the opening book)");
        return;
    }
    let rate = report.iterations as f64 / event.elapsed.as_secs_f64().max(1e-9);
    let proof = match report.proven.map(|p| p.outcome) {
        Some(Wdl::Win) => ", a proven win",
        Some(Wdl::Loss) => ", a proven loss",
        _ => "",
    };
    let threads = match report.threads {
        1 => String::new(),
        n => format!(" on {n} threads"),
    };
    say!(
        "{played} ({} iterations, {:.0} k/s{threads}, tree {} nodes{proof})",
        report.iterations,
        rate / 1e3,
        report.nodes
    );
    let top: Vec<String> = report
        .actions
        .iter()
        .take(3)
        .map(|s| format!("{} {} visits, {:.1}%", s.action, s.visits, 100.0 * s.mean))
        .collect();
    say!("   best: {}", top.join("; "));
    let pv: Vec<String> = report
        .principal_variation
        .iter()
        .take(8)
        .map(ToString::to_string)
        .collect();
    say!("   line: {}", pv.join(" "));
}

fn play_match(start: &Hex, specs: &[AgentSpec; 2], games: u32, seed: u64) {
    say!(
        "Hex {0}x{0}{1}: {games} games, Black {2} against White {3}",
        start.size(),
        if start.swap_rule() {
            " with the swap rule"
        } else {
            ""
        },
        specs[0],
        specs[1]
    );
    let progress = common::progress_bar(u64::from(games));
    let pairings: Vec<Pairing> = (0..games).map(pairing).collect();
    let results = play_games(
        std::slice::from_ref(start),
        specs,
        &pairings,
        seed,
        |result: &GameResult| {
            let winner = result.outcome.winner().expect("Hex has no draws");
            let line = format!(
                "game {}: {} wins in {} moves",
                result.pairing.number + 1,
                colour(winner),
                result.plies
            );
            // Printed above the bar on a terminal, and printed all the same when the bar is hidden.
            progress.suspend(|| say!("{line}"));
            progress.inc(1);
        },
    )
    .unwrap_or_else(|e| common::usage_error(e));
    progress.finish_and_clear();
    let mut score = Score::default();
    for result in &results {
        score.add(result.outcome, Player::Black);
    }
    let (low, high) = score.interval95();
    say!(
        "Black ({}) won {} of {} games: {:.1}% (95% interval {:.1}% to {:.1}%)",
        specs[0],
        score.wins,
        score.games(),
        100.0 * score.rate(),
        100.0 * low,
        100.0 * high
    );
}
