//! The board in the browser: play, watch and analyse every game.
//!
//! ```text
//! cargo run --release --example web
//! cargo run --release --example web -- --port 9000 --max-time 10s
//! ```
//!
//! Starts a local server on 127.0.0.1:8080 and prints its address; open it in a browser. The
//! page and its JSON API are `arena::web` (feature `web`), documented in `docs/tools.md`. The
//! server binds to loopback unless `--host` says otherwise: anyone who can reach the address
//! can start games and make the machine think, up to `--max-games` games of `--max-time` per
//! move.

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use gamesearch::arena::web::{WebConfig, router};

mod common;

use common::say;

/// Serve the board in the browser.
#[derive(Parser, Debug)]
#[command(name = "web", version, about)]
struct Cli {
    /// The address to listen on: loopback by default (see the docs before exposing it).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The most time per move a game may ask for (`500ms`, `10s`).
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    max_time: Duration,
    /// The most games at once.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    max_games: u64,
    /// Accepted like every example's; each game takes its own seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// `500ms`, `10s`, `1m`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .ok_or_else(|| format!("{text:?} is not a duration such as 500ms or 10s"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        _ => return Err(format!("{text:?}: the unit is ms, s or m")),
    };
    Ok(Duration::from_secs_f64(seconds))
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = WebConfig {
        max_time: cli.max_time,
        max_games: cli.max_games as usize,
    };
    let listener = match tokio::net::TcpListener::bind((cli.host, cli.port)).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("web: cannot listen on {}:{}: {error}", cli.host, cli.port);
            return ExitCode::from(2);
        }
    };
    let address = listener
        .local_addr()
        .map_or_else(|_| format!("{}:{}", cli.host, cli.port), |a| a.to_string());
    if !cli.host.is_loopback() {
        eprintln!(
            "web: listening beyond this machine: anyone who reaches {address} can start games here"
        );
    }
    say!("gamesearch board: http://{address}/ (Ctrl-C to stop)");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match axum::serve(listener, router(config))
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("web: {error}");
            ExitCode::FAILURE
        }
    }
}
