//! UCT from the empty Connect Four board, a fresh 20,000-iteration tree per sample:
//! gamesearch's `Uct` against board-game 0.8.2's `mcts_build_tree`, in one run.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench connect4_search`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::Game;
use gamesearch::search::{Agent, Budget, Uct};

const ITERATIONS: u64 = 20_000;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4-7x6 UCT, 20k iterations from the start");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(30);

    let start = Connect4::new();
    let budget = Budget::iterations(ITERATIONS);
    let mut check = Uct::new(1);
    assert!(start.is_legal(check.choose(&start, &budget).expect("an action")));
    group.bench_function("gamesearch", |b| {
        b.iter(|| {
            let mut uct = Uct::new(1);
            black_box(uct.choose(black_box(&start), &budget))
        });
    });

    let peer_start = board_game::games::connect4::Connect4::default();
    let mut rng = <rand_xoshiro06::Xoshiro256PlusPlus as rand08::SeedableRng>::seed_from_u64(1);
    let tree = board_game::ai::mcts::mcts_build_tree(&peer_start, ITERATIONS, 2.0, &mut rng);
    assert!(tree.best_move() < 7, "a column");
    group.bench_function("board-game 0.8.2", |b| {
        b.iter(|| {
            black_box(board_game::ai::mcts::mcts_build_tree(
                black_box(&peer_start),
                ITERATIONS,
                2.0,
                &mut rng,
            ))
        });
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
