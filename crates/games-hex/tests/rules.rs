//! The rules of Hex: perft, the conformance kit, the swap, text.

use game_core::testing::Conformance;
use game_core::{Game, Outcome, PlayError, Player, Status, perft};
use games_hex::{Cell, Hex, Move, MoveErrorKind, SizeError};

#[test]
fn perft_of_11x11_matches_the_published_counts() {
    let start = Hex::new(11).unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [121, 14_520, 1_727_880]);
    // With the swap rule White has one more first move.
    let swap = Hex::with_swap(11).unwrap();
    assert_eq!(perft(&swap, 2), 121 * 121);
    assert_eq!(perft(&swap, 3), 121 * 120 * 119 + 121 * 120);
}

#[test]
fn passes_the_conformance_kit_on_many_sizes_with_and_without_swap() {
    for size in [1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 14, 19] {
        let cases = if size > 11 { 4 } else { 16 };
        Conformance::new()
            .cases(cases)
            .assert(&Hex::new(size).unwrap());
        Conformance::new()
            .cases(cases)
            .assert(&Hex::with_swap(size).unwrap());
    }
}

#[test]
fn sizes_outside_1_to_19_are_refused() {
    assert_eq!(Hex::new(0), Err(SizeError(0)));
    assert_eq!(Hex::new(20), Err(SizeError(20)));
    assert_eq!(
        Hex::new(200).unwrap_err().to_string(),
        "Hex boards are 1x1 to 19x19, not 200x200"
    );
    for size in 1..=19 {
        let hex = Hex::new(size).unwrap();
        assert_eq!(hex.size(), size);
        assert_eq!(hex.num_legal_actions(), usize::from(size).pow(2));
    }
}

#[test]
fn black_connects_top_to_bottom_and_white_left_to_right() {
    // Black down column a; White along row 1 from b1 cannot reach column a (Black holds a1).
    let black = Hex::new(4)
        .unwrap()
        .after_moves("a1 b1 a2 b2 a3 b3 a4")
        .unwrap();
    assert_eq!(black.status(), Status::Over(Outcome::Win(Player::Black)));
    // White across row 2 while Black wanders.
    let white = Hex::new(3)
        .unwrap()
        .after_moves("a1 a2 c1 b2 a3 c2")
        .unwrap();
    assert_eq!(white.status(), Status::Over(Outcome::Win(Player::White)));
    // The diagonal neighbour (x+1, y-1) connects: c1-b2-a3 is a chain for Black? No: Black
    // needs row 1 to row 3; c1, b2, a3 touch in a line.
    let diagonal = Hex::new(3).unwrap().after_moves("c1 a1 b2 b1 a3").unwrap();
    assert_eq!(diagonal.status(), Status::Over(Outcome::Win(Player::Black)));
    // The other diagonal (x+1, y+1) does not touch: a1, b2, c3 is no chain.
    let apart = Hex::new(3).unwrap().after_moves("a1 b1 b2 c2 c3").unwrap();
    assert_eq!(apart.status(), Status::Ongoing);
    // 1x1: the first stone wins.
    assert_eq!(
        Hex::new(1).unwrap().after_moves("a1").unwrap().status(),
        Status::Over(Outcome::Win(Player::Black))
    );
}

#[test]
fn the_swap_mirrors_the_first_stone_and_passes_the_turn() {
    let game = Hex::with_swap(5).unwrap().after_moves("b4").unwrap();
    assert!(game.legal_actions_vec().contains(&Move::Swap));
    let swapped = game.after(Move::Swap);
    assert_eq!(swapped.at("b4".parse().unwrap()), None);
    assert_eq!(swapped.at("d2".parse().unwrap()), Some(Player::White));
    assert_eq!(swapped.to_move(), Player::Black);
    assert_eq!(swapped.plies(), 2);
    assert!(!swapped.legal_actions_vec().contains(&Move::Swap));
    // Not without the rule, not at other times.
    let no_rule = Hex::new(5).unwrap().after_moves("b4").unwrap();
    assert_eq!(
        no_rule.check(Move::Swap),
        Err(MoveErrorKind::SwapNotAllowed)
    );
    assert_eq!(
        Hex::with_swap(5).unwrap().check(Move::Swap),
        Err(MoveErrorKind::SwapNotAllowed)
    );
    let later = Hex::with_swap(5).unwrap().after_moves("b4 c3");
    assert_eq!(
        later.unwrap().check(Move::Swap),
        Err(MoveErrorKind::SwapNotAllowed)
    );
    let mut copy = no_rule.clone();
    assert_eq!(
        copy.try_play(Move::Swap),
        Err(PlayError::Illegal(Move::Swap))
    );
    assert_eq!(copy, no_rule);
}

#[test]
fn bad_moves_say_which_and_why() {
    let game = Hex::new(5).unwrap();
    let cases = [
        ("a1 a1", 1, "a1", MoveErrorKind::Occupied(Cell::new(0, 0))),
        (
            "a1 f1",
            1,
            "f1",
            MoveErrorKind::OffBoard {
                cell: Cell::new(5, 0),
                size: 5,
            },
        ),
        (
            "a1 a6",
            1,
            "a6",
            MoveErrorKind::OffBoard {
                cell: Cell::new(0, 5),
                size: 5,
            },
        ),
        ("swap", 0, "swap", MoveErrorKind::SwapNotAllowed),
        ("a1 ?", 1, "?", MoveErrorKind::NotAMove),
        ("a0", 0, "a0", MoveErrorKind::NotAMove),
    ];
    for (input, index, text, kind) in cases {
        let error = game.after_moves(input).unwrap_err();
        assert_eq!(
            (error.index, error.text.as_str(), error.kind),
            (index, text, kind),
            "{input}"
        );
    }
    let over = Hex::new(2).unwrap().after_moves("a1 b1 a2").unwrap();
    assert_eq!(over.status(), Status::Over(Outcome::Win(Player::Black)));
    assert_eq!(
        over.after_moves("b2").unwrap_err().kind,
        MoveErrorKind::GameOver
    );
    assert_eq!(
        game.after_moves("a1 a1").unwrap_err().to_string(),
        "move 2 (\"a1\") of \"a1 a1\": a1 is occupied"
    );
    // Separators are optional, case does not matter.
    assert_eq!(
        game.after_moves("A1B2,c3").unwrap(),
        game.after_moves("a1 b2 c3").unwrap()
    );
}

#[test]
fn moves_print_as_hex_programs_write_them() {
    for text in ["a1", "k11", "s19", "swap-pieces"] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    assert_eq!("SWAP".parse::<Move>(), Ok(Move::Swap));
    for bad in ["", "a", "1a", "t1", "a20", "a01", "aa1"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}

#[test]
fn the_board_is_drawn_as_a_rhombus() {
    let game = Hex::new(11).unwrap().after_moves("f6 k1").unwrap();
    let text = game.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(lines[0], "   a b c d e f g h i j k");
    assert_eq!(lines[1], " 1 . . . . . . . . . . O 1");
    assert_eq!(lines[6], "      6 . . . . . X . . . . . 6");
    assert_eq!(lines[11], "          11 . . . . . . . . . . . 11");
    assert_eq!(lines[12], "             a b c d e f g h i j k");
}
