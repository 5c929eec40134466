//! What a game's costlier knowledge costs per position: Hex's prior (the learned pattern
//! weights of every legal move, with the inferior cells: what a node pays when it is
//! expanded; and without the vulnerable and dominated ones), its inferior cells and its
//! virtual connections (H-search for both players, [`Hex::proven_moves`]) on mid-game 9x9 and
//! 11x11 positions. A search asks the last only of
//! nodes visited `examine` times, so its cost is what sets that threshold.
//!
//! Othello's evaluations: the learned patterns ([`Patterns`]: 46 pattern instances in the
//! board's 8 symmetries, mobility, parity) against the hand-set heuristic, on a mid-game
//! position; what a leaf of the alpha-beta search pays.
//!
//! `cargo bench --bench knowledge`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamesearch::core::Evaluator;
use gamesearch::core::{Game, knowledge::Prior};
use gamesearch::hex::{Hex, Shape};
use gamesearch::othello::{Heuristic, Othello, Patterns};

fn hex(c: &mut Criterion) {
    let positions = [
        ("9x9, 12 stones", 9, "e5 d6 c7 f4 g3 d4 c5 f6 e3 b8 g7 c3"),
        (
            "11x11, 14 stones",
            11,
            "f6 e7 d8 g5 c9 h4 e6 f5 c3 i9 b10 j2 d5 g7",
        ),
    ];
    let mut group = c.benchmark_group("knowledge/hex");
    for (label, size, moves) in positions {
        let position = Hex::new(size)
            .expect("a legal size")
            .after_moves(moves)
            .expect("legal moves");
        let actions = position.legal_actions_vec();
        let mut weights = Vec::with_capacity(actions.len());
        group.bench_function(format!("prior, {label}"), |b| {
            b.iter(|| {
                weights.clear();
                Shape::default().weigh(black_box(&position), &actions, &mut weights);
                black_box(weights.len())
            });
        });
        let fill_in_only = Shape {
            dominated: false,
            ..Shape::default()
        };
        group.bench_function(format!("prior without dominated cells, {label}"), |b| {
            b.iter(|| {
                weights.clear();
                fill_in_only.weigh(black_box(&position), &actions, &mut weights);
                black_box(weights.len())
            });
        });
        group.bench_function(format!("inferior cells, {label}"), |b| {
            b.iter(|| black_box(position.inferior_cells()));
        });
        group.bench_function(format!("virtual connections, {label}"), |b| {
            b.iter(|| black_box(position.proven_moves()));
        });
    }
    group.finish();
}

fn othello(c: &mut Criterion) {
    let position = Othello::new()
        .after_moves("f5d6c3d3c4f4f6f3e6e7")
        .expect("legal moves");
    let patterns = Patterns::standard();
    let heuristic = Heuristic::default();
    let mut group = c.benchmark_group("knowledge/othello");
    group.bench_function("patterns, 14 discs", |b| {
        b.iter(|| black_box(patterns.evaluate(black_box(&position))));
    });
    group.bench_function("heuristic, 14 discs", |b| {
        b.iter(|| black_box(heuristic.evaluate(black_box(&position))));
    });
    group.finish();
}

criterion_group!(benches, hex, othello);
criterion_main!(benches);
