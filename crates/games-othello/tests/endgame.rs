//! The endgame search against the FFO endgame suite's published answers (`tests/data/`):
//! #1-#19 here, #20-#39 by `cargo test --release -p games-othello --test endgame -- --ignored`
//! (about a minute) or `cargo run --release --example othello_solve -- FILE`.

use games_othello::{Endgame, Othello};

/// The positions of an OBF file with their best score and the moves that reach it.
fn suite(file: &str) -> Vec<(Othello, i32, Vec<String>)> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (board, answers) = line.split_once(';').unwrap();
            let scored: Vec<(String, i32)> = answers
                .split(';')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|part| {
                    let (square, score) = part.split_once(':').unwrap();
                    (square.to_ascii_lowercase(), score.parse().unwrap())
                })
                .collect();
            let top = scored.iter().map(|(_, s)| *s).max().unwrap();
            let best = scored
                .into_iter()
                .filter(|(_, s)| *s == top)
                .map(|(m, _)| m)
                .collect();
            (board.parse().unwrap(), top, best)
        })
        .collect()
}

fn check(file: &str) {
    let mut endgame = Endgame::new();
    for (number, (position, score, best)) in suite(file).into_iter().enumerate() {
        let (found, value) = endgame.best_move(&position).unwrap();
        assert_eq!(value, score, "{file} line {}:\n{position}", number + 1);
        assert!(
            best.contains(&found.to_string()),
            "{file} line {}: {found} is not one of {best:?}",
            number + 1
        );
    }
}

#[test]
fn ffo_1_to_19_scores_and_best_moves() {
    check("ffo-01-19.obf");
}

#[test]
#[ignore = "about a minute in release mode: cargo test --release -- --ignored"]
fn ffo_20_to_39_scores_and_best_moves() {
    check("ffo-20-39.obf");
}
