//! Matches between agents: play a game move by move, score a series, and say how sure the
//! score is.
//!
//! ```
//! use arena::{Score, play_game};
//! use game_core::{Outcome, testing::TicTacToe};
//! use search::{AgentSpec, Budget};
//!
//! let spec: AgentSpec = "uct:iterations=2000".parse()?;
//! let mut black = spec.build::<TicTacToe>(1);
//! let mut white = spec.build::<TicTacToe>(2);
//! let budget = spec.budget();
//! let game = play_game(&TicTacToe::new(), [&mut *black, &mut *white], [&budget, &budget], |_| {});
//! // Two searching players draw tic-tac-toe.
//! assert_eq!(game.outcome, Outcome::Draw);
//!
//! let mut score = Score::default();
//! score.add(game.outcome, game_core::Player::Black);
//! assert_eq!(score.points(), 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use game_core::{Game, Outcome, Player, Status, Wdl};
use search::{Agent, Budget, Report};

/// One move as it was played, for whoever watches the game.
#[derive(Debug)]
pub struct MoveEvent<'a, G: Game> {
    /// The position before the move.
    pub before: &'a G,
    /// The move.
    pub action: G::Action,
    /// Who played it.
    pub player: Player,
    /// How long the agent thought.
    pub elapsed: Duration,
    /// What the agent's search found, if it searches.
    pub report: Option<&'a Report<G::Action>>,
}

/// A finished game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord<G: Game> {
    /// The moves, in order.
    pub moves: Vec<G::Action>,
    /// The final position.
    pub end: G,
    /// How it ended.
    pub outcome: Outcome,
}

/// Plays `start` to the end, Black's moves from `agents[0]` with `budgets[0]`, White's from
/// `agents[1]` with `budgets[1]`. Both agents are told every move. `on_move` sees each move as
/// it is played.
///
/// # Panics
///
/// If an agent answers an ongoing game with no action or with an illegal one: a bug in the
/// agent, not something a caller can recover from.
pub fn play_game<G: Game>(
    start: &G,
    agents: [&mut dyn Agent<G>; 2],
    budgets: [&Budget; 2],
    mut on_move: impl FnMut(MoveEvent<'_, G>),
) -> GameRecord<G> {
    let [black, white] = agents;
    let mut agents = [black, white];
    let mut position = start.clone();
    let mut moves = Vec::new();
    loop {
        if let Status::Over(outcome) = position.status() {
            return GameRecord {
                moves,
                end: position,
                outcome,
            };
        }
        let player = position.to_move();
        let clock = Instant::now();
        let action = agents[player.index()]
            .choose(&position, budgets[player.index()])
            .expect("an agent answers an ongoing game");
        let elapsed = clock.elapsed();
        assert!(
            position.is_legal(action),
            "the agent for {player} chose the illegal {action}"
        );
        on_move(MoveEvent {
            before: &position,
            action,
            player,
            elapsed,
            report: agents[player.index()].report(),
        });
        for agent in &mut agents {
            agent.played(&position, action);
        }
        position.play(action);
        moves.push(action);
    }
}

/// Wins, draws and losses of one side of a match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Score {
    /// Counts a game that ended in `outcome`, for the side that played `player`.
    pub fn add(&mut self, outcome: Outcome, player: Player) {
        match outcome.for_player(player) {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw 1/2.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The share of the points, 0 to 1 (`NaN` before any game).
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.points() / f64::from(self.games())
    }

    /// The 95% Wilson score interval of the rate.
    #[must_use]
    pub fn interval95(&self) -> (f64, f64) {
        wilson_interval(self.points(), f64::from(self.games()), 1.959_964)
    }
}

/// The Wilson score interval for `successes` out of `trials` at `z` standard deviations
/// (1.96 for 95%): better than the normal approximation for small samples and rates near 0
/// or 1. `(0, 1)` for no trials.
///
/// ```
/// let (low, high) = arena::wilson_interval(7.0, 10.0, 1.96);
/// assert!((low - 0.397).abs() < 0.001 && (high - 0.892).abs() < 0.001);
/// ```
#[must_use]
pub fn wilson_interval(successes: f64, trials: f64, z: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / trials;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * trials)) / (1.0 + z2 / trials);
    let half =
        z / (1.0 + z2 / trials) * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_contains_the_rate_and_narrows_with_more_games() {
        let (l1, h1) = wilson_interval(5.0, 10.0, 1.96);
        let (l2, h2) = wilson_interval(50.0, 100.0, 1.96);
        assert!(l1 < 0.5 && 0.5 < h1 && l2 < 0.5 && 0.5 < h2);
        assert!(h2 - l2 < h1 - l1);
        assert_eq!(wilson_interval(0.0, 0.0, 1.96), (0.0, 1.0));
        let (low, high) = wilson_interval(10.0, 10.0, 1.96);
        assert!(low > 0.69 && high == 1.0);
    }

    #[test]
    fn scores_count_draws_as_half() {
        let mut s = Score::default();
        s.add(Outcome::Win(Player::White), Player::White);
        s.add(Outcome::Draw, Player::White);
        s.add(Outcome::Win(Player::Black), Player::White);
        assert_eq!((s.wins, s.draws, s.losses, s.points()), (1, 1, 1, 1.5));
        assert!((s.rate() - 0.5).abs() < 1e-12);
    }
}
