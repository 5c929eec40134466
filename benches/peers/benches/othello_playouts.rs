//! Random Othello playouts from the 8x8 start: gamesearch against magpie 0.12, in one run,
//! each driven by a Xoshiro256++ generator of its own rand version.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench othello_playouts`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::core::Game;
use gamesearch::othello::Othello;
use magpie::othello::{Board, Stone};

/// The fastest random playout magpie's API allows: its `Board` (not `Game`, whose `status`
/// computes mobility again), `moves_for` once per ply, a pass when it is empty, the game over
/// after two passes in a row. Returns Black's discs minus White's.
fn magpie_playout<R: rand08::Rng>(rng: &mut R) -> i32 {
    let mut board = Board::standard();
    let mut stone = Stone::Black;
    let mut passed = false;
    loop {
        let moves = board.moves_for(stone);
        if moves.is_empty() {
            if passed {
                break;
            }
            passed = true;
        } else {
            passed = false;
            let k = rng.gen_range(0..moves.count_set());
            let position = moves.hot_bits().nth(usize::from(k)).expect("k < count");
            board.play(stone, position);
        }
        stone = stone.flip();
    }
    i32::from(board.bits_for(Stone::Black).count_set())
        - i32::from(board.bits_for(Stone::White).count_set())
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("othello-8x8 random playouts from the start");
    group.throughput(Throughput::Elements(1));

    let mut ours_rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
    let start = Othello::new();
    group.bench_function("gamesearch", |b| {
        b.iter(|| {
            let mut position = start.clone();
            black_box(position.random_playout(&mut ours_rng))
        });
    });

    let mut peer_rng =
        <rand_xoshiro06::Xoshiro256PlusPlus as rand08::SeedableRng>::seed_from_u64(1);
    // Both must play real games: on a sample, the discs of a finished game add up to at most 64
    // and Black wins a plausible share.
    let margins: Vec<i32> = (0..1000).map(|_| magpie_playout(&mut peer_rng)).collect();
    let black_wins = margins.iter().filter(|&&m| m > 0).count();
    assert!(
        (350..650).contains(&black_wins),
        "magpie: {black_wins} black wins of 1000"
    );
    group.bench_function("magpie 0.12", |b| {
        b.iter(|| black_box(magpie_playout(&mut peer_rng)))
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
