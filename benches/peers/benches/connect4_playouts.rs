//! Random Connect Four playouts from the empty 7x6 board: gamesearch against board-game 0.8.2,
//! in one run, each with a Xoshiro256++ generator of its own rand version.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench connect4_playouts`

use std::hint::black_box;

use board_game::board::Board as _;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::Game;

/// One board-game playout: random available moves until the game is done, as its own
/// `play_random_available_move` does.
fn board_game_playout<R: rand08::Rng>(rng: &mut R) -> Option<board_game::board::Outcome> {
    let mut board = board_game::games::connect4::Connect4::default();
    while !board.is_done() {
        board
            .play_random_available_move(rng)
            .expect("the game is not done");
    }
    board.outcome()
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4-7x6 random playouts from the start");
    group.throughput(Throughput::Elements(1));

    let mut ours_rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
    let start = Connect4::new();
    group.bench_function("gamesearch", |b| {
        b.iter(|| {
            let mut position = start.clone();
            black_box(position.random_playout(&mut ours_rng))
        });
    });

    let mut peer_rng =
        <rand_xoshiro06::Xoshiro256PlusPlus as rand08::SeedableRng>::seed_from_u64(1);
    // Both must play real games: check board-game's outcomes on a sample.
    let finished = (0..1000)
        .filter(|_| board_game_playout(&mut peer_rng).is_some())
        .count();
    assert_eq!(finished, 1000);
    group.bench_function("board-game 0.8.2", |b| {
        b.iter(|| black_box(board_game_playout(&mut peer_rng)))
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
