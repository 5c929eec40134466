//! Scores of matches and how sure they are.

use game_core::{Outcome, Player, Wdl};

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

impl std::fmt::Display for Score {
    /// `20-1-19, 51.2% (95% interval 36.3% to 65.9%)`: wins, draws, losses, the rate and its
    /// interval.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (low, high) = self.interval95();
        write!(
            f,
            "{}-{}-{}, {:.1}% (95% interval {:.1}% to {:.1}%)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.rate(),
            100.0 * low,
            100.0 * high
        )
    }
}

impl std::ops::Add for Score {
    type Output = Score;

    fn add(self, other: Score) -> Score {
        Score {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(scores: I) -> Score {
        scores.fold(Score::default(), std::ops::Add::add)
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
