//! RAVE (`rave:...`): numbered actions, recorded playouts, and the agent on every game.

use game_core::testing::TicTacToe;
use game_core::{Game, Status};
use games_connect4::Connect4;
use games_hex::Hex;
use games_othello::{Othello, Othello6};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search::AgentSpec;

/// Over random games: the legal actions of every position have distinct indices below the
/// action space, and a recorded playout records legal moves, alternating, that replay to the
/// same result (Hex's fill records the whole board, so its moves may go on after the winning
/// connection: the replay stops there).
fn check_numbering_and_recording<G: Game>(start: &G) {
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
            // From some point of the game, a recorded playout.
            if plies == game % 20 {
                let mut moves = Vec::new();
                let mut end = position.clone();
                let playout = end.random_playout_recorded(&mut rng, &mut moves);
                let mut replay = position.clone();
                for &m in &moves {
                    if replay.status().is_over() {
                        break;
                    }
                    assert!(replay.is_legal(m), "{m} in\n{replay}");
                    replay.play(m);
                }
                assert_eq!(replay.status(), Status::Over(playout.outcome));
                break;
            }
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
            plies += 1;
        }
    }
}

#[test]
fn every_game_numbers_its_actions_and_records_playouts() {
    check_numbering_and_recording(&TicTacToe::new());
    check_numbering_and_recording(&Connect4::new());
    check_numbering_and_recording(&Othello::new());
    check_numbering_and_recording(&Othello6::new());
    check_numbering_and_recording(&Hex::new(5).unwrap());
    check_numbering_and_recording(&Hex::with_swap(7).unwrap());
    check_numbering_and_recording(&Hex::new(11).unwrap());
}

fn choose<G: Game + Send + Sync + 'static>(spec: &str, position: &G, seed: u64) -> G::Action {
    let spec: AgentSpec = spec.parse().unwrap();
    spec.build::<G>(seed)
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
        let mut agent = spec.build::<Hex>(1);
        let mut position = Hex::with_swap(5).unwrap();
        while position.status() == Status::Ongoing {
            let action = agent.choose(&position, &spec.budget()).unwrap();
            agent.played(&position, action);
            position.play(action);
        }
        let mut agent = spec.build::<Othello6>(2);
        let mut position = Othello6::new();
        while position.status() == Status::Ongoing {
            let action = agent.choose(&position, &spec.budget()).unwrap();
            agent.played(&position, action);
            position.play(action);
        }
    }
}
