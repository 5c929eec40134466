//! [`Resign`]: when an engine gives a game up, the rule that `gtp`, `play`, the web board and
//! `hex_selfplay` share.

use std::fmt;

use game_core::Wdl;
use search::Report;

/// When an engine resigns: on a position its search proved lost, or once its winning
/// chances (the mean reward of the move it chose, [`Report::value`]) have stayed below
/// [`below`](Resign::below) for [`moves`](Resign::moves) of its moves in a row. Never in a
/// position it proved won, a draw, or after a move from its book.
///
/// Searches that rate a position without a win rate (alpha-beta, whose report has a
/// [`score`](Report::score)) resign on a proof only.
/// The defaults, 5% for 3 moves, are MoHex's kind of rule with a wide margin: in 16 games of
/// `best` against itself on Hex 11x11 at 100,000 iterations a move, played to the end, no side
/// that rated its chances under 20% for three moves running went on to win, and no winner
/// rated its own under 39% after move 10 (`docs/experiments.md`, "Resigning").
///
/// ```
/// use arena::{Resign, Resigner};
/// use search::Report;
/// use std::time::Duration;
///
/// let mut resigner = Resigner::new(Resign::default());
/// let mut report = Report::new(Some('a'), 1000, Duration::from_millis(5));
/// report.actions = vec![search::ActionStats { action: 'a', visits: 1000, mean: 0.02, proof: None }];
/// assert!(resigner.consider(Some(&report)).is_none()); // one move below 5%
/// assert!(resigner.consider(Some(&report)).is_none()); // two
/// assert!(resigner.consider(Some(&report)).is_some()); // three: it resigns
/// ```
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Resign {
    /// Resign a position the search proved lost.
    pub proven: bool,
    /// The winning chances below which a move counts towards resigning; 0 never.
    pub below: f64,
    /// How many moves in a row, each below [`below`](Resign::below), before resigning.
    pub moves: u32,
}

impl Default for Resign {
    /// On a proven loss, or below 5% for 3 moves in a row.
    fn default() -> Self {
        Resign {
            proven: true,
            below: 0.05,
            moves: 3,
        }
    }
}

impl Resign {
    /// Never resign: every game is played to its end.
    pub const NEVER: Resign = Resign {
        proven: false,
        below: 0.0,
        moves: 0,
    };

    /// Resign on a proven loss only (what `gtp` did before the threshold).
    pub const PROVEN: Resign = Resign {
        proven: true,
        below: 0.0,
        moves: 0,
    };
}

impl fmt::Display for Resign {
    /// `never`, `on a proven loss`, or `on a proven loss, or 3 moves in a row under 5%`, as a
    /// run's settings write it.
    ///
    /// ```
    /// use arena::Resign;
    ///
    /// assert_eq!(Resign::NEVER.to_string(), "never");
    /// assert_eq!(Resign::default().to_string(), "on a proven loss, or 3 moves in a row under 5%");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hopeless = self.below > 0.0 && self.moves > 0;
        match (self.proven, hopeless) {
            (false, false) => f.write_str("never"),
            (true, false) => f.write_str("on a proven loss"),
            (proven, true) => write!(
                f,
                "{}{} moves in a row under {}%",
                if proven { "on a proven loss, or " } else { "" },
                self.moves,
                100.0 * self.below
            ),
        }
    }
}

/// Why an engine resigned ([`Resigner::consider`]).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Resignation {
    /// Its search proved the position lost.
    Proven,
    /// Its winning chances stayed below the threshold: `chances` now, after `moves` moves in
    /// a row below `below`.
    Hopeless {
        /// Its winning chances at this move.
        chances: f64,
        /// The threshold.
        below: f64,
        /// How many of its moves in a row were below it.
        moves: u32,
    },
}

impl fmt::Display for Resignation {
    /// `its loss is proven`, or `its winning chances have been below 5% for 3 moves (2.1%
    /// now)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resignation::Proven => write!(f, "its loss is proven"),
            Resignation::Hopeless {
                chances,
                below,
                moves,
            } => write!(
                f,
                "its winning chances have been below {:.0}% for {moves} moves ({:.1}% now)",
                100.0 * below,
                100.0 * chances
            ),
        }
    }
}

/// One engine's side of [`Resign`]: the rule and the moves in a row below its threshold.
#[derive(Clone, Debug)]
pub struct Resigner {
    rule: Resign,
    streak: u32,
}

impl Resigner {
    /// A resigner by `rule`, with no move seen yet.
    #[must_use]
    pub fn new(rule: Resign) -> Resigner {
        Resigner { rule, streak: 0 }
    }

    /// The rule it follows.
    #[must_use]
    pub fn rule(&self) -> Resign {
        self.rule
    }

    /// Forgets the moves seen (a new game, or a move taken back).
    pub fn reset(&mut self) {
        self.streak = 0;
    }

    /// Whether the engine resigns after the search of `report` (its search for the move it
    /// is about to play; `None` for an agent that does not search): counts the move towards
    /// the rule's streak and says why it resigns, if it does.
    pub fn consider<A: PartialEq>(&mut self, report: Option<&Report<A>>) -> Option<Resignation> {
        let Some(report) = report else {
            self.streak = 0;
            return None;
        };
        match report.proven.map(|p| p.outcome) {
            Some(Wdl::Loss) if self.rule.proven => return Some(Resignation::Proven),
            Some(Wdl::Win | Wdl::Draw) => {
                self.streak = 0;
                return None;
            }
            _ => {}
        }
        // A depth-limited search's "mean" is its score, not a win rate.
        let chances = report
            .value()
            .filter(|_| !report.book && report.score.is_none());
        match chances {
            Some(chances) if chances < self.rule.below && self.rule.moves > 0 => {
                self.streak += 1;
                (self.streak >= self.rule.moves).then_some(Resignation::Hopeless {
                    chances,
                    below: self.rule.below,
                    moves: self.streak,
                })
            }
            _ => {
                self.streak = 0;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use game_core::solve::Proven;
    use search::ActionStats;

    use super::*;

    fn report(mean: f64, proven: Option<Wdl>) -> Report<char> {
        let mut report = Report::new(Some('a'), 1000, Duration::from_millis(1));
        report.actions = vec![ActionStats {
            action: 'a',
            visits: 1000,
            mean,
            proof: None,
        }];
        report.proven = proven.map(Proven::new);
        report
    }

    #[test]
    fn a_proven_loss_resigns_at_once() {
        let mut resigner = Resigner::new(Resign::default());
        assert_eq!(
            resigner.consider(Some(&report(0.4, Some(Wdl::Loss)))),
            Some(Resignation::Proven)
        );
        let mut never = Resigner::new(Resign::NEVER);
        assert_eq!(never.consider(Some(&report(0.0, Some(Wdl::Loss)))), None);
    }

    #[test]
    fn a_proven_win_or_draw_never_resigns_and_breaks_the_streak() {
        let mut resigner = Resigner::new(Resign::default());
        for _ in 0..10 {
            // Low chances but proven won: the mean of a search that has not caught up.
            assert_eq!(resigner.consider(Some(&report(0.01, Some(Wdl::Win)))), None);
            assert_eq!(
                resigner.consider(Some(&report(0.01, Some(Wdl::Draw)))),
                None
            );
        }
        resigner.consider(Some(&report(0.01, None)));
        resigner.consider(Some(&report(0.01, None)));
        resigner.consider(Some(&report(0.01, Some(Wdl::Win))));
        assert_eq!(resigner.consider(Some(&report(0.01, None))), None);
    }

    #[test]
    fn low_chances_resign_only_after_the_moves_in_a_row() {
        let mut resigner = Resigner::new(Resign::default());
        assert_eq!(resigner.consider(Some(&report(0.04, None))), None);
        assert_eq!(resigner.consider(Some(&report(0.04, None))), None);
        // A move at the threshold or above starts the count again.
        assert_eq!(resigner.consider(Some(&report(0.05, None))), None);
        assert_eq!(resigner.consider(Some(&report(0.01, None))), None);
        assert_eq!(resigner.consider(Some(&report(0.02, None))), None);
        let Some(Resignation::Hopeless { chances, moves, .. }) =
            resigner.consider(Some(&report(0.03, None)))
        else {
            panic!("three moves below 5% resign");
        };
        assert_eq!((chances, moves), (0.03, 3));
        // A book move or a move without a search says nothing about the chances.
        resigner.reset();
        let mut book = report(0.0, None);
        book.book = true;
        for _ in 0..5 {
            assert_eq!(resigner.consider(Some(&book)), None);
            assert_eq!(resigner.consider::<char>(None), None);
        }
        assert_eq!(
            Resigner::new(Resign::PROVEN).consider(Some(&report(0.0, None))),
            None
        );
    }

    #[test]
    fn resignations_say_why() {
        assert_eq!(Resignation::Proven.to_string(), "its loss is proven");
        let hopeless = Resignation::Hopeless {
            chances: 0.021,
            below: 0.05,
            moves: 3,
        };
        assert_eq!(
            hopeless.to_string(),
            "its winning chances have been below 5% for 3 moves (2.1% now)"
        );
    }
}
