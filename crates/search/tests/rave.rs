//! RAVE (`rave:...`): numbered actions, marked playouts, and the agent on every game.

use game_core::testing::TicTacToe;
use game_core::{Game, PlayedActions, Player, Status};
use games_connect4::{Connect4, Connect4Board, Connect4Large};
use games_hex::{Cell, Hex, Move};
use games_othello::{Othello, Othello6};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search::AgentSpec;

/// Over random games: the legal actions of every position have distinct indices below the
/// action space, and from some point of each game a marked playout ends the game and marks,
/// for each player, what `check` says that player played.
fn check_numbering_and_marking<G: Game>(start: &G, check: impl Fn(&G, &G, u64, &PlayedActions)) {
    let space = start.action_space().expect("numbered actions");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for game in 0..50 {
        let mut position = start.clone();
        let mut plies = 0;
        while position.status() == Status::Ongoing {
            let actions = position.legal_actions_vec();
            let mut indices: Vec<usize> =
                actions.iter().map(|&a| position.action_index(a)).collect();
            assert!(indices.iter().all(|&i| i < space));
            indices.sort_unstable();
            indices.dedup();
            assert_eq!(indices.len(), actions.len(), "distinct indices");
            if plies == game % 20 {
                let mut played = PlayedActions::default();
                played.clear(space);
                let mut end = position.clone();
                let seed = game;
                let mut playout_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let playout = end.random_playout_marked(&mut playout_rng, &mut played);
                assert_eq!(end.status(), Status::Over(playout.outcome));
                check(&position, &end, seed, &played);
                break;
            }
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
            plies += 1;
        }
    }
}

/// The playout move by move, as the default `random_playout_marked` plays it from `seed`: each
/// action marked for the player who plays it.
fn marked_move_by_move<G: Game>(from: &G, seed: u64) -> PlayedActions {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut played = PlayedActions::default();
    played.clear(from.action_space().unwrap());
    let mut position = from.clone();
    while let Some(action) = position.random_action(&mut rng) {
        played.insert(position.to_move(), position.action_index(action));
        position.play(action);
    }
    played
}

/// Hex fills the board: each player's marks are the cells it holds at the end that were
/// empty when the fill began (after the swap, if the playout began with it; the swap is then
/// marked for the player who swapped).
fn check_hex_fill(from: &Hex, end: &Hex, _seed: u64, played: &PlayedActions) {
    let swap = from.action_index(Move::Swap);
    let swapped = played.contains(from.to_move(), swap);
    assert!(!played.contains(from.to_move().opponent(), swap));
    assert!(
        !swapped || from.is_legal(Move::Swap),
        "a swap marked where none is legal"
    );
    let fill_start = if swapped {
        from.after(Move::Swap)
    } else {
        from.clone()
    };
    let n = from.size();
    for row in 0..n {
        for column in 0..n {
            let cell = Cell::new(column, row);
            let index = from.action_index(Move::Place(cell));
            for player in Player::BOTH {
                let filled = fill_start.at(cell).is_none() && end.at(cell) == Some(player);
                assert_eq!(
                    played.contains(player, index),
                    filled,
                    "{cell} for {player:?}"
                );
            }
        }
    }
}

/// Connect Four's playout drops stones at random: each player's marks are the columns that
/// hold a stone of theirs at the end that was not there at the start.
fn check_connect4_columns<B: games_connect4::Bits>(
    from: &Connect4Board<B>,
    end: &Connect4Board<B>,
    _seed: u64,
    played: &PlayedActions,
) {
    for column in 0..from.width() {
        for player in Player::BOTH {
            let dropped = (0..from.height())
                .any(|row| from.at(column, row).is_none() && end.at(column, row) == Some(player));
            let index = usize::from(column);
            assert_eq!(
                played.contains(player, index),
                dropped,
                "column {column}, {player:?}"
            );
        }
    }
}

#[test]
fn every_game_numbers_its_actions_and_marks_playouts() {
    fn same_as_move_by_move<G: Game>(from: &G, _end: &G, seed: u64, played: &PlayedActions) {
        assert_eq!(*played, marked_move_by_move(from, seed));
    }
    check_numbering_and_marking(&TicTacToe::new(), same_as_move_by_move);
    check_numbering_and_marking(&Connect4::new(), check_connect4_columns);
    check_numbering_and_marking(
        &Connect4Large::with_size(9, 7).unwrap(),
        check_connect4_columns,
    );
    check_numbering_and_marking(&Othello::new(), same_as_move_by_move);
    check_numbering_and_marking(&Othello6::new(), same_as_move_by_move);
    check_numbering_and_marking(&Hex::new(5).unwrap(), check_hex_fill);
    check_numbering_and_marking(&Hex::with_swap(7).unwrap(), check_hex_fill);
    check_numbering_and_marking(&Hex::new(11).unwrap(), check_hex_fill);
}

fn choose<G: Game + Send + Sync + 'static>(spec: &str, position: &G, seed: u64) -> G::Action {
    let spec: AgentSpec = spec.parse().unwrap();
    spec.build::<G>(seed)
        .unwrap()
        .choose(position, &spec.budget())
        .unwrap()
}

#[test]
fn rave_takes_wins_and_blocks_losses() {
    for seed in 0..3 {
        let win: Connect4 = "414141".parse().unwrap();
        assert_eq!(
            choose("rave:iterations=3000", &win, seed),
            "4".parse().unwrap()
        );
        let block: Connect4 = "213161".parse().unwrap();
        assert_eq!(
            choose("rave:iterations=3000", &block, seed),
            "1".parse().unwrap()
        );
        let ttt: TicTacToe = "xx.\noo.\n...".parse().unwrap();
        assert_eq!(
            choose("rave:iterations=3000", &ttt, seed),
            "c1".parse().unwrap()
        );
    }
}

#[test]
fn rave_specs() {
    let spec: AgentSpec = "rave:iterations=100,k=1000".parse().unwrap();
    assert_eq!(spec.name(), "rave");
    assert!("rave:k=0".parse::<AgentSpec>().is_err());
    assert!("uct:k=10".parse::<AgentSpec>().is_err(), "k is RAVE's");
    let grave: AgentSpec = "grave:ref=10,k=100".parse().unwrap();
    assert_eq!(grave.name(), "grave");
    assert!("grave:ref=0".parse::<AgentSpec>().is_err());
    assert!(
        "rave:ref=10".parse::<AgentSpec>().is_err(),
        "ref is GRAVE's"
    );
    // Tree reuse keeps the AMAF statistics in step with the nodes: whole games with reuse and
    // threads, on Hex with the swap rule and on Othello (passes), play legal moves to the end.
    for text in [
        "rave:iterations=2000,threads=2",
        "grave:iterations=2000,ref=30",
        "grave:iterations=2000,ref=30,threads=2,parallel=tree",
    ] {
        let spec: AgentSpec = text.parse().unwrap();
        let mut agent = spec.build::<Hex>(1).unwrap();
        let mut position = Hex::with_swap(5).unwrap();
        while position.status() == Status::Ongoing {
            let action = agent.choose(&position, &spec.budget()).unwrap();
            agent.played(&position, action);
            position.play(action);
        }
        let mut agent = spec.build::<Othello6>(2).unwrap();
        let mut position = Othello6::new();
        while position.status() == Status::Ongoing {
            let action = agent.choose(&position, &spec.budget()).unwrap();
            agent.played(&position, action);
            position.play(action);
        }
    }
}
