//! How a game ends, seen from the board ([`Outcome`]) and from one player's side ([`Wdl`]).
//!
//! The two are different types on purpose: an [`Outcome`] names the winner, a [`Wdl`] says win,
//! draw or loss *for someone*. Converting between them always names the player, so a search can
//! never flip a sign by mistake.

use std::fmt;

use crate::Player;

/// The result of a finished game, independent of any point of view.
///
/// ```
/// use game_core::{Outcome, Player, Wdl};
///
/// let outcome = Outcome::Win(Player::White);
/// assert_eq!(outcome.winner(), Some(Player::White));
/// assert_eq!(outcome.for_player(Player::Black), Wdl::Loss);
/// assert_eq!(Wdl::Loss.to_outcome(Player::Black), outcome);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The outcome as `player` sees it.
    #[inline]
    #[must_use]
    pub fn for_player(self, player: Player) -> Wdl {
        match self {
            Outcome::Win(w) if w == player => Wdl::Win,
            Outcome::Win(_) => Wdl::Loss,
            Outcome::Draw => Wdl::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    /// `black wins`, `white wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// Win, draw or loss from one player's point of view: a side-relative outcome.
///
/// Obtained from an absolute [`Outcome`] with [`Outcome::for_player`], and turned back with
/// [`Wdl::to_outcome`]; both name the player whose view it is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Wdl {
    /// The player lost. Ordered first, so `Loss < Draw < Win`.
    Loss,
    /// Nobody won.
    Draw,
    /// The player won.
    Win,
}

impl Wdl {
    /// The same result seen by the opponent.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    /// The absolute outcome, given whose view `self` is.
    #[inline]
    #[must_use]
    pub const fn to_outcome(self, player: Player) -> Outcome {
        match self {
            Wdl::Win => Outcome::Win(player),
            Wdl::Draw => Outcome::Draw,
            Wdl::Loss => Outcome::Win(player.opponent()),
        }
    }
}

impl fmt::Display for Wdl {
    /// `win`, `draw` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// Whether a game goes on or is over, and if over, how it ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// The player to move has at least one legal action.
    Ongoing,
    /// The game is over; no action is legal.
    Over(Outcome),
}

impl Status {
    /// `true` when the game is over.
    #[inline]
    #[must_use]
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Over(_))
    }

    /// The outcome of a finished game, `None` while it goes on.
    #[inline]
    #[must_use]
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Over(o) => Some(o),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_and_absolute_outcomes_convert_both_ways() {
        for outcome in [
            Outcome::Win(Player::Black),
            Outcome::Win(Player::White),
            Outcome::Draw,
        ] {
            for p in Player::BOTH {
                let wdl = outcome.for_player(p);
                assert_eq!(wdl.to_outcome(p), outcome);
                assert_eq!(outcome.for_player(p.opponent()), wdl.flip());
            }
        }
        assert!(Wdl::Loss < Wdl::Draw && Wdl::Draw < Wdl::Win);
    }

    #[test]
    fn status_reports_its_outcome() {
        assert_eq!(Status::Ongoing.outcome(), None);
        assert!(!Status::Ongoing.is_over());
        let over = Status::Over(Outcome::Draw);
        assert!(over.is_over());
        assert_eq!(over.outcome(), Some(Outcome::Draw));
        assert_eq!(Outcome::Win(Player::Black).to_string(), "black wins");
    }
}
