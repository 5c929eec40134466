//! Hex self-play between two search agents: `cargo run --release --example hex_selfplay`.
//!
//! Hex and the search agents are not in the library yet; until they are, this example says so
//! and exits with status 1 instead of pretending to play.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "hex_selfplay: Hex and the search agents are not available yet in gamesearch {}.\n\
         What works today: `cargo test --workspace` (the game-core traits and their conformance \
         kit) and `cargo bench` (perft on tic-tac-toe). See CHANGELOG.md for progress.",
        env!("CARGO_PKG_VERSION")
    );
    ExitCode::FAILURE
}
