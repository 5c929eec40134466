//! The rules of Othello: perft, the conformance kit, passes, the end, text.

use game_core::testing::Conformance;
use game_core::{Game, Outcome, PlayError, Player, Scored, Status, perft};
use games_othello::{Move, MoveErrorKind, Othello, Othello6, Square};

/// Published leaf counts of the 8x8 tree, passes counted as plies.
const PERFT_8: [u64; 10] = [
    4, 12, 56, 244, 1396, 8200, 55_092, 390_216, 3_005_288, 24_571_284,
];

#[test]
fn perft_of_the_standard_board_matches_the_published_counts() {
    // Depth 10 visits 3 million positions: a couple of seconds in a debug build.
    for (depth, &count) in (1..).zip(&PERFT_8) {
        assert_eq!(perft(&Othello::new(), depth), count, "depth {depth}");
    }
}

#[test]
fn perft_of_six_by_six_starts_like_eight_by_eight() {
    // The first plies cannot reach an edge of either board, so the counts agree.
    for depth in 1..=4 {
        assert_eq!(
            perft(&Othello6::new(), depth),
            PERFT_8[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn passes_the_conformance_kit_on_both_sizes() {
    Conformance::new().assert(&Othello::new());
    Conformance::new().assert(&Othello6::new());
}

#[test]
fn a_player_without_moves_must_pass_and_the_game_ends_when_neither_can_move() {
    // Row 1 is `X O - ...`: White, to move, cannot play anywhere; Black can, on c1.
    let position: Othello = "XO------\
                             --------\
                             --------\
                             --------\
                             --------\
                             --------\
                             --------\
                             -------- O"
        .parse()
        .unwrap();
    assert_eq!(position.status(), Status::Ongoing);
    assert_eq!(position.legal_actions_vec(), [Move::Pass]);
    assert_eq!(position.num_legal_actions(), 1);
    assert!(!position.is_legal(Move::Place("c1".parse().unwrap())));
    let after_pass = position.after(Move::Pass);
    assert_eq!(after_pass.to_move(), Player::Black);
    assert_eq!(
        after_pass.legal_actions_vec(),
        [Move::Place("c1".parse().unwrap())]
    );
    assert!(!after_pass.is_legal(Move::Pass));
    let end = after_pass.after(Move::Place("c1".parse().unwrap()));
    assert_eq!(end.status(), Status::Over(Outcome::Win(Player::Black)));
    assert_eq!(end.legal_actions_vec(), []);
    assert_eq!(end.score_margin(Player::Black), 3);
    assert_eq!(end.score_margin(Player::White), -3);
}

#[test]
fn equal_discs_is_a_draw() {
    let position: Othello6 = "XXXOOO\
                              XXXOOO\
                              XXXOOO\
                              XXXOOO\
                              XXXOOO\
                              XXXOOO X"
        .parse()
        .unwrap();
    assert_eq!(position.status(), Status::Over(Outcome::Draw));
}

#[test]
fn move_lists_parse_with_forced_passes_left_out() {
    let game = Othello::new().after_moves("f5d6c3d3c4").unwrap();
    assert_eq!(game.discs(Player::Black) + game.discs(Player::White), 9);
    assert_eq!(game.plies(), 5);
    assert_eq!(game, Othello::new().after_moves("F5 D6 c3 d3 C4").unwrap());
    // The shortest game: black wipes out white after 9 moves.
    let wipeout = Othello::new().after_moves("e6f4e3f6g5d6e7f5c5").unwrap();
    assert_eq!(wipeout.status(), Status::Over(Outcome::Win(Player::Black)));
    assert_eq!(wipeout.discs(Player::White), 0);
}

#[test]
fn bad_move_lists_say_which_move_and_why() {
    let cases = [
        ("d3z9", 1, "z9", MoveErrorKind::NotAMove),
        (
            "d3 d3",
            1,
            "d3",
            MoveErrorKind::Illegal(Move::Place(Square::new(3, 2))),
        ),
        ("pass", 0, "pass", MoveErrorKind::Illegal(Move::Pass)),
        ("e6f4e3f6g5d6e7f5c5a1", 9, "a1", MoveErrorKind::GameOver),
        ("d", 0, "d", MoveErrorKind::NotAMove),
    ];
    for (input, index, text, kind) in cases {
        let error = Othello::new().after_moves(input).unwrap_err();
        assert_eq!(
            (error.index, error.text.as_str(), error.kind),
            (index, text, kind),
            "{input}"
        );
    }
    let error = Othello6::new().after_moves("g7").unwrap_err();
    assert_eq!(error.kind, MoveErrorKind::OffBoard(Square::new(6, 6)));
    assert_eq!(
        error.to_string(),
        "move 1 (\"g7\") of \"g7\": g7 is off this board"
    );
}

#[test]
fn board_strings_round_trip_and_bad_ones_are_explained() {
    let position = Othello::new().after_moves("f5d6c3d3c4f4").unwrap();
    let text = position.to_board_string();
    assert_eq!(text.parse::<Othello>().unwrap(), position);
    for (bad, reason) in [
        ("X", "only 1 cells, expected 64"),
        (&"-".repeat(64), "the player to move (X or O) is missing"),
        (
            &format!("{} Z", "-".repeat(64)),
            "the player to move is 'Z'",
        ),
        (
            &format!("{}q{} X", "-".repeat(10), "-".repeat(53)),
            "cell 11 (c2) is 'q'",
        ),
    ] {
        let error = bad.parse::<Othello>().unwrap_err();
        assert!(error.reason.starts_with(reason), "{bad}: {error}");
    }
}

#[test]
fn try_play_refuses_and_hands_back() {
    let mut game = Othello::new();
    let a1 = Move::Place(Square::new(0, 0));
    assert_eq!(game.try_play(a1), Err(PlayError::Illegal(a1)));
    assert_eq!(
        game.try_play(Move::Pass),
        Err(PlayError::Illegal(Move::Pass))
    );
    assert_eq!(game, Othello::new());
}

#[test]
fn the_knowledge_keeps_its_contract() {
    let knowledge = games_othello::knowledge();
    Conformance::new()
        .cases(16)
        .check_knowledge(&Othello::new(), &knowledge)
        .unwrap();
    Conformance::new()
        .cases(16)
        .check_knowledge(&Othello6::new(), &knowledge)
        .unwrap();
}
