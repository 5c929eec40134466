//! Resigning ([`arena::Resign`]) in played games and in GTP: on a proven loss, below the
//! threshold, never in a won position.

use arena::{GtpEngine, Resign, Resignation, TextGame, play_game_resigning};
use game_core::{Game, Outcome, Player};
use games_hex::Hex;

/// 5x5, White to move: Black's c2 and c4 join each other and the edges whoever moves (the
/// position of `gtp_sessions`' resigning test, checked there by the exact solver).
const LOST_FOR_WHITE: &str = "c2 a1 c4 a2 b3 e1 d3 e2 e5";

fn best(seed: u64) -> Box<dyn search::Agent<Hex> + Send> {
    Hex::agent(&"best:iterations=3000".parse().unwrap(), seed).unwrap()
}

/// A game of `best` against itself from `start`, Black resigning by `rules[0]`, White by
/// `rules[1]`.
fn play_from(start: &Hex, rules: [Resign; 2]) -> arena::GameRecord<Hex> {
    let (mut black, mut white) = (best(1), best(2));
    let budget = search::Budget::iterations(3000);
    play_game_resigning(
        start,
        [&mut *black, &mut *white],
        [&budget, &budget],
        rules,
        |_| {},
    )
}

#[test]
fn a_proven_loss_is_resigned_with_the_winners_connection() {
    let start = Hex::new(5).unwrap().after_moves(LOST_FOR_WHITE).unwrap();
    let record = play_from(&start, [Resign::default(); 2]);
    assert_eq!(record.resigned, Some((Player::White, Resignation::Proven)));
    assert_eq!(record.outcome, Outcome::Win(Player::Black));
    assert!(record.moves.is_empty(), "{:?}", record.moves);
    let said = record.end.resignation(Player::White, &Resignation::Proven);
    assert!(
        said.starts_with("White resigns: its loss is proven (Black connects"),
        "{said}"
    );
}

#[test]
fn a_won_position_is_never_resigned_even_by_a_rule_that_resigns_at_every_move() {
    // Black to move, connected whoever moves. Its rule resigns any move rated under 100%,
    // at once: a proven win is never resigned.
    let start = Hex::new(5)
        .unwrap()
        .after_moves(&format!("{LOST_FOR_WHITE} a3"))
        .unwrap();
    assert_eq!(start.to_move(), Player::Black);
    let eager = Resign {
        proven: true,
        below: 1.0,
        moves: 1,
    };
    let record = play_from(&start, [eager, Resign::NEVER]);
    assert_eq!(record.resigned, None);
    assert_eq!(record.outcome, Outcome::Win(Player::Black));
    assert!(record.end.status().is_over());
}

/// The answer of a GTP engine on 7x7 Hex to `genmove w` after Black's a1 (an open position:
/// no book move, nothing proven), resigning by `rule`.
fn first_genmove(rule: Resign) -> String {
    let spec = "best:iterations=2000".parse().unwrap();
    let mut engine = GtpEngine::new(Hex::new(7).unwrap(), spec, 7)
        .unwrap()
        .with_resign(rule);
    let mut output = Vec::new();
    engine
        .run("play b a1\ngenmove w\nquit\n".as_bytes(), &mut output)
        .unwrap();
    String::from_utf8(output).unwrap()
}

#[test]
fn gtp_resigns_below_its_threshold_only() {
    // No move of an open position is rated 100%: a rule that resigns below it at the first
    // move does, one that never resigns plays, and the default (5%) plays.
    let eager = Resign {
        proven: false,
        below: 1.0,
        moves: 1,
    };
    let answer = first_genmove(eager);
    assert!(answer.starts_with("=\n\n= resign"), "{answer}");
    for rule in [Resign::NEVER, Resign::default()] {
        let answer = first_genmove(rule);
        let cell = answer
            .split("\n\n")
            .nth(1)
            .unwrap()
            .strip_prefix("= ")
            .unwrap();
        assert!(cell.parse::<games_hex::Cell>().is_ok(), "{answer}");
    }
}
