//! The games' exact solvers, through `game_core::solve::Solve`, against the brute-force `Prover` and
//! the published scores; and the `solver` agent built from a spec.

use std::time::{Duration, Instant};

use game_core::{
    Game, Status, Wdl,
    solve::{Proven, Solve},
};
use games_connect4::Connect4;
use games_hex::Hex;
use games_othello::{Endgame, Othello, Othello6};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search::{Agent, AgentSpec, Budget, Prover};

/// Random positions of `start`'s game after `plies` random moves (ongoing ones only).
fn random_positions<G: Game>(start: &G, plies: u32, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut position = start.clone();
        for _ in 0..plies {
            if position.status().is_over() {
                break;
            }
            let action = position.random_action(&mut rng).unwrap();
            position.play(action);
        }
        if !position.status().is_over() {
            positions.push(position);
        }
    }
    positions
}

/// Checks `solver`'s values against the prover's, and its best move's value against the
/// position's: the outcome always, the plies where both count them.
fn agrees_with_the_prover<G, S>(solver: &mut S, positions: &[G], plies: bool)
where
    G: Game + std::fmt::Display,
    S: Solve<G>,
{
    for position in positions {
        let mut prover = Prover::<G>::new(1 << 20);
        let expected = prover.prove(position, None).unwrap();
        let proven = solver.prove(position, None).unwrap();
        assert_eq!(proven.outcome, expected.outcome, "{position}");
        if plies && expected.outcome != Wdl::Draw {
            assert_eq!(proven.plies, expected.plies, "{position}");
        }
        let (best, value) = solver.solve(position, None).best.unwrap();
        assert_eq!(value.outcome, expected.outcome, "{position}");
        let after = position.after(best);
        let of_move = match after.status() {
            Status::Over(outcome) => Proven::of_finished(outcome, position.to_move()).in_plies(1),
            Status::Ongoing => prover.prove(&after, None).unwrap().before(),
        };
        assert_eq!(of_move.outcome, expected.outcome, "{best} in {position}");
        if plies && expected.outcome != Wdl::Draw {
            assert_eq!(of_move.plies, value.plies, "{best} in {position}");
        }
    }
}

#[test]
fn connect_four_values_and_plies_match_the_prover_near_the_end() {
    let positions = random_positions(&Connect4::new(), 33, 40, 1);
    agrees_with_the_prover(&mut games_connect4::Solver::new(), &positions, true);
}

#[test]
fn hex_values_match_the_prover() {
    let positions = random_positions(&Hex::new(3).unwrap(), 2, 30, 2);
    agrees_with_the_prover(
        &mut games_hex::Solver::with_table_bytes(1 << 16),
        &positions,
        false,
    );
    let positions = random_positions(&Hex::with_swap(3).unwrap(), 1, 10, 3);
    agrees_with_the_prover(
        &mut games_hex::Solver::with_table_bytes(1 << 16),
        &positions,
        false,
    );
}

#[test]
fn othello_endgames_match_the_prover() {
    let positions = random_positions(&Othello::new(), 53, 30, 4);
    agrees_with_the_prover(&mut Endgame::new(), &positions, false);
    let positions = random_positions(&Othello6::new(), 24, 30, 5);
    agrees_with_the_prover(&mut Endgame::new(), &positions, false);
}

#[test]
fn connect_four_best_moves_keep_the_published_scores() {
    let mut solver = games_connect4::Solver::new();
    for (file, lines) in [("Test_L3_R1", 40), ("Test_L2_R1", 20), ("Test_L1_R1", 10)] {
        let path = format!(
            "{}/../games-connect4/tests/data/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().take(lines) {
            let (moves, score) = line.split_once(' ').unwrap();
            let (position, score): (Connect4, i32) =
                (moves.parse().unwrap(), score.parse().unwrap());
            let (best, found) = solver.best_move(&position).unwrap();
            assert_eq!(found, score, "{file}: {moves}");
            let after = position.after(best);
            if !after.status().is_over() {
                assert_eq!(
                    solver.score(&after, false),
                    Ok(-score),
                    "{file}: {moves} {best}"
                );
            }
        }
    }
}

#[test]
fn a_passed_deadline_proves_nothing_and_spoils_nothing() {
    let past = Some(Instant::now());
    let position: Connect4 = "4444".parse().unwrap(); // early: far beyond a zero deadline
    let mut c4 = games_connect4::Solver::new();
    assert_eq!(Solve::<Connect4>::prove(&mut c4, &position, past), None);
    assert!(
        Solve::<Connect4>::solve(&mut c4, &position, past)
            .best
            .is_none()
    );
    let late: Connect4 = "2252576253462244111563365343671351441".parse().unwrap();
    assert_eq!(c4.score(&late, false), Ok(-1));
    let othello: Othello = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        .parse()
        .unwrap();
    let mut endgame = Endgame::new();
    assert!(endgame.solve(&othello, past).best.is_none());
    assert_eq!(endgame.best_move(&othello).map(|(_, s)| s), Ok(18));
    let mut hex = games_hex::Solver::with_table_bytes(1 << 20);
    assert_eq!(hex.prove(&Hex::new(5).unwrap(), past), None);
    assert_eq!(
        hex.prove(&Hex::new(3).unwrap(), None),
        Some(Proven::new(Wdl::Win))
    );
}

#[test]
fn solver_specs_build_for_every_game_and_play_proven_moves() {
    // Tic-tac-toe has no solver of its own: the prover plays it, perfectly.
    let spec: AgentSpec = "solver:time=1s,fallback=random".parse().unwrap();
    let mut agent = spec.build::<game_core::testing::TicTacToe>(1).unwrap();
    let position: game_core::testing::TicTacToe = "xo. / .x. / o..".parse().unwrap();
    assert_eq!(
        agent.choose(&position, &spec.budget()).unwrap().to_string(),
        "c3"
    );
    assert_eq!(
        agent.report().unwrap().proven.map(|p| p.outcome),
        Some(Wdl::Win)
    );
    // Connect Four through the prover too (no game solver given): a win in one.
    let mut agent = spec.build::<Connect4>(1).unwrap();
    let position: Connect4 = "414141".parse().unwrap();
    assert_eq!(
        agent.choose(&position, &spec.budget()),
        Some("4".parse().unwrap())
    );
}

#[test]
fn the_solver_falls_back_where_it_cannot_finish() {
    // An Othello opening is far beyond the endgame search: the fallback plays, on time.
    let spec: AgentSpec = "solver:time=200ms,fallback=uct".parse().unwrap();
    let fallback = spec.fallback().unwrap().build::<Othello>(1).unwrap();
    let mut agent = spec.solver_agent(Endgame::new(), fallback).unwrap();
    let clock = Instant::now();
    let action = agent.choose(&Othello::new(), &Budget::time(Duration::from_millis(200)));
    assert!(action.is_some());
    assert!(clock.elapsed() < Duration::from_secs(2));
    let report = agent.report().unwrap();
    assert_eq!(report.proven, None);
    assert!(report.iterations > 0, "the fallback searched");
}
