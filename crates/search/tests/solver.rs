//! MCTS-Solver (`uct:prove=true`): proofs of small known positions, checked against the exact
//! Connect Four solver.

use game_core::testing::TicTacToe;
use game_core::{Game, Wdl};
use games_connect4::{Connect4, Solver};
use search::{AgentSpec, Report};

fn search<G: Game + Send + Sync + 'static>(spec: &str, position: &G) -> Report<G::Action> {
    let spec: AgentSpec = spec.parse().unwrap();
    let mut agent = spec.build::<G>(3).unwrap();
    agent.choose(position, &spec.budget()).unwrap();
    agent.report().unwrap().clone()
}

#[test]
fn tic_tac_toe_is_proven_a_draw_and_the_search_stops() {
    let report = search("uct:iterations=1000000,prove=true", &TicTacToe::new());
    assert_eq!(report.proven.map(|p| p.outcome), Some(Wdl::Draw));
    assert!(
        report.iterations < 1_000_000,
        "{} iterations",
        report.iterations
    );
    // No first move loses against best play, so none is proven lost.
    assert!(report.actions.iter().all(|a| a.proof == Some(Wdl::Draw)));
    // On a tree shared by threads too.
    let shared = search(
        "uct:iterations=1000000,prove=true,threads=2,parallel=tree",
        &TicTacToe::new(),
    );
    assert_eq!(shared.proven.map(|p| p.outcome), Some(Wdl::Draw));
    assert!(shared.iterations < 1_000_000);
    // Without the solver nothing is proven and the budget is spent.
    let plain = search("uct:iterations=20000", &TicTacToe::new());
    assert_eq!(
        (plain.proven.map(|p| p.outcome), plain.iterations),
        (None, 20_000)
    );
}

#[test]
fn wins_and_losses_in_tic_tac_toe() {
    // x to move wins at once (c1), and is proven to.
    let win: TicTacToe = "xx.\noo.\n...".parse().unwrap();
    let report = search("uct:iterations=100000,prove=true", &win);
    assert_eq!(report.proven.map(|p| p.outcome), Some(Wdl::Win));
    assert_eq!(report.chosen, Some("c1".parse().unwrap()));
    // o to move cannot stop both of x's threats (c2 and b2): a proven loss.
    let lost: TicTacToe = "xox\no..\n..x".parse().unwrap();
    assert_eq!(lost.to_move(), game_core::Player::White);
    let report = search("uct:iterations=100000,prove=true", &lost);
    assert_eq!(report.proven.map(|p| p.outcome), Some(Wdl::Loss));
}

/// The result for the player to move from a test-set score.
fn wdl(score: i32) -> Wdl {
    match score.signum() {
        1 => Wdl::Win,
        0 => Wdl::Draw,
        _ => Wdl::Loss,
    }
}

#[test]
fn connect_four_endgames_are_proven_as_the_exact_solver_says() {
    let data = include_str!("../../games-connect4/tests/data/Test_L3_R1");
    let mut exact = Solver::new();
    let mut proven = 0;
    for line in data.lines().take(40) {
        let (moves, score) = line.split_once(' ').unwrap();
        let position: Connect4 = moves.parse().unwrap();
        let expected = wdl(score.parse().unwrap());
        let report = search("uct:iterations=300000,prove=true", &position);
        // Every proof must be right; most of these short endgames get proven.
        if let Some(proof) = report.proven.map(|p| p.outcome) {
            assert_eq!(proof, expected, "{moves}");
            proven += 1;
        }
        if expected == Wdl::Win {
            // The move played keeps the win: the opponent is lost after it.
            let after = position.after(report.chosen.unwrap());
            let reply = exact.score(&after, false).unwrap();
            assert!(
                reply < 0,
                "{moves}: {} throws the win away",
                report.chosen.unwrap()
            );
        }
    }
    assert!(proven >= 35, "only {proven} of 40 proven");
}

#[test]
fn a_connect_four_mate_in_three_is_found_and_proven() {
    // Black (to move, 8 stones each) wins with its second stone from here: 3 plies.
    let mut exact = Solver::new();
    let data = include_str!("../../games-connect4/tests/data/Test_L3_R1");
    let (moves, position) = data
        .lines()
        .map(|l| l.split_once(' ').unwrap())
        .map(|(m, s)| (m, m.parse::<Connect4>().unwrap(), s.parse::<i32>().unwrap()))
        .find(|(_, p, s)| {
            // Score (cells left after the win)/2 + 1 ... a win on the mover's second stone.
            let stones_left = 42 - p.plies() as i32;
            *s == (stones_left - 3) / 2 + 1 && *s > 0
        })
        .map(|(m, p, _)| (m, p))
        .expect("a win in three plies in the set");
    let report = search("uct:iterations=100000,prove=true", &position);
    assert_eq!(report.proven.map(|p| p.outcome), Some(Wdl::Win), "{moves}");
    let after = position.after(report.chosen.unwrap());
    assert!(exact.score(&after, false).unwrap() < 0, "{moves}");
}
