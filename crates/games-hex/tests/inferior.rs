//! Inferior cells against their definitions (on every way of filling the rest of a small
//! board) and against the exact solver; and on hand-made positions of both colours.

use game_core::{Game, Player};
use games_hex::{Cell, Hex, InferiorCells, Move, Solver};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

mod common;
use common::{Grid, random_position};

fn index(grid: &Grid, cell: Cell) -> usize {
    grid.n * usize::from(cell.row()) + usize::from(cell.column())
}

/// Calls `check` with every colouring of the empty cells of `grid`.
fn every_filling(grid: &Grid, mut check: impl FnMut(&mut Grid)) {
    let empty: Vec<usize> = (0..grid.cells.len())
        .filter(|&i| grid.cells[i].is_none())
        .collect();
    let mut filled = Grid {
        n: grid.n,
        cells: grid.cells.clone(),
    };
    for bits in 0u32..1 << empty.len() {
        for (k, &i) in empty.iter().enumerate() {
            filled.cells[i] = Some(if bits >> k & 1 == 0 {
                Player::Black
            } else {
                Player::White
            });
        }
        check(&mut filled);
    }
}

/// Who wins `grid` with `to_move` to play and both players playing perfectly, by a plain
/// game-tree search of every move to the end (with the results of positions seen kept).
fn perfect_play(
    grid: &mut Grid,
    to_move: Player,
    seen: &mut HashMap<Vec<Option<Player>>, Player>,
) -> Player {
    for player in Player::BOTH {
        if grid.connects(player) {
            return player;
        }
    }
    if let Some(&winner) = seen.get(&grid.cells) {
        return winner;
    }
    let mut winner = to_move.opponent();
    for i in 0..grid.cells.len() {
        if grid.cells[i].is_none() {
            grid.cells[i] = Some(to_move);
            let after = perfect_play(grid, to_move.opponent(), seen);
            grid.cells[i] = None;
            if after == to_move {
                winner = to_move;
                break;
            }
        }
    }
    seen.insert(grid.cells.clone(), winner);
    winner
}

/// The grid with each captured cell its captor's (dead cells stay empty).
fn with_captured(position: &Hex, found: &InferiorCells) -> Grid {
    let mut grid = Grid::of(position);
    for (cells, player) in [(&found.black, Player::Black), (&found.white, Player::White)] {
        for &cell in cells {
            let i = index(&grid, cell);
            grid.cells[i] = Some(player);
        }
    }
    grid
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// With the captured cells their captors', every way of filling the rest of the board has
    /// the same winner whatever the colour of each dead cell.
    #[test]
    fn dead_cells_change_no_winner(size in 2u32..=6, empty in 4u32..=11, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty, &mut rng);
        let found = position.inferior_cells();
        let grid = with_captured(&position, &found);
        for &dead in &found.dead {
            let d = index(&grid, dead);
            every_filling(&grid, |filled| {
                let winner = filled.connects(Player::Black);
                filled.cells[d] = filled.cells[d].map(Player::opponent);
                assert_eq!(filled.connects(Player::Black), winner, "{dead} decides\n{position}\n{found:?}");
                filled.cells[d] = filled.cells[d].map(Player::opponent);
            });
        }
    }

    /// The position with every cell the fill-in colours coloured (the captured ones their
    /// captors', the dead ones Black) has the position's winner, by a plain game-tree search
    /// of both: the fill-in changes nothing the players can do.
    #[test]
    fn the_filled_in_position_has_the_same_winner(size in 2u32..=5, empty in 3u32..=10, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty, &mut rng);
        let found = position.inferior_cells();
        let mut grid = Grid::of(&position);
        let winner = perfect_play(&mut grid, position.to_move(), &mut HashMap::new());
        let mut filled = with_captured(&position, &found);
        for &dead in &found.dead {
            let d = index(&filled, dead);
            filled.cells[d] = Some(Player::Black);
        }
        let filled_winner = perfect_play(&mut filled, position.to_move(), &mut HashMap::new());
        prop_assert_eq!(filled_winner, winner, "{}\n{:?}", position, found);
    }

    /// Against the exact solver: a winner by fill-in is the winner, and when the player to
    /// move wins, a move that is neither dead, captured nor dominated (or vulnerable) wins too
    /// (so a search loses nothing by leaving them out).
    #[test]
    fn fill_in_winners_and_pruned_moves_agree_with_the_solver(size in 3u32..=5, empty in 3u32..=14, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty.min(size * size - 1), &mut rng);
        let found = position.inferior_cells();
        let mut solver = Solver::with_table_bytes(1 << 20);
        let winner = solver.winner(&position);
        if let Some(filled) = found.winner {
            prop_assert_eq!(filled, winner, "{}\n{:?}", position, found);
        }
        if winner == position.to_move() && found.winner.is_none() {
            let kept = solver.winning_moves(&position).into_iter().any(|m| match m {
                Move::Place(cell) => !found.contains(cell),
                Move::Swap => true,
            });
            prop_assert!(kept, "every winning move is pruned\n{}\n{:?}", position, found);
        }
    }
}

fn cells(text: &str) -> Vec<Cell> {
    let mut cells: Vec<Cell> = text
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    cells.sort_by_key(|c| (c.row(), c.column()));
    cells
}

#[test]
fn four_stones_in_a_row_around_a_cell_kill_it_for_both_colours() {
    // 7x7: d4's neighbours e4, e3, d3, c4 (four in a row around it) are Black's, c5 and d5
    // empty. Black's stones already join any two cells around d4, and White can use only c5
    // and d5, which touch: d4 is dead.
    let black = Hex::new(7)
        .unwrap()
        .after_moves("e4 a7 e3 g7 d3 g1 c4 a1")
        .unwrap();
    assert!(black.inferior_cells().dead.contains(&"d4".parse().unwrap()));
    // The same with the colours exchanged (the stones mirrored in the long diagonal so that
    // White's edges are where Black's were).
    let white = Hex::new(7)
        .unwrap()
        .after_moves("a1 d5 a7 c5 g7 c4 g1 d3")
        .unwrap();
    assert!(white.inferior_cells().dead.contains(&"d4".parse().unwrap()));
}

#[test]
fn the_cells_between_a_second_row_stone_and_its_edge_are_captured() {
    // Black's c2 on 5x5 reaches the top edge by c1 or d1 (the bridge to the edge): if White
    // takes one, Black takes the other and White's stone is dead. The same for White's b3 and
    // its edge beyond column a (a3, a4).
    // Once those are coloured, the corner a1, b1, a2, b2 is shut in between Black's top group
    // and White's left group, where neither has anything left to gain: captured too (by
    // whichever the fill-in comes to first).
    let position = Hex::new(5).unwrap().after_moves("c2 b3").unwrap();
    let found = position.inferior_cells();
    let has = |set: &[Cell], text: &str| cells(text).iter().all(|c| set.contains(c));
    assert!(has(&found.black, "c1 d1"), "{found:?}");
    assert!(has(&found.white, "a3 a4"), "{found:?}");
    assert!(
        cells("a1 b1 a2 b2").into_iter().all(|c| found.contains(c)),
        "{found:?}"
    );
    assert_eq!(
        found.dead.len() + found.black.len() + found.white.len(),
        8,
        "{found:?}"
    );
    assert_eq!(found.winner, None);
    // An intrusion answered: White's d1 after Black's c1 is dead, and nothing is captured.
    let answered = position.after_moves("d1 c1").unwrap();
    assert!(answered.inferior_cells().black.is_empty());
}

#[test]
fn three_stones_in_a_row_around_a_cell_leave_it_to_neither_player() {
    // 9x9: White's f4, f5 and e6 around e5, with d6 and e4 (the cells on either side of
    // them) empty. Black to move: a White stone on d6 or e4 would leave e5 dead (four in a
    // row), so a Black stone there is answered and wasted (vulnerable). White to move: its own
    // stone on d6 or e4 does all a stone on e5 could (dominated). Neither is dead yet.
    let e5: Cell = "e5".parse().unwrap();
    let black = Hex::new(9)
        .unwrap()
        .after_moves("a9 f4 i1 f5 i9 e6")
        .unwrap();
    let white = black.after_moves("a5").unwrap();
    for position in [black, white] {
        let found = position.inferior_cells();
        assert!(found.dominated.contains(&e5), "{position}\n{found:?}");
        assert!(!found.dead.contains(&e5), "{position}\n{found:?}");
        assert!(found.contains(e5));
    }
    // With two of the three, e5 is a move like any other.
    let two = Hex::new(9).unwrap().after_moves("a9 f4 i1 f5").unwrap();
    assert!(!two.inferior_cells().contains(e5));
}

#[test]
fn an_obtuse_corner_is_dominated_by_its_neighbours() {
    // The obtuse corners a1 and e5 of 5x5 touch both players' edges: a stone on either
    // neighbour of one (b1 or a2 for a1) reaches everything it reaches.
    let position = Hex::new(5).unwrap().after_moves("c3").unwrap();
    let found = position.inferior_cells();
    for corner in cells("a1 e5") {
        assert!(found.dominated.contains(&corner), "{found:?}");
    }
}

#[test]
fn a_stone_that_shuts_cells_in_dominates_them() {
    // 5x5, Black's c3 and White's d2, Black to move. Black's c2 would join c3 to row 1 (c1
    // and d1 captured for it) and shut a2 and a3 in between that group and White's edge, where
    // the fill-in colours them: c2 does all a stone on a2 or a3 could, though it is no
    // neighbour of either. So they are dominated, and c2 is kept (and wins, by the exact
    // solver).
    let position = Hex::new(5).unwrap().after_moves("c3 d2").unwrap();
    let found = position.inferior_cells();
    for cell in cells("a2 a3") {
        assert!(found.dominated.contains(&cell), "{cell}: {found:?}");
    }
    let c2: Cell = "c2".parse().unwrap();
    assert!(!found.contains(c2), "{found:?}");
    let after = position.after(Move::Place(c2));
    assert_eq!(
        Solver::with_table_bytes(1 << 20).winner(&after),
        Player::Black
    );
}

#[test]
fn a_region_a_player_answers_inside_is_captured_whole() {
    // 6x6: White's a1, c1 and c2 wall off b1, a2, b2 and a3 from the board but for a
    // Black stone below (a4) and the empty b3. A Black stone in there is answered in there
    // (on b1 by b2 and the other way round, on a2 by a3 and the other way round): then Black
    // never gets from its top edge to a4 or b3 through them, and White's stones stay joined
    // to its left edge and to b3. Neither pair is captured on its own (each needs the other
    // answered), but the four are White's.
    // Then the same with the board mirrored in its long diagonal and the colours exchanged.
    for (moves, region, captor) in [
        ("a6 c1 c6 c2 d4 f2 a4 a1", "b1 a2 b2 a3", Player::White),
        ("a1 f1 a3 f3 b3 d4 b6 d1", "a2 b1 b2 c1", Player::Black),
    ] {
        let found = Hex::new(6)
            .unwrap()
            .after_moves(moves)
            .unwrap()
            .inferior_cells();
        let captured = match captor {
            Player::Black => &found.black,
            Player::White => &found.white,
        };
        for cell in cells(region) {
            assert!(captured.contains(&cell), "{cell}: {found:?}");
        }
    }
}

#[test]
fn a_board_whose_fill_in_connects_is_won() {
    // 3x3: Black's b2 reaches row 1 by b1 or c1 and row 3 by a3 or b3; both pairs are
    // captured, and coloured Black they connect: Black has won, whoever moves.
    let position = Hex::new(3).unwrap().after_moves("b2").unwrap();
    let found = position.inferior_cells();
    assert_eq!(found.black, cells("b1 c1 a3 b3"), "{found:?}");
    assert_eq!(found.winner, Some(Player::Black));
    // 5x5: Black's c2 and c4, a bridge apart over b4 and c3... and each a bridge from its
    // edge; Black wins, and the solver agrees.
    let position = Hex::new(5).unwrap().after_moves("c2 a1 c4 e5").unwrap();
    let found = position.inferior_cells();
    assert_eq!(
        Solver::with_table_bytes(1 << 20).winner(&position),
        Player::Black
    );
    assert_eq!(
        found.winner, None,
        "the bridge c3-b4... is not a captured pair: {found:?}"
    );
}

#[test]
fn nothing_is_inferior_while_the_swap_is_pending() {
    let position = Hex::with_swap(5).unwrap().after_moves("a2").unwrap();
    assert_eq!(position.inferior_cells(), InferiorCells::default());
    // After the swap, the analysis is back.
    let swapped = position.after_moves("swap").unwrap();
    assert_eq!(swapped.at("b1".parse().unwrap()), Some(Player::White));
    let found = swapped.inferior_cells();
    assert!(
        found.white.contains(&"a1".parse().unwrap()),
        "{swapped}\n{found:?}"
    );
}
