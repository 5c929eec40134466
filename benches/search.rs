//! Search speed: iterations (playouts) per second from the start of every game, each sample a
//! fresh agent and a fresh tree.
//!
//! `cargo bench --bench search`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::Game;
use gamesearch::hex::Hex;
use gamesearch::othello::Othello;
use gamesearch::search::{Agent, AgentSpec};

/// Benchmarks the agent of `spec` (which must have an iteration budget) on `start`, after
/// checking that it answers with a legal action and runs the iterations it was given.
fn bench_agent<G: Game + 'static>(c: &mut Criterion, game: &str, spec: &str, start: &G) {
    let spec: AgentSpec = spec.parse().expect("a valid spec");
    let budget = spec.budget();
    let iterations = budget.iterations.expect("an iteration budget");
    let mut agent = spec.build::<G>(1);
    let action = agent.choose(start, &budget).expect("the game is on");
    assert!(start.is_legal(action));
    assert_eq!(agent.report().expect("a report").iterations, iterations);

    let mut group = c.benchmark_group(format!("search/{game}"));
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(20);
    group.bench_function(spec.to_string(), |b| {
        b.iter(|| {
            let mut agent = spec.build::<G>(1);
            black_box(agent.choose(black_box(start), &budget))
        });
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    let connect4 = Connect4::new();
    bench_agent(c, "connect4-7x6", "uct:iterations=20000", &connect4);
    bench_agent(c, "connect4-7x6", "mc:playouts=20000", &connect4);
    bench_agent(c, "connect4-7x6", "ucb1:playouts=20000", &connect4);
    let hex = Hex::new(11).expect("11x11");
    bench_agent(c, "hex-11x11", "uct:iterations=20000", &hex);
    bench_agent(c, "hex-11x11", "mc:playouts=20000", &hex);
    bench_agent(c, "othello-8x8", "uct:iterations=5000", &Othello::new());
}

criterion_group!(benches, search);
criterion_main!(benches);
