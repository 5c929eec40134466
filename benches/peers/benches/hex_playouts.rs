//! Random Hex playouts on the empty 11x11 board: gamesearch (fill and check) against hexgame 0.1
//! (union-find, move by move), in one run.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench hex_playouts`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::core::Game;
use gamesearch::hex::Hex;
use hexgame::{Color, Coords, Game as HexGame, Status};

/// The fastest random playout hexgame's API allows: a template game cloned, our own list of
/// empty cells (instead of `get_empty_cells` every move), a uniformly random one played until
/// its union-find says someone connected.
fn hexgame_playout<R: rand08::Rng>(
    template: &HexGame,
    cells: &[Coords],
    empty: &mut Vec<Coords>,
    rng: &mut R,
) -> Color {
    let mut game = template.clone();
    empty.clear();
    empty.extend_from_slice(cells);
    loop {
        let i = rng.gen_range(0..empty.len());
        game.play(empty.swap_remove(i)).expect("an empty cell");
        if let Status::Finished(winner) = game.get_status() {
            return winner;
        }
    }
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("hex-11x11 random playouts from the empty board");
    group.throughput(Throughput::Elements(1));

    let mut ours_rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
    let start = Hex::new(11).expect("11x11");
    group.bench_function("gamesearch", |b| {
        b.iter(|| {
            let mut position = start.clone();
            black_box(position.random_playout(&mut ours_rng))
        });
    });

    let mut peer_rng =
        <rand_xoshiro06::Xoshiro256PlusPlus as rand08::SeedableRng>::seed_from_u64(1);
    let template = HexGame::new(11);
    let cells: Vec<Coords> = (0..11)
        .flat_map(|row| (0..11).map(move |column| Coords::new(row, column)))
        .collect();
    let mut empty = Vec::with_capacity(cells.len());
    // Both must play real games: Black, moving first, wins a bit more than half.
    let black = (0..2000)
        .filter(|_| hexgame_playout(&template, &cells, &mut empty, &mut peer_rng) == Color::Black)
        .count();
    assert!(
        (950..1250).contains(&black),
        "hexgame: {black} black wins of 2000"
    );
    group.bench_function("hexgame 0.1", |b| {
        b.iter(|| {
            black_box(hexgame_playout(
                &template,
                &cells,
                &mut empty,
                &mut peer_rng,
            ))
        });
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
