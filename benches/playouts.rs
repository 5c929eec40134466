//! Random playouts per second: the inner loop of Monte-Carlo search, for every game.
//!
//! `cargo bench --bench playouts`
//!
//! Each game is measured from its start position and from a fixed mid-game position, with the
//! game's own `random_playout` (the fast path search uses) and one `Xoshiro256PlusPlus`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::{Game, Status, knowledge::PlayoutPolicy};
use gamesearch::hex::{Bridges, Hex};
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

fn hex(c: &mut Criterion) {
    for size in [7, 11, 13, 19] {
        bench_playouts(
            c,
            &format!("hex-{size}x{size}"),
            "empty",
            &Hex::new(size).expect("a legal size"),
        );
    }
    let middle = Hex::new(11)
        .expect("11x11")
        .after_moves("f6 e7 d8 g5 c9 h4 e6 f5")
        .expect("legal moves");
    bench_playouts(c, "hex-11x11", "8 stones", &middle);
}

/// Hex's knowledge playouts ([`Bridges`]): saving bridges and ziggurats move by move (the
/// default), bridges alone, with the fill-in of inferior cells first, with half the other moves
/// local (pattern-weighted), and with every other move drawn by pattern weight, from a
/// mid-game 11x11 position (the plain fill above is the yardstick).
fn hex_policies(c: &mut Criterion) {
    let position = Hex::new(11)
        .expect("11x11")
        .after_moves("f6 e7 d8 g5 c9 h4 e6 f5 c3 i9 b10 j2 d5 g7")
        .expect("legal moves");
    let mut group = c.benchmark_group("playouts/hex-11x11-policies");
    group.throughput(Throughput::Elements(1));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for (label, policy) in [
        ("bridges", Bridges::default()),
        (
            "bridges-only",
            Bridges {
                ziggurats: false,
                ..Bridges::default()
            },
        ),
        (
            "bridges+fill-in",
            Bridges {
                fill_in: true,
                ..Bridges::default()
            },
        ),
        (
            "bridges+local-0.5",
            Bridges {
                local: 0.5,
                ..Bridges::default()
            },
        ),
        (
            "bridges+weighted",
            Bridges {
                weighted: Some(1.0),
                ..Bridges::default()
            },
        ),
    ] {
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut playout = position.clone();
                black_box(policy.play_out(&mut playout, &mut rng))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, connect4, othello, hex, hex_policies);
criterion_main!(benches);
