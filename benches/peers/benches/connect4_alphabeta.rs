//! Plain alpha-beta (negamax form, natural move order, no table) from the empty Connect Four
//! board to a fixed depth, a win or loss worth ±(1,000,000 - ply) and every other position 0:
//! gamesearch's `search::reference::alphabeta` against board-game 0.8.2's `minimax_value`, in
//! one run. Both search the columns left to right, so they visit nearly the same tree; the
//! positions board-game's heuristic is asked about give the positions per second.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench connect4_alphabeta`

use std::cell::Cell;
use std::cmp::Ordering;
use std::hint::black_box;

use board_game::ai::minimax::{Heuristic, minimax_value};
use board_game::board::{Board, Outcome};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::search::reference;

const DEPTH: u32 = 8;

/// Wins and losses by distance, 0 otherwise; counts the positions it is asked about.
#[derive(Debug, Default)]
struct WinLoss(Cell<u64>);

impl Heuristic<board_game::games::connect4::Connect4> for WinLoss {
    type V = i32;

    fn value(&self, board: &board_game::games::connect4::Connect4, depth: u32) -> i32 {
        self.0.set(self.0.get() + 1);
        match board.outcome() {
            // The player who just moved won: a loss for the player to move.
            Some(Outcome::WonBy(_)) => -(1_000_000 - depth as i32),
            Some(Outcome::Draw) | None => 0,
        }
    }

    fn merge(old: i32, new: i32) -> (i32, Ordering) {
        (old.max(new), new.cmp(&old))
    }
}

fn alphabeta(c: &mut Criterion) {
    let peer_start = board_game::games::connect4::Connect4::default();
    let counter = WinLoss::default();
    let peer_value = minimax_value(&peer_start, &counter, DEPTH);
    let positions = counter.0.get();

    let start = Connect4::new();
    let zero = |_: &Connect4| 0;
    let value = reference::alphabeta(&start, DEPTH, &zero);
    assert_eq!(value, peer_value, "the same value at depth {DEPTH}");

    let mut group = c.benchmark_group(format!("connect4-7x6 alpha-beta to depth {DEPTH}"));
    // Positions per second, with board-game's count of the tree for both.
    group.throughput(Throughput::Elements(positions));
    group.sample_size(10);
    group.bench_function("gamesearch (search::reference::alphabeta)", |b| {
        b.iter(|| black_box(reference::alphabeta(black_box(&start), DEPTH, &zero)));
    });
    let heuristic = WinLoss::default();
    group.bench_function("board-game 0.8.2 (minimax_value)", |b| {
        b.iter(|| black_box(minimax_value(black_box(&peer_start), &heuristic, DEPTH)));
    });
    group.finish();
}

criterion_group!(benches, alphabeta);
criterion_main!(benches);
