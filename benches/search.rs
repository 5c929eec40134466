//! Search speed: iterations (playouts) per second from the start of every game, each sample a
//! fresh agent and a fresh tree.
//!
//! `cargo bench --bench search`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::arena::TextGame;
use gamesearch::connect4::Connect4;
use gamesearch::core::Evaluator;
use gamesearch::core::Game;
use gamesearch::hex::Hex;
use gamesearch::othello::{Heuristic, Othello};
use gamesearch::search::{Agent, AgentSpec, AlphaBeta, AlphaBetaConfig, Budget};

/// Benchmarks the agent of `spec` (which must have an iteration budget) on `start`, after
/// checking that it answers with a legal action and runs the iterations it was given.
fn bench_agent<G: TextGame>(c: &mut Criterion, game: &str, spec: &str, start: &G) {
    let spec: AgentSpec = spec.parse().expect("a valid spec");
    let budget = spec.budget();
    let iterations = budget.iterations.expect("an iteration budget");
    let mut agent = G::agent(&spec, 1).expect("the bench specs build");
    let action = agent.choose(start, &budget).expect("the game is on");
    assert!(start.is_legal(action));
    assert_eq!(agent.report().expect("a report").iterations, iterations);

    let mut group = c.benchmark_group(format!("search/{game}"));
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(20);
    group.bench_function(spec.to_string(), |b| {
        b.iter(|| {
            let mut agent = G::agent(&spec, 1).expect("the bench specs build");
            black_box(agent.choose(black_box(start), &budget))
        });
    });
    // The same search by an agent kept from one sample to the next, as in a game, where one
    // agent plays every move: a fresh tree each time (no reuse), in memory the agent already
    // has. The difference from the row above is the cost of a new agent's first allocations.
    if matches!(spec.name(), "uct" | "rave" | "grave" | "best") {
        let kept: AgentSpec = format!("{spec},reuse=false")
            .parse()
            .expect("tree agents take reuse=");
        let mut agent = G::agent(&kept, 1).expect("the bench specs build");
        group.bench_function(format!("{kept} (agent kept)"), |b| {
            b.iter(|| black_box(agent.choose(black_box(start), &budget)));
        });
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let connect4 = Connect4::new();
    bench_agent(c, "connect4-7x6", "uct:iterations=20000", &connect4);
    bench_agent(c, "connect4-7x6", "mc:playouts=20000", &connect4);
    bench_agent(c, "connect4-7x6", "ucb1:playouts=20000", &connect4);
    bench_agent(
        c,
        "connect4-7x6",
        "uct:iterations=20000,prove=true",
        &connect4,
    );
    bench_agent(
        c,
        "connect4-7x6",
        "uct:iterations=20000,threads=2",
        &connect4,
    );
    bench_agent(
        c,
        "connect4-7x6",
        "uct:iterations=20000,threads=2,parallel=tree",
        &connect4,
    );
    let hex = Hex::new(11).expect("11x11");
    bench_agent(c, "hex-11x11", "uct:iterations=20000", &hex);
    bench_agent(c, "hex-11x11", "mc:playouts=20000", &hex);
    bench_agent(c, "hex-11x11", "ucb1:playouts=20000", &hex);
    bench_agent(c, "hex-11x11", "rave:iterations=20000", &hex);
    bench_agent(c, "hex-11x11", "grave:iterations=20000", &hex);
    bench_agent(c, "hex-11x11", "uct:iterations=20000,threads=2", &hex);
    bench_agent(
        c,
        "hex-11x11",
        "uct:iterations=20000,threads=2,parallel=tree",
        &hex,
    );
    let othello = Othello::new();
    bench_agent(c, "othello-8x8", "uct:iterations=5000", &othello);
    bench_agent(c, "othello-8x8", "mc:playouts=5000", &othello);
    bench_agent(c, "othello-8x8", "ucb1:playouts=5000", &othello);
    // The game's knowledge: what each part costs in iterations per second.
    for spec in [
        "uct:iterations=20000,prior=game",
        "uct:iterations=20000,playout=game",
        "best:iterations=20000",
    ] {
        bench_agent(c, "connect4-7x6", spec, &connect4);
    }
    for spec in [
        "uct:iterations=5000,prior=game",
        "uct:iterations=5000,playout=game",
        "uct:iterations=5000,cutoff=8",
        "uct:iterations=5000,cutoff=0",
        "best:iterations=5000",
    ] {
        bench_agent(c, "othello-8x8", spec, &othello);
    }
    bench_agent(c, "othello-8x8", "uct:iterations=5000,threads=2", &othello);
    bench_agent(
        c,
        "othello-8x8",
        "uct:iterations=5000,threads=2,parallel=tree",
        &othello,
    );
}

/// Alpha-beta to a fixed depth from `start`, a fresh agent (and table) per sample; throughput in
/// positions visited.
fn bench_alphabeta<G: Game, E: Evaluator<G> + Clone>(
    c: &mut Criterion,
    game: &str,
    start: &G,
    depth: u32,
    evaluator: &E,
) {
    // A 1 MiB table: a fresh 16 MiB one per sample would time the memset, not the search.
    let config = AlphaBetaConfig {
        max_depth: depth,
        table_bytes: 1 << 20,
        ..AlphaBetaConfig::default()
    };
    let mut agent = AlphaBeta::with_config(config, evaluator.clone());
    assert!(
        start.is_legal(
            agent
                .choose(start, &Budget::default())
                .expect("the game is on")
        )
    );
    let nodes = agent.report().expect("a report").iterations;
    let mut group = c.benchmark_group(format!("search/{game}"));
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("alphabeta:depth={depth}"), |b| {
        b.iter(|| {
            let mut agent = AlphaBeta::with_config(config, evaluator.clone());
            black_box(agent.choose(black_box(start), &Budget::default()))
        });
    });
    group.finish();
}

/// A reference agent (minimax, NegaMax) to a fixed depth; throughput in positions evaluated.
fn bench_reference<G: Game + Send + Sync + 'static>(
    c: &mut Criterion,
    game: &str,
    spec: &str,
    start: &G,
) {
    let spec: AgentSpec = spec.parse().expect("a valid spec");
    let mut agent = spec.build::<G>(1).expect("the bench specs build");
    assert!(start.is_legal(agent.choose(start, &spec.budget()).expect("the game is on")));
    let evaluated = agent.report().expect("a report").iterations;
    let mut group = c.benchmark_group(format!("search/{game}"));
    group.throughput(Throughput::Elements(evaluated));
    group.sample_size(10);
    group.bench_function(spec.to_string(), |b| {
        b.iter(|| black_box(agent.choose(black_box(start), &spec.budget())));
    });
    group.finish();
}

fn alphabeta(c: &mut Criterion) {
    let connect4 = Connect4::new();
    bench_reference(c, "connect4-7x6", "minimax:depth=6", &connect4);
    bench_reference(c, "connect4-7x6", "negamax:depth=6", &connect4);
    bench_alphabeta(c, "connect4-7x6", &Connect4::new(), 9, &|_: &Connect4| 0);
    bench_alphabeta(c, "othello-8x8", &Othello::new(), 6, &Heuristic::new());
    bench_alphabeta(c, "hex-7x7", &Hex::new(7).expect("7x7"), 4, &|_: &Hex| 0);
}

criterion_group!(benches, search, alphabeta);
criterion_main!(benches);
