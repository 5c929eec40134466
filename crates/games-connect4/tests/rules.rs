//! The rules of Connect Four: perft, the conformance kit, text, sizes, the test sets.

use game_core::testing::Conformance;
use game_core::{Game, Outcome, PlayError, Player, Status, perft};
use games_connect4::{Column, Connect4, Connect4Large, MoveErrorKind, MovesError};

#[test]
fn perft_of_the_standard_board_matches_the_published_counts() {
    let expected = [7, 49, 343, 2401, 16807, 117_649, 823_536, 5_686_266];
    let start = Connect4::new();
    for (depth, &count) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

#[test]
fn perft_agrees_between_the_64_and_128_bit_boards() {
    for (width, height) in [(7, 6), (6, 7), (8, 7), (4, 4)] {
        let small = Connect4Large::with_size(width, height).unwrap();
        let large = games_connect4::Connect4Board::<u64>::with_size(width, height).unwrap();
        for depth in 1..=5 {
            assert_eq!(
                perft(&small, depth),
                perft(&large, depth),
                "{width}x{height} depth {depth}"
            );
        }
    }
}

#[test]
fn passes_the_conformance_kit_on_many_sizes() {
    Conformance::new().assert(&Connect4::new());
    for (width, height) in [(6, 7), (8, 7), (4, 4), (5, 4), (1, 1), (3, 2)] {
        Conformance::new()
            .cases(16)
            .assert(&games_connect4::Connect4Board::<u64>::with_size(width, height).unwrap());
    }
    for (width, height) in [(9, 7), (10, 10), (7, 6)] {
        Conformance::new()
            .cases(16)
            .assert(&Connect4Large::with_size(width, height).unwrap());
    }
    // From a few mid-game positions of the public test sets too.
    for moves in [
        "2252576253462244111563365343671351441",
        "3642756176227637211",
        "32164625",
    ] {
        Conformance::new()
            .cases(16)
            .assert(&moves.parse::<Connect4>().unwrap());
    }
}

#[test]
fn sizes_that_do_not_fit_are_refused_with_the_reason() {
    let error = Connect4::with_size(9, 7).unwrap_err();
    assert!(error.to_string().contains("Connect4Large"), "{error}");
    assert!(Connect4::with_size(8, 7).is_ok()); // exactly 64 bits
    assert!(Connect4::with_size(0, 6).is_err());
    assert!(Connect4Large::with_size(7, 0).is_err());
    assert!(Connect4Large::with_size(17, 6).is_err());
    assert!(Connect4Large::with_size(11, 11).is_err()); // 132 bits
    assert!(Connect4Large::with_size(9, 7).is_ok());
}

#[test]
fn wins_in_every_direction_end_the_game() {
    for (moves, winner) in [
        ("1212121", Player::Black),         // vertical
        ("1122334", Player::Black),         // horizontal
        ("32244332144", Player::Black),     // diagonal up-right, 1 to 4
        ("721556544447256", Player::Black), // diagonal up-left, 7 to 4
        ("71212121", Player::White),        // vertical, second player
    ] {
        let game: Connect4 = moves.parse().unwrap();
        assert_eq!(
            game.status(),
            Status::Over(Outcome::Win(winner)),
            "{moves}\n{game}"
        );
        assert_eq!(game.num_legal_actions(), 0);
        assert_eq!(game.legal_actions_vec(), []);
        // One move earlier the game was still on.
        let before: Connect4 = moves[..moves.len() - 1].parse().unwrap();
        assert_eq!(before.status(), Status::Ongoing, "{moves}");
    }
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // A random game that filled the board, checked with a separate reference program.
    let game: Connect4 = "442761225377252342545563474175371666631311"
        .parse()
        .unwrap();
    assert_eq!(game.plies(), 42);
    assert_eq!(game.status(), Status::Over(Outcome::Draw), "\n{game}");
}

#[test]
fn bad_move_strings_say_which_move_and_why() {
    let cases: [(&str, usize, MoveErrorKind); 5] = [
        ("44a5", 2, MoveErrorKind::NotAMove),
        (
            "448",
            2,
            MoveErrorKind::OffBoard {
                column: 8,
                width: 7,
            },
        ),
        ("0", 0, MoveErrorKind::NotAMove),
        ("1111111", 6, MoveErrorKind::ColumnFull { column: 1 }),
        ("12121212", 7, MoveErrorKind::GameOver),
    ];
    for (input, index, kind) in cases {
        let error = input.parse::<Connect4>().unwrap_err();
        assert_eq!(
            error,
            MovesError {
                input: input.to_owned(),
                index,
                text: input[index..=index].to_owned(),
                kind
            }
        );
    }
    let message = "448".parse::<Connect4>().unwrap_err().to_string();
    assert_eq!(
        message,
        "move 3 (\"8\") of \"448\": column 8 is off the board, which has 7 columns"
    );
    assert_eq!("".parse::<Connect4>(), Ok(Connect4::new()));
}

#[test]
fn try_play_hands_back_what_it_refuses() {
    let mut game: Connect4 = "111111".parse().unwrap();
    let before = game.clone();
    assert_eq!(
        game.try_play(Column::new(0)),
        Err(PlayError::Illegal(Column::new(0)))
    );
    assert_eq!(
        game.try_play(Column::new(7)),
        Err(PlayError::Illegal(Column::new(7)))
    );
    assert_eq!(game, before);
    assert_eq!(game.try_play(Column::new(6)), Ok(()));
}

#[test]
fn display_draws_the_bottom_row_at_the_bottom() {
    let game = Connect4Large::with_size(9, 2)
        .unwrap()
        .after_moves("19")
        .unwrap();
    assert_eq!(
        game.to_string(),
        ". . . . . . . . .\nx . . . . . . . o\n1 2 3 4 5 6 7 8 9"
    );
}

#[test]
fn equal_positions_hash_equally_and_the_key_is_perfect_on_small_trees() {
    let a: Connect4 = "1234".parse().unwrap();
    let b: Connect4 = "3214".parse().unwrap();
    assert_eq!(a, b);
    assert_eq!(a.position_hash(), b.position_hash());
    // Every position within 6 plies of the start: distinct positions, distinct keys.
    let mut seen = std::collections::HashMap::new();
    let mut frontier = vec![Connect4::new()];
    for _ in 0..6 {
        let mut next = Vec::new();
        for position in &frontier {
            for column in position.legal_actions_vec() {
                let child = position.after(column);
                if let Some(other) = seen.insert(child.position_hash(), child.clone()) {
                    assert_eq!(other, child, "two positions share a key");
                } else {
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    assert!(seen.len() > 10_000);
}

/// Every line of the public test sets parses and replays; the score's range fits the
/// position (its exact value is the solver's test).
#[test]
fn all_6000_test_set_positions_parse_and_replay() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut total = 0;
    for file in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        for (line_number, line) in text.lines().enumerate() {
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(score), None) = (fields.next(), fields.next(), fields.next())
            else {
                panic!("{file}:{}: not `MOVES SCORE`: {line:?}", line_number + 1);
            };
            let position: Connect4 = moves
                .parse()
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", line_number + 1));
            let score: i32 = score.parse().unwrap();
            assert_eq!(position.plies() as usize, moves.len());
            assert_eq!(
                position.status(),
                Status::Ongoing,
                "{file}:{}",
                line_number + 1
            );
            // A position with k stones per side left can score at most 22 - (stones so far + 1).
            let best = 22 - (position.plies() as i32 + 2) / 2;
            assert!(
                score.abs() <= best,
                "{file}:{}: score {score} beyond {best}",
                line_number + 1
            );
            total += 1;
        }
    }
    assert_eq!(total, 6000);
}

/// The fast playout (rejection sampling straight from the bitboard, a loop compiled for 7x6)
/// must give the same outcome frequencies as plain move-by-move uniform random play.
#[test]
fn fast_playouts_have_the_outcome_frequencies_of_uniform_random_play() {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    const GAMES: u32 = 20_000;
    let frequencies = |fast: bool| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(if fast { 1 } else { 2 });
        let mut counts = [0u32; 3];
        for _ in 0..GAMES {
            let mut game = Connect4::new();
            let outcome = if fast {
                game.random_playout(&mut rng).outcome
            } else {
                loop {
                    let actions = game.legal_actions_vec();
                    if actions.is_empty() {
                        break game.status().outcome().unwrap();
                    }
                    game.play(actions[rand::RngExt::random_range(&mut rng, 0..actions.len())]);
                }
            };
            counts[match outcome {
                Outcome::Win(Player::Black) => 0,
                Outcome::Win(Player::White) => 1,
                Outcome::Draw => 2,
            }] += 1;
        }
        counts.map(|c| f64::from(c) / f64::from(GAMES))
    };
    let (fast, plain) = (frequencies(true), frequencies(false));
    // Black wins about 55.6% of random games. Four standard errors of a difference of two
    // independent estimates from 20,000 games each is about 0.02.
    assert!(
        (fast[0] - plain[0]).abs() < 0.02,
        "black wins: fast {fast:?}, plain {plain:?}"
    );
    assert!(
        (fast[1] - plain[1]).abs() < 0.02,
        "white wins: fast {fast:?}, plain {plain:?}"
    );
    assert!((0.53..0.58).contains(&fast[0]), "{fast:?}");
}

#[test]
fn the_knowledge_keeps_its_contract() {
    let knowledge = games_connect4::knowledge();
    Conformance::new()
        .cases(32)
        .check_knowledge(&Connect4::new(), &knowledge)
        .unwrap();
    Conformance::new()
        .cases(8)
        .check_knowledge(&Connect4Large::with_size(9, 7).unwrap(), &knowledge)
        .unwrap();
}
