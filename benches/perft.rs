//! Perft throughput: game-tree leaves counted per second, the cost of move generation and play.
//!
//! `cargo bench --bench perft`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::testing::TicTacToe;
use gamesearch::core::{Game, perft};
use gamesearch::hex::Hex;
use gamesearch::othello::Othello;

/// Benchmarks `perft(start, depth)` and checks its answer, so a fast wrong answer cannot pass.
fn bench_perft<G: Game>(c: &mut Criterion, name: &str, start: &G, depth: u32, expected: u64) {
    assert_eq!(
        perft(start, depth),
        expected,
        "{name}: wrong perft({depth})"
    );
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(expected));
    group.bench_function(format!("{name}/depth {depth}"), |b| {
        b.iter(|| perft(black_box(start), black_box(depth)));
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_perft(c, "tictactoe", &TicTacToe::new(), 9, 255_168);
    bench_perft(c, "connect4-7x6", &Connect4::new(), 8, 5_686_266);
    bench_perft(c, "othello-8x8", &Othello::new(), 8, 390_216);
    let hex = Hex::new(11).expect("11x11");
    bench_perft(c, "hex-11x11", &hex, 3, 1_727_880);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
