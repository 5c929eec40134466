//! Alpha-beta with a real evaluator, to a fixed depth, side by side in one run: gamesearch's
//! production `AlphaBeta` (iterative deepening, a table, move ordering, PVS), minimax 0.6.0's
//! `IterativeSearch` (iterative deepening, a table, null windows) and `Negamax` (plain
//! alpha-beta), and board-game 0.8.2's `minimax` (plain alpha-beta, Connect Four only: it has no
//! Othello).
//!
//! Every search gets the same evaluator: on Connect Four the classic table of how many lines of
//! four pass through each cell, summed over the player to move's stones minus the opponent's
//! (from bitboards, by popcounts); on Othello gamesearch's `Heuristic` (minimax drives
//! gamesearch's Othello board through its own traits). Each search starts with a fresh table of
//! 1 MiB. The bench prints, once, the positions each visits (gamesearch: positions searched;
//! minimax and board-game: moves played, counted by the adapter), so that the table in
//! `docs/benchmarks.md` can give positions per second beside the time to the depth.
//!
//! `cargo bench --manifest-path benches/peers/Cargo.toml --bench alphabeta_search`

use std::cell::Cell;
use std::cmp::Ordering;
use std::hint::black_box;

use board_game::ai::minimax::{Heuristic, minimax};
use board_game::board::{Board as _, Outcome as PeerOutcome};
use criterion::{Criterion, criterion_group, criterion_main};
use gamesearch::connect4::Connect4;
use gamesearch::core::{Evaluator, Game, Outcome, Status};
use gamesearch::othello::{Heuristic as OthelloHeuristic, Othello};
use gamesearch::search::{Agent, AlphaBeta, AlphaBetaConfig, Budget};
use minimax::Strategy as _;

const TABLE_BYTES: usize = 1 << 20;

thread_local! {
    /// Moves played by the minimax and board-game adapters.
    static PLAYED: Cell<u64> = const { Cell::new(0) };
}

fn count_move() {
    PLAYED.with(|played| played.set(played.get() + 1));
}

fn take_count() -> u64 {
    PLAYED.with(|played| played.replace(0))
}

// ---------------------------------------------------------------------------------------------
// The Connect Four evaluator, on bitboards of any column stride.

/// How many lines of four pass through each cell of 7x6, by column then row from the bottom.
const LINES: [[i32; 6]; 7] = [
    [3, 4, 5, 5, 4, 3],
    [4, 6, 8, 8, 6, 4],
    [5, 8, 11, 11, 8, 5],
    [7, 10, 13, 13, 10, 7],
    [5, 8, 11, 11, 8, 5],
    [4, 6, 8, 8, 6, 4],
    [3, 4, 5, 5, 4, 3],
];

/// One mask per distinct weight, for columns `stride` bits apart.
struct Weights {
    masks: Vec<(i32, u64)>,
}

impl Weights {
    fn new(stride: u32) -> Weights {
        let mut masks: Vec<(i32, u64)> = Vec::new();
        for (column, rows) in LINES.iter().enumerate() {
            for (row, &weight) in rows.iter().enumerate() {
                let bit = 1u64 << (column as u32 * stride + row as u32);
                match masks.iter_mut().find(|(w, _)| *w == weight) {
                    Some((_, mask)) => *mask |= bit,
                    None => masks.push((weight, bit)),
                }
            }
        }
        Weights { masks }
    }

    /// The player to move's weighted stones minus the opponent's.
    #[inline]
    fn value(&self, mine: u64, theirs: u64) -> i32 {
        self.masks
            .iter()
            .map(|&(w, m)| w * ((mine & m).count_ones() as i32 - (theirs & m).count_ones() as i32))
            .sum()
    }
}

// ---------------------------------------------------------------------------------------------
// gamesearch.

struct Lines(Weights);

impl Evaluator<Connect4> for Lines {
    fn evaluate(&self, position: &Connect4) -> i32 {
        let (mine, theirs) = position.stones();
        self.0.value(mine, theirs)
    }
}

fn gamesearch<G: Game, E: Evaluator<G>>(start: &G, depth: u32, evaluator: E) -> (i32, u64) {
    let config = AlphaBetaConfig {
        max_depth: depth,
        table_bytes: TABLE_BYTES,
        ..AlphaBetaConfig::default()
    };
    let mut agent = AlphaBeta::with_config(config, evaluator);
    agent.choose(start, &Budget::default());
    let report = agent.report().expect("a report after a search");
    (report.score.expect("a score"), report.nodes as u64)
}

// ---------------------------------------------------------------------------------------------
// minimax 0.6.0, on gamesearch's boards.

/// A gamesearch game seen through minimax's traits.
struct Minimax<G>(std::marker::PhantomData<G>);

fn winner<G: Game>(position: &G) -> Option<minimax::Winner> {
    match position.status() {
        Status::Ongoing => None,
        Status::Over(Outcome::Draw) => Some(minimax::Winner::Draw),
        // In both games only the player who just moved can have won.
        Status::Over(Outcome::Win(_)) => Some(minimax::Winner::PlayerJustMoved),
    }
}

impl<G: Game> minimax::Game for Minimax<G>
where
    G::Action: Copy,
{
    type S = G;
    type M = G::Action;

    fn generate_moves(state: &G, moves: &mut Vec<G::Action>) -> Option<minimax::Winner> {
        let over = winner(state);
        if over.is_none() {
            state.legal_actions(moves);
        }
        over
    }

    fn apply(state: &mut G, action: G::Action) -> Option<G> {
        count_move();
        Some(state.after(action))
    }

    fn get_winner(state: &G) -> Option<minimax::Winner> {
        winner(state)
    }

    fn zobrist_hash(state: &G) -> u64 {
        state.position_hash()
    }
}

struct MinimaxEval<G, E>(E, std::marker::PhantomData<G>);

impl<G: Game, E: Evaluator<G>> minimax::Evaluator for MinimaxEval<G, E>
where
    G::Action: Copy,
{
    type G = Minimax<G>;

    fn evaluate(&self, state: &G) -> minimax::Evaluation {
        // Both evaluators stay far inside i16.
        self.0.evaluate(state) as minimax::Evaluation
    }
}

fn minimax_iterative<G: Game + Clone, E: Evaluator<G>>(start: &G, depth: u8, evaluator: E) -> u64
where
    G::Action: Copy + Eq,
{
    let options = minimax::IterativeOptions::new().with_table_byte_size(TABLE_BYTES);
    let mut search =
        minimax::IterativeSearch::new(MinimaxEval(evaluator, Default::default()), options);
    search.set_max_depth(depth);
    black_box(search.choose_move(start));
    take_count()
}

fn minimax_negamax<G: Game + Clone, E: Evaluator<G>>(start: &G, depth: u8, evaluator: E) -> u64
where
    G::Action: Copy,
{
    let mut search = minimax::Negamax::new(MinimaxEval(evaluator, Default::default()), depth);
    black_box(search.choose_move(start));
    take_count()
}

// ---------------------------------------------------------------------------------------------
// board-game 0.8.2, on its own Connect Four.

#[derive(Debug)]
struct PeerLines(Weights);

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weights")
    }
}

/// board-game's key is, per 8-bit column, the player to move's stones plus a marker bit on the
/// first empty cell: the stones of both players follow by smearing the marker down.
fn peer_stones(board: &board_game::games::connect4::Connect4) -> (u64, u64) {
    let key = board.perfect_hash();
    let mut smeared = key;
    smeared |= (smeared >> 1) & 0x7f7f_7f7f_7f7f_7f7f;
    smeared |= (smeared >> 2) & 0x3f3f_3f3f_3f3f_3f3f;
    smeared |= (smeared >> 4) & 0x0f0f_0f0f_0f0f_0f0f;
    let occupied = (smeared >> 1) & 0x7f7f_7f7f_7f7f_7f7f;
    let mine = key & occupied;
    (mine, occupied ^ mine)
}

impl Heuristic<board_game::games::connect4::Connect4> for PeerLines {
    type V = i32;

    fn value(&self, board: &board_game::games::connect4::Connect4, depth: u32) -> i32 {
        count_move();
        match board.outcome() {
            Some(PeerOutcome::WonBy(_)) => -(1_000_000 - depth as i32),
            Some(PeerOutcome::Draw) => 0,
            None => {
                let (mine, theirs) = peer_stones(board);
                self.0.value(mine, theirs)
            }
        }
    }

    fn merge(old: i32, new: i32) -> (i32, Ordering) {
        (old.max(new), new.cmp(&old))
    }
}

// ---------------------------------------------------------------------------------------------

fn connect4(c: &mut Criterion) {
    const DEPTH: u32 = 8;
    for moves in ["", "4453"] {
        let start = Connect4::new().after_moves(moves).expect("legal moves");
        let mut peer = board_game::games::connect4::Connect4::default();
        for column in moves.bytes() {
            peer.play(column - b'1').expect("legal moves");
        }
        // The same position, seen by the same evaluator.
        let (mine, theirs) = start.stones();
        assert_eq!(
            Weights::new(7).value(mine, theirs),
            PeerLines(Weights::new(8)).value(&peer, 0),
        );
        take_count();
        let lines = || Lines(Weights::new(7));

        let (value, nodes) = gamesearch(&start, DEPTH, lines());
        let peer_result = minimax(
            &peer,
            &PeerLines(Weights::new(8)),
            DEPTH,
            &mut rand08::thread_rng(),
        );
        let peer_nodes = take_count();
        if value.abs() < 1000 {
            assert_eq!(
                value, peer_result.value,
                "both alpha-betas agree on the value"
            );
        }
        let iterative = minimax_iterative(&start, DEPTH as u8, lines());
        let negamax = minimax_negamax(&start, DEPTH as u8, lines());
        println!(
            "connect4 '{moves}' depth {DEPTH}: value {value}; positions: gamesearch {nodes}, \
             minimax IterativeSearch {iterative}, minimax Negamax {negamax}, board-game {peer_nodes}"
        );

        let mut group = c.benchmark_group(format!(
            "connect4-7x6 '{moves}' alpha-beta to depth {DEPTH}"
        ));
        group.sample_size(10);
        group.bench_function("gamesearch AlphaBeta", |b| {
            b.iter(|| gamesearch(&start, DEPTH, lines()))
        });
        group.bench_function("minimax 0.6.0 IterativeSearch", |b| {
            b.iter(|| minimax_iterative(&start, DEPTH as u8, lines()));
        });
        group.bench_function("minimax 0.6.0 Negamax", |b| {
            b.iter(|| minimax_negamax(&start, DEPTH as u8, lines()));
        });
        let heuristic = PeerLines(Weights::new(8));
        let mut rng = rand08::thread_rng();
        group.bench_function("board-game 0.8.2 minimax", |b| {
            b.iter(|| black_box(minimax(&peer, &heuristic, DEPTH, &mut rng)));
        });
        group.finish();
    }
}

fn othello(c: &mut Criterion) {
    const DEPTH: u32 = 6;
    for moves in ["", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1"] {
        let start = Othello::new().after_moves(moves).expect("legal moves");
        take_count();
        let (value, nodes) = gamesearch(&start, DEPTH, OthelloHeuristic::default());
        let iterative = minimax_iterative(&start, DEPTH as u8, OthelloHeuristic::default());
        let negamax = minimax_negamax(&start, DEPTH as u8, OthelloHeuristic::default());
        println!(
            "othello '{moves}' depth {DEPTH}: value {value}; positions: gamesearch {nodes}, \
             minimax IterativeSearch {iterative}, minimax Negamax {negamax}"
        );

        let mut group =
            c.benchmark_group(format!("othello-8x8 '{moves}' alpha-beta to depth {DEPTH}"));
        group.sample_size(10);
        group.bench_function("gamesearch AlphaBeta", |b| {
            b.iter(|| gamesearch(&start, DEPTH, OthelloHeuristic::default()));
        });
        group.bench_function("minimax 0.6.0 IterativeSearch", |b| {
            b.iter(|| minimax_iterative(&start, DEPTH as u8, OthelloHeuristic::default()));
        });
        group.bench_function("minimax 0.6.0 Negamax", |b| {
            b.iter(|| minimax_negamax(&start, DEPTH as u8, OthelloHeuristic::default()));
        });
        group.finish();
    }
}

criterion_group!(benches, connect4, othello);
criterion_main!(benches);
