//! The cost of `play`, with its win detection, as tree search pays it: a position cloned and a
//! whole random game played on it move by move.
//!
//! `cargo bench --bench play`
//!
//! Throughput is in moves: the time per element is the time per move, clone included (one
//! clone per game).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::{Game, Status};
use gamesearch::hex::Hex;
use gamesearch::othello::Othello;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fixed random games from `start`, as action lists: the same games in every sample.
fn games<G: Game>(start: &G, count: usize) -> Vec<Vec<G::Action>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    (0..count)
        .map(|_| {
            let mut position = start.clone();
            let mut moves = Vec::new();
            while let Some(action) = position.random_action(&mut rng) {
                moves.push(action);
                position.play(action);
            }
            moves
        })
        .collect()
}

fn bench_play<G: Game>(c: &mut Criterion, name: &str, start: &G) {
    let games = games(start, 64);
    let moves: usize = games.iter().map(Vec::len).sum();
    // Replaying the recorded moves must finish every game.
    for game in &games {
        let mut position = start.clone();
        game.iter().for_each(|&a| position.play(a));
        assert!(matches!(position.status(), Status::Over(_)), "{name}");
    }
    let mut group = c.benchmark_group("play");
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            for game in &games {
                let mut position = start.clone();
                for &action in game {
                    position.play_unchecked(action);
                }
                black_box(&position);
            }
        });
    });
    group.finish();
}

fn play(c: &mut Criterion) {
    bench_play(c, "hex-11x11", &Hex::new(11).expect("11x11"));
    bench_play(c, "hex-19x19", &Hex::new(19).expect("19x19"));
    bench_play(c, "connect4-7x6", &Connect4::new());
    bench_play(c, "othello-8x8", &Othello::new());
}

criterion_group!(benches, play);
criterion_main!(benches);
