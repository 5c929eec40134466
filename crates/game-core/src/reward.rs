//! Rewards: what a finished game is worth to a player, as search sees it.
//!
//! Search maximises a [`Reward`]; games know nothing of rewards. The common ones ship here:
//!
//! | reward | win | draw | loss | needs |
//! |---|---|---|---|---|
//! | [`WinDrawLoss::default()`] | 1 | 0.5 | 0 | any [`Game`] |
//! | [`WinDrawLoss::new(1.0, 0.0, -100.0)`](WinDrawLoss::new) | 1 | 0 | -100 | any [`Game`] |
//! | [`ScoreMargin`] | own score minus the opponent's | | | a [`Scored`] game |
//! | a closure `Fn(&G, Outcome, Player) -> f64` | anything | | | any [`Game`] |

use crate::{Game, Outcome, Player, Wdl};

/// What a finished game is worth to one player.
///
/// Implemented by [`WinDrawLoss`], [`ScoreMargin`], and every closure
/// `Fn(&G, Outcome, Player) -> f64`:
///
/// ```
/// use game_core::{Game, Outcome, Player, Reward, testing::TicTacToe};
///
/// // A win is worth more the fewer marks it took.
/// let quick_wins = |end: &TicTacToe, outcome: Outcome, player: Player| match outcome.winner() {
///     Some(w) if w == player => 10.0 - end.marks() as f64,
///     Some(_) => -1.0,
///     None => 0.0,
/// };
/// let end: TicTacToe = "xxx\noo.\n...".parse().unwrap();
/// let outcome = end.status().outcome().unwrap();
/// assert_eq!(quick_wins.reward(&end, outcome, Player::Black), 5.0);
/// ```
pub trait Reward<G: Game> {
    /// The value of the finished position `end`, which ended with `outcome`, to `player`.
    fn reward(&self, end: &G, outcome: Outcome, player: Player) -> f64;
}

impl<G: Game, F: Fn(&G, Outcome, Player) -> f64> Reward<G> for F {
    #[inline]
    fn reward(&self, end: &G, outcome: Outcome, player: Player) -> f64 {
        self(end, outcome, player)
    }
}

/// A fixed value for a win, a draw and a loss. The default is 1, 0.5 and 0.
///
/// ```
/// use game_core::{Outcome, Player, WinDrawLoss};
///
/// // Course material that punishes a loss hard:
/// let harsh = WinDrawLoss::new(1.0, 0.0, -100.0);
/// assert_eq!(harsh.value(Outcome::Win(Player::White), Player::Black), -100.0);
/// assert_eq!(WinDrawLoss::default().value(Outcome::Draw, Player::Black), 0.5);
/// ```
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct WinDrawLoss {
    /// The value of a win.
    pub win: f64,
    /// The value of a draw.
    pub draw: f64,
    /// The value of a loss.
    pub loss: f64,
}

impl WinDrawLoss {
    /// Values for a win, a draw and a loss.
    #[must_use]
    pub const fn new(win: f64, draw: f64, loss: f64) -> Self {
        WinDrawLoss { win, draw, loss }
    }

    /// The value of `outcome` to `player`.
    #[inline]
    #[must_use]
    pub fn value(&self, outcome: Outcome, player: Player) -> f64 {
        match outcome.for_player(player) {
            Wdl::Win => self.win,
            Wdl::Draw => self.draw,
            Wdl::Loss => self.loss,
        }
    }
}

impl Default for WinDrawLoss {
    fn default() -> Self {
        WinDrawLoss::new(1.0, 0.5, 0.0)
    }
}

impl<G: Game> Reward<G> for WinDrawLoss {
    #[inline]
    fn reward(&self, _end: &G, outcome: Outcome, player: Player) -> f64 {
        self.value(outcome, player)
    }
}

/// A game whose finished positions have a score, such as Othello's discs.
pub trait Scored: Game {
    /// `player`'s score minus the opponent's, in the game's own units.
    fn score_margin(&self, player: Player) -> i32;
}

/// The score margin of the finished position as the reward: in Othello, the disc difference.
///
/// Unbounded, unlike [`WinDrawLoss`]; a search that mixes rewards with an exploration term must
/// scale its exploration constant to the margins the game produces.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct ScoreMargin;

impl<G: Scored> Reward<G> for ScoreMargin {
    #[inline]
    fn reward(&self, end: &G, _outcome: Outcome, player: Player) -> f64 {
        f64::from(end.score_margin(player))
    }
}
