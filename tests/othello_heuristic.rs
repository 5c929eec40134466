//! The Othello heuristic drives alpha-beta to beat a random player and a small UCT.

use gamesearch::arena::{Score, play_game};
use gamesearch::core::{Game, Player};
use gamesearch::othello::{Heuristic, Othello};
use gamesearch::search::{Agent, AlphaBeta, AlphaBetaConfig, Budget, Random, Uct};

/// Plays `games` games, the alpha-beta agent (depth `depth`, Othello's heuristic) taking Black
/// and White in turn against `opponent(seed)`; returns its score.
fn match_against<O: Agent<Othello>>(
    games: u32,
    depth: u32,
    opponent: impl Fn(u64) -> (O, Budget),
) -> Score {
    let mut score = Score::default();
    for game in 0..games {
        let config = AlphaBetaConfig {
            max_depth: depth,
            table_bytes: 1 << 20,
            ..AlphaBetaConfig::default()
        };
        let mut alphabeta = AlphaBeta::with_config(config, Heuristic::new());
        let (mut other, other_budget) = opponent(u64::from(game));
        let ab_budget = Budget::default();
        let ab_colour = if game % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        let record = if ab_colour == Player::Black {
            play_game(
                &Othello::new(),
                [&mut alphabeta, &mut other],
                [&ab_budget, &other_budget],
                |_| {},
            )
        } else {
            play_game(
                &Othello::new(),
                [&mut other, &mut alphabeta],
                [&other_budget, &ab_budget],
                |_| {},
            )
        };
        assert!(record.end.status().is_over());
        score.add(record.outcome, ab_colour);
    }
    score
}

#[test]
fn alphabeta_with_the_heuristic_beats_a_random_player_almost_always() {
    let score = match_against(10, 4, |seed| (Random::new(seed), Budget::default()));
    assert!(score.wins >= 9, "{score:?}");
}

#[test]
fn alphabeta_with_the_heuristic_beats_a_small_uct_more_often_than_not() {
    let score = match_against(10, 4, |seed| (Uct::new(seed), Budget::iterations(300)));
    assert!(score.points() > 5.0, "{score:?}");
}
