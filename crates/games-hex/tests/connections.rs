//! Virtual connections (`Hex::proven_moves`, H-search) against the exact solver on small
//! boards, on hand-made positions (edge templates, must-play regions) of both colours, and in
//! the search (`Shape`'s `examine`).

use game_core::{
    Game, Outcome, Player, Status,
    knowledge::{Examination, Prior, Verdict},
};
use games_hex::{Cell, Hex, Move, ProvenMoves, Shape, Solver};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::random_position;

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every move H-search calls a win wins, and every move it calls a loss loses, by the
    /// exact solver, on 3x3 to 6x6 positions with up to 14 empty cells.
    #[test]
    fn proven_moves_agree_with_the_solver(size in 3u32..=9, empty in 3u32..=14, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty.min(size * size - 1), &mut rng);
        let proven = position.proven_moves();
        let mover = position.to_move();
        let mut solver = Solver::with_table_bytes(1 << 16);
        for (cells, winner) in [(&proven.winning, mover), (&proven.losing, mover.opponent())] {
            for &cell in cells {
                let after = position.after(Move::Place(cell));
                prop_assert_eq!(
                    solver.winner(&after), winner,
                    "{} after {}: H-search says {:?} wins\n{}\n{:?}", mover, cell, winner, position, proven
                );
            }
        }
        // The two lists never share a cell.
        prop_assert!(proven.winning.iter().all(|c| !proven.losing.contains(c)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// A player `Hex::connection` calls connected wins by the exact solver, whoever is to
    /// move; its cells are empty; both players are never connected at once.
    #[test]
    fn connections_agree_with_the_solver(size in 3u32..=9, empty in 3u32..=14, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty.min(size * size - 1), &mut rng);
        let found = [Player::Black, Player::White].map(|p| position.connection(p));
        prop_assert!(found[0].is_none() || found[1].is_none(), "{}", position);
        for connection in found.into_iter().flatten() {
            let winner = Solver::with_table_bytes(1 << 16).winner(&position);
            prop_assert_eq!(winner, connection.player, "{}\n{:?}", position, connection);
            prop_assert!(connection.cells.iter().all(|&c| position.at(c).is_none()));
            let said = match connection.player {
                Player::Black => "Black connects",
                Player::White => "White connects",
            };
            prop_assert!(connection.to_string().starts_with(said), "{}", connection);
        }
    }
}

/// The property above is not vacuous: random 5x5 to 7x7 positions with 6 to 12 empty cells
/// are often decided, and `connection` says so for most of those the solver decides against
/// the mover.
#[test]
fn connections_are_found_in_decided_positions() {
    let (mut found, mut lost) = (0, 0);
    for seed in 0..200 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let size = 5 + (seed % 3) as u32;
        let position = random_position(size, 6 + (seed % 7) as u32, &mut rng);
        let mover = position.to_move();
        if Solver::with_table_bytes(1 << 16).winner(&position) != mover {
            lost += 1;
            found += u32::from(position.connection(mover.opponent()).is_some());
        }
    }
    assert!(
        lost > 40 && 2 * found > lost,
        "{found} connections in {lost} lost positions"
    );
}

/// Plays `position` to the end, the mover (connected whoever moves) choosing by `choose` from
/// what the connections prove, the opponent at random (`seed`); returns the winner and the
/// mover's moves.
fn play_won_game(
    mut position: Hex,
    seed: u64,
    choose: impl Fn(&ProvenMoves) -> Option<Cell>,
) -> (Player, u32) {
    let mover = position.to_move();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = 0;
    while !position.status().is_over() {
        let action = if position.to_move() == mover {
            moves += 1;
            let cell = choose(&position.proven_moves());
            Move::Place(cell.unwrap_or_else(|| panic!("nothing proven to play in\n{position}")))
        } else {
            position.random_action(&mut rng).unwrap()
        };
        position.play(action);
    }
    match position.status() {
        Status::Over(Outcome::Win(winner)) => (winner, moves),
        _ => unreachable!("Hex has no draws"),
    }
}

/// A player connected whoever moves wins by playing its finishing moves (a proven winning
/// move when a reply broke its connection) against random replies, in far fewer moves than
/// by playing any of its winning moves (all of them, while it is connected): the first
/// empty cell, as a search whose playouts all win is as likely to.
#[test]
fn finishing_moves_end_a_won_game_sooner_than_any_winning_moves() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let (mut finishing, mut any, mut games) = (0, 0, 0);
    while games < 200 {
        let size = rng.random_range(5..=9);
        let position = random_position(size, rng.random_range(10..=30), &mut rng);
        let proven = position.proven_moves();
        if proven.finishing.is_empty() {
            continue;
        }
        assert!(proven.finishing.iter().all(|c| proven.winning.contains(c)));
        let mover = position.to_move();
        let seed = rng.random();
        let (winner, moves) = play_won_game(position.clone(), seed, |proven| {
            proven.finishing.first().or(proven.winning.first()).copied()
        });
        assert_eq!(winner, mover, "{position}");
        finishing += moves;
        let (winner, moves) =
            play_won_game(position, seed, |proven| proven.winning.first().copied());
        assert_eq!(winner, mover);
        any += moves;
        games += 1;
    }
    assert!(
        2 * finishing < any,
        "{finishing} moves to close 200 won games, {any} by any winning move"
    );
}

/// How often H-search decides something on positions where the solver knows the answer: it
/// must find the win in a good share of won 5x5 positions (so the property above is not
/// passing on empty lists).
#[test]
fn proven_moves_find_most_wins_on_5x5() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut solver = Solver::with_table_bytes(1 << 18);
    let (mut decided, mut lost_found, mut total) = (0, 0, 0);
    for _ in 0..300 {
        let position = random_position(5, 12, &mut rng);
        let proven = position.proven_moves();
        total += 1;
        if !proven.winning.is_empty() || !proven.losing.is_empty() {
            decided += 1;
        }
        if !proven.losing.is_empty() {
            lost_found += 1;
        }
        let _ = solver.winner(&position);
    }
    assert!(
        decided * 2 > total,
        "H-search decided some move in only {decided} of {total} positions"
    );
    assert!(
        lost_found * 4 > total,
        "losing moves in only {lost_found} of {total}"
    );
}

#[test]
fn the_bridge_template_and_a_chain_of_them_win() {
    // Black (rows 1 to 5): c2 and c4 each join an edge by the two cells between them and it;
    // c3 joins the two.
    let position = Hex::new(5).unwrap().after_moves("c2 a1 c4 a2").unwrap();
    let proven = position.proven_moves();
    assert!(
        proven.winning.contains(&"c3".parse().unwrap()),
        "{proven:?}"
    );
    // With b3 and d3 Black, c2 and c4 are joined by a bridge of bridges: a full connection,
    // every move wins.
    let position = Hex::new(5)
        .unwrap()
        .after_moves("c2 a1 c4 a2 b3 e1 d3 e2")
        .unwrap();
    let proven = position.proven_moves();
    assert_eq!(proven.winning.len(), position.legal_actions_vec().len());
    // The moves that close it: one of c1 and d1 (the top template), one of c3, d2 and b4
    // (between the chains), one of b5 and c5 (the bottom template), or the shortest way round
    // by a4 and a5; not e5, d4 or the other cells no shortest chain of the carrier uses.
    assert_eq!(proven.finishing, cells("c1 d1 d2 c3 a4 b4 a5 b5 c5"));
}

#[test]
fn white_sees_the_same_on_the_transposed_board() {
    // The first test's position with colours and axes exchanged: White (columns a to e).
    let position = Hex::new(5).unwrap().after_moves("a1 b3 a2 d3").unwrap();
    assert_eq!(position.to_move(), Player::Black);
    let white = position.after(Move::Place("e5".parse().unwrap()));
    let proven = white.proven_moves();
    assert!(
        proven.winning.contains(&"c3".parse().unwrap()),
        "{proven:?}"
    );
}

#[test]
fn the_ziggurat_is_found() {
    // Template IIIa: a stone on the third row joins the edge over 8 cells. 7x7, Black to
    // move: d3 reaches row 1 by a ziggurat, d5 row 7 by one, and d4 joins them (White's a4
    // and a5 are out of the way).
    let position = Hex::new(7).unwrap().after_moves("d3 a4 d5 a5").unwrap();
    let proven = position.proven_moves();
    assert!(
        proven.winning.contains(&"d4".parse().unwrap()),
        "{proven:?}"
    );
    // With White's stones on the bottom row where both of d5's ziggurats lie, d4 no longer
    // wins at once (the solver-checked property test covers what H-search says then).
    let blocked = Hex::new(7).unwrap().after_moves("d3 a7 d5 b7").unwrap();
    assert!(
        !blocked
            .proven_moves()
            .winning
            .contains(&"d4".parse().unwrap())
    );
}

#[test]
fn a_threat_leaves_only_its_carrier_to_play() {
    // 7x7, White to move: Black's d3 and d5 each reach their edge by a ziggurat and threaten
    // to join at d4 or round the other side (White's e3 blocks one way round). White's moves
    // outside the cells all of Black's semi-connections need lose: the corners and the far
    // columns. (MoHex 2.0's solver, `dfpn-solve-state`: White wins after d4 and loses after
    // a1, c3 and g7. Without e3, H-search proves every White move lost; the solver agrees
    // on d4.)
    let position = Hex::new(7).unwrap().after_moves("d3 e3 d5").unwrap();
    assert_eq!(position.to_move(), Player::White);
    let proven = position.proven_moves();
    assert!(proven.winning.is_empty());
    assert!(
        !proven.losing.contains(&"d4".parse().unwrap()),
        "{proven:?}"
    );
    for cell in cells("a1 g1 a7 g7 a2 b5 g4") {
        assert!(proven.losing.contains(&cell), "{cell}: {proven:?}");
    }
    // The must-play region is small: most of the board loses.
    assert!(proven.losing.len() > 30, "{proven:?}");
    let whole = Hex::new(7).unwrap().after_moves("d3 a4 d5").unwrap();
    let proven = whole.proven_moves();
    assert_eq!(proven.losing.len(), whole.legal_actions_vec().len());
}

#[test]
fn the_fill_in_can_leave_a_single_winning_cell() {
    // 5x5, White to move: once the dead and captured cells are coloured only c3 is left
    // open, and it joins White's d3 to b4's side. The exact solver agrees.
    let position = Hex::new(5).unwrap().after_moves("c2 b4 c4 d3 a1").unwrap();
    let proven = position.proven_moves();
    assert_eq!(proven.winning, cells("c3"));
    let winning = Solver::with_table_bytes(1 << 18).winning_moves(&position);
    assert!(winning.contains(&Move::Place("c3".parse().unwrap())));
}

#[test]
fn nothing_is_proven_before_the_swap_is_decided() {
    let position = Hex::with_swap(5).unwrap().after_moves("c3").unwrap();
    assert_eq!(position.proven_moves(), Default::default());
    let mut found = Examination::default();
    Shape::default().examine(&position, &position.legal_actions_vec(), &mut found);
    assert_eq!(found, Examination::default());
}

#[test]
fn the_prior_examines_with_one_verdict_per_move() {
    let position = Hex::new(5).unwrap().after_moves("c2 b4 c4 d3 a1").unwrap();
    let actions = position.legal_actions_vec();
    let mut found = Examination::default();
    Shape::default().examine(&position, &actions, &mut found);
    assert_eq!(found.verdicts.len(), actions.len());
    let proven = position.proven_moves();
    for (action, verdict) in actions.iter().zip(&found.verdicts) {
        let Move::Place(cell) = action else {
            unreachable!()
        };
        let won = if proven.finishing.is_empty() {
            &proven.winning
        } else {
            &proven.finishing
        };
        let expected = if proven.losing.contains(cell) {
            Verdict::Loss
        } else if won.contains(cell) {
            Verdict::Win
        } else {
            Verdict::Unknown
        };
        assert_eq!(*verdict, expected, "{cell}");
    }
}

#[test]
fn a_broken_bridge_is_restored_by_its_other_cell() {
    // 9x9, White to move: Black's e4 and f5 make a bridge over e5 and f4. A White stone on
    // either breaks every full connection of the two stones; the other restores it.
    let position = Hex::new(9).unwrap().after_moves("e4 a9 f5").unwrap();
    let restoring = position.proven_moves().restoring;
    let pair = |a: &str, b: &str| (a.parse::<Cell>().unwrap(), b.parse::<Cell>().unwrap());
    assert!(restoring.contains(&pair("e5", "f4")), "{restoring:?}");
    assert!(restoring.contains(&pair("f4", "e5")), "{restoring:?}");
    // A cell far from both has no reply.
    assert!(
        !restoring
            .iter()
            .any(|(cell, _)| *cell == "a1".parse().unwrap())
    );
    // The prior hands them to the search, as moves.
    let actions = position.legal_actions_vec();
    let mut found = Examination::default();
    Shape::default().examine(&position, &actions, &mut found);
    let place = |(a, b): (Cell, Cell)| (Move::Place(a), Move::Place(b));
    let advised: Vec<_> = restoring.iter().copied().map(place).collect();
    assert_eq!(found.replies, advised);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Restoring replies answer moves that are not proven won or lost, and are legal after
    /// them.
    #[test]
    fn restoring_replies_are_legal_answers(size in 3u32..=7, empty in 4u32..=20, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let position = random_position(size, empty.min(size * size - 1), &mut rng);
        let proven = position.proven_moves();
        for &(cell, reply) in &proven.restoring {
            prop_assert!(!proven.losing.contains(&cell) && !proven.winning.contains(&cell));
            let after = position.after(Move::Place(cell));
            prop_assert!(after.is_legal(Move::Place(reply)), "{cell} {reply}");
        }
    }
}
