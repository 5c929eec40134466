//! The `solver` agent as the tools build it (`TextGame::agent`): the best proven move on each
//! game, a report of what it proved, and won games kept won against any opponent.

use arena::TextGame;
use game_core::{Game, Outcome, Status, Wdl};
use games_connect4::{Connect4, Solver};
use games_hex::Hex;
use games_othello::Othello;
use search::{Agent, AgentSpec};

/// The published positions and scores of a Connect Four test set.
fn test_set(file: &str, lines: usize) -> Vec<(Connect4, i32)> {
    let path = format!(
        "{}/../games-connect4/tests/data/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take(lines)
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (moves.parse().unwrap(), score.parse().unwrap())
        })
        .collect()
}

#[test]
fn connect_four_moves_keep_the_published_score() {
    // The clock only bounds the solver (half of the 5 s): each of these proofs takes at most
    // a few milliseconds at the test profile's opt-level=1 (2 ms the slowest, most under
    // 0.1 ms, on a loaded two-core machine), a thousandfold margin.
    let spec: AgentSpec = "solver:time=5s".parse().unwrap();
    let mut agent = Connect4::agent(&spec, 1).unwrap();
    let mut solver = Solver::new();
    for (position, score) in test_set("Test_L2_R1", 20)
        .into_iter()
        .chain(test_set("Test_L1_R1", 10))
    {
        let action = agent.choose(&position, &spec.budget()).unwrap();
        let after = position.after(action);
        if !after.status().is_over() {
            assert_eq!(solver.score(&after, false), Ok(-score), "{position}");
        }
        let proven = agent.report().unwrap().proven;
        let proven = proven.unwrap_or_else(|| panic!("{position}: not proven in 2.5 s"));
        let expected = match score.signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        assert_eq!(proven.outcome, expected, "{position}");
    }
}

#[test]
fn won_connect_four_games_stay_won_against_every_opponent() {
    let won: Vec<Connect4> = test_set("Test_L2_R1", 60)
        .into_iter()
        .filter(|&(_, score)| score > 0)
        .map(|(position, _)| position)
        .take(6)
        .collect();
    assert!(won.len() >= 4);
    // Half a second for each proof, which takes under a tenth of a millisecond here at
    // opt-level=1: a margin of thousands.
    let solver: AgentSpec = "solver:time=1s".parse().unwrap();
    for opponent in ["random", "uct:iterations=2000", "alphabeta:depth=6"] {
        let opponent: AgentSpec = opponent.parse().unwrap();
        for (seed, start) in won.iter().enumerate() {
            let mover = start.to_move();
            let mut agents = [
                Connect4::agent(&solver, seed as u64).unwrap(),
                Connect4::agent(&opponent, seed as u64).unwrap(),
            ];
            let mut position = start.clone();
            while !position.status().is_over() {
                let (agent, budget) = if position.to_move() == mover {
                    (&mut agents[0], solver.budget())
                } else {
                    (&mut agents[1], opponent.budget())
                };
                let action = agent.choose(&position, &budget).unwrap();
                for agent in &mut agents {
                    agent.played(&position, action);
                }
                position.play(action);
            }
            assert_eq!(
                position.status(),
                Status::Over(Outcome::Win(mover)),
                "{opponent} from {start}"
            );
        }
    }
}

#[test]
fn othello_endgames_get_their_best_move_and_margin() {
    // FFO #1: g8 wins by 18.
    let position: Othello = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        .parse()
        .unwrap();
    // The endgame search proves it in about 20 ms at opt-level=1, of the solver's 1 s (and
    // takes on positions of up to 20 empty squares with a second: this one has 14).
    let spec: AgentSpec = "solver:time=2s".parse().unwrap();
    let mut agent = Othello::agent(&spec, 1).unwrap();
    assert_eq!(
        agent.choose(&position, &spec.budget()).unwrap().to_string(),
        "g8"
    );
    let proven = agent.report().unwrap().proven.expect("proven in 1 s");
    assert_eq!((proven.outcome, proven.margin), (Wdl::Win, Some(18)));
    assert_eq!(proven.to_string(), "a win by 18");
}

#[test]
fn hex_openings_on_small_boards_are_winning_moves() {
    // The brute-force solver proves 4x4 in about 60 ms at opt-level=1 and 3x3 in
    // microseconds, of the solver's 2.5 s: a fortyfold margin.
    let spec: AgentSpec = "solver:time=5s".parse().unwrap();
    let mut agent = Hex::agent(&spec, 1).unwrap();
    let start = Hex::new(4).unwrap();
    let action = agent.choose(&start, &spec.budget()).unwrap();
    let winning = games_hex::Solver::with_table_bytes(1 << 20).winning_moves(&start);
    assert!(
        winning.contains(&action),
        "{action} is not among {winning:?}"
    );
    assert_eq!(
        agent.report().unwrap().proven.map(|p| p.outcome),
        Some(Wdl::Win)
    );
    // A lost position on 3x3: White to move after Black's centre.
    let lost = Hex::new(3).unwrap().after_moves("b2").unwrap();
    assert!(agent.choose(&lost, &spec.budget()).is_some());
    assert_eq!(
        agent.report().unwrap().proven.map(|p| p.outcome),
        Some(Wdl::Loss)
    );
}
