//! The solver against the scores of the public test sets: a fixed sample of each set here (the
//! whole files: `cargo run --release --example connect4_solve < FILE`, see docs/benchmarks.md).

use games_connect4::{Connect4, SolveError, Solver};

fn sample(file: &str, lines: usize) -> Vec<(Connect4, i32)> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
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
fn exact_scores_match_the_test_sets() {
    let mut solver = Solver::new();
    for (file, lines) in [
        ("Test_L3_R1", 200),
        ("Test_L2_R1", 100),
        ("Test_L1_R1", 30),
        ("Test_L2_R2", 20),
        ("Test_L1_R2", 3),
    ] {
        for (position, expected) in sample(file, lines) {
            assert_eq!(
                solver.score(&position, false),
                Ok(expected),
                "{file}:\n{position}"
            );
        }
    }
}

#[test]
fn weak_scores_are_the_signs() {
    let mut solver = Solver::new();
    for (file, lines) in [("Test_L3_R1", 100), ("Test_L2_R1", 50), ("Test_L1_R1", 20)] {
        for (position, expected) in sample(file, lines) {
            assert_eq!(
                solver.score(&position, true),
                Ok(expected.signum()),
                "{file}:\n{position}"
            );
        }
    }
}

#[test]
fn finished_games_and_large_boards_are_refused() {
    let mut solver = Solver::new();
    assert_eq!(
        solver.score(&"4141414".parse().unwrap(), false),
        Err(SolveError::GameOver)
    );
    let big = Connect4::with_size(8, 7).unwrap();
    assert_eq!(
        solver.score(&big, false),
        Err(SolveError::BoardTooLarge(64))
    );
    // Small boards solve from the start: 4x4 Connect Four is a draw.
    assert_eq!(
        solver.score(&Connect4::with_size(4, 4).unwrap(), false),
        Ok(0)
    );
}

#[test]
fn the_shipped_books_deepest_entries_agree_with_the_solver() {
    use game_core::Game;
    use games_connect4::Book;
    let text = include_str!("../book/7x6.txt");
    let deepest = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split(' ').collect::<Vec<_>>())
        .filter(|fields| fields[0].len() >= 8)
        .step_by(97)
        .take(4);
    let mut solver = Solver::new();
    let mut checked = 0;
    for fields in deepest {
        let position: Connect4 = fields[0].parse().unwrap();
        let (best, score) = Book::standard(7, 6).unwrap().get(&position).unwrap();
        assert_eq!(score.to_string(), fields[1]);
        assert_eq!(solver.score(&position, false), Ok(score), "{}", fields[0]);
        let after = position.after(best);
        if !after.status().is_over() {
            assert_eq!(
                solver.score(&after, false),
                Ok(-score),
                "{} {best}",
                fields[0]
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// A table larger than the default (an odd number of slots other than the default's prime)
/// keeps every score exact, and `clear` empties it and the node count.
#[test]
fn a_larger_table_scores_the_same() {
    let mut solver = Solver::with_table_bytes(48 << 20);
    for (position, expected) in sample("Test_L3_R1", 50) {
        assert_eq!(solver.score(&position, false), Ok(expected), "{position}");
    }
    assert!(solver.nodes() > 0);
    solver.clear();
    assert_eq!(solver.nodes(), 0);
    for (position, expected) in sample("Test_L2_R1", 20) {
        assert_eq!(solver.score(&position, false), Ok(expected), "{position}");
    }
}
