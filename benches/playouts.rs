//! Random playouts per second: the inner loop of Monte-Carlo search, for every game.
//!
//! `cargo bench --bench playouts`
//!
//! Each game is measured from its start position and from a fixed mid-game position, with the
//! game's own `random_playout` (the fast path search uses) and one `Xoshiro256PlusPlus`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::{Game, Status};
use gamesearch::othello::{Othello, Othello6};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Benchmarks playouts from `position`, after checking that one ends where it says.
fn bench_playouts<G: Game>(c: &mut Criterion, game: &str, label: &str, position: &G) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut check = position.clone();
    let result = check.random_playout(&mut rng);
    assert_eq!(
        check.status(),
        Status::Over(result.outcome),
        "{game}/{label}"
    );

    let mut group = c.benchmark_group(format!("playouts/{game}"));
    group.throughput(Throughput::Elements(1));
    group.bench_function(label, |b| {
        b.iter(|| {
            let mut playout = position.clone();
            black_box(playout.random_playout(&mut rng))
        });
    });
    group.finish();
}

fn connect4(c: &mut Criterion) {
    bench_playouts(c, "connect4-7x6", "start", &Connect4::new());
    let middle: Connect4 = "3642756176227637211".parse().expect("a legal move string");
    bench_playouts(c, "connect4-7x6", "middle (19 stones)", &middle);
}

fn othello(c: &mut Criterion) {
    bench_playouts(c, "othello-8x8", "start", &Othello::new());
    let middle = Othello::new()
        .after_moves("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1")
        .expect("legal moves");
    bench_playouts(c, "othello-8x8", "middle (22 discs)", &middle);
    bench_playouts(c, "othello-6x6", "start", &Othello6::new());
}

criterion_group!(benches, connect4, othello);
criterion_main!(benches);
