//! Exact solvers: what a game's solver proves, and the trait a search calls it through.

use std::cmp::{Ordering, Reverse};
use std::fmt;
use std::time::Instant;

use crate::{Game, Outcome, Status, Wdl};

/// The exact value of a position for the player to move, as a solver proved it: the result
/// with best play by both sides, and, where the solver knows them, how many plies the game
/// lasts (the winner hurrying, the loser holding out) and the final score margin.
///
/// `Proven` values are ordered by how good they are for the player to move: a loss is worse
/// than a draw, a draw worse than a win; among wins a larger margin, then fewer plies, is
/// better; among losses a smaller deficit, then more plies.
///
/// The order is total and agrees with `==` (values compare equal only when they are equal).
/// What a solver does not count stands for the far end of what it could be, so that
/// [`before`](Proven::before) turns the order of wins and losses around, as a negamax needs:
///
/// - unknown plies are endless: a win of unknown length ranks below every counted win (a user
///   of the solver takes the win it can count, such as a move that wins at once), a loss of
///   unknown length above every counted loss;
/// - an unknown margin is the narrowest: a win by an unknown margin ranks below every win
///   with a margin, a loss by an unknown margin above every loss with one;
/// - draws, worth the same however they end, are ordered only so that sorting is sound: by
///   margin, then by plies, the larger higher and an unknown one highest.
///
/// ```
/// use game_core::{Wdl, solve::Proven};
///
/// let quick = Proven::new(Wdl::Win).in_plies(3);
/// let slow = Proven::new(Wdl::Win).in_plies(9);
/// assert!(quick > slow);
/// assert!(Proven::new(Wdl::Loss).in_plies(9) > Proven::new(Wdl::Loss).in_plies(3));
/// assert_eq!(quick.to_string(), "a win in 3 plies");
/// // Seen by the player who moved into the position: a loss, one ply longer.
/// assert_eq!(quick.before(), Proven::new(Wdl::Loss).in_plies(4));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Proven {
    /// The result for the player to move.
    pub outcome: Wdl,
    /// Plies until the game ends with best play, when the solver counts them.
    pub plies: Option<u32>,
    /// The final score margin for the player to move (Othello's disc difference), when the
    /// game and the solver have one.
    pub margin: Option<i32>,
}

impl Proven {
    /// `outcome`, with neither plies nor margin known.
    #[must_use]
    pub const fn new(outcome: Wdl) -> Proven {
        Proven {
            outcome,
            plies: None,
            margin: None,
        }
    }

    /// The value of a finished game for `player`, 0 plies from its end.
    #[must_use]
    pub fn of_finished(outcome: Outcome, player: crate::Player) -> Proven {
        Proven::new(outcome.for_player(player)).in_plies(0)
    }

    /// This value, the game lasting `plies` more plies.
    #[must_use]
    pub const fn in_plies(self, plies: u32) -> Proven {
        Proven {
            plies: Some(plies),
            ..self
        }
    }

    /// This value, with the final score margin `margin` for the player to move.
    #[must_use]
    pub const fn with_margin(self, margin: i32) -> Proven {
        Proven {
            margin: Some(margin),
            ..self
        }
    }

    /// The value seen from the position before: by the player who moved into this one (the
    /// opponent of the player to move here), one ply further from the end.
    #[must_use]
    pub fn before(self) -> Proven {
        Proven {
            outcome: self.outcome.flip(),
            plies: self.plies.map(|p| p + 1),
            margin: self.margin.map(|m| -m),
        }
    }

    /// Whether the player to move loses (with best play by both sides).
    #[must_use]
    pub fn is_lost(&self) -> bool {
        self.outcome == Wdl::Loss
    }
}

impl PartialOrd for Proven {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Proven {
    fn cmp(&self, other: &Self) -> Ordering {
        /// `a` against `b` where an unknown value ranks below every known one.
        fn unknown_low<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Ordering {
            a.cmp(&b)
        }
        /// `a` against `b` where an unknown value ranks above every known one.
        fn unknown_high<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Ordering {
            match (a, b) {
                (Some(a), Some(b)) => a.cmp(&b),
                (a, b) => a.is_none().cmp(&b.is_none()),
            }
        }
        let (margin, plies) = (self.margin, self.plies);
        let (their_margin, their_plies) = (other.margin, other.plies);
        self.outcome
            .cmp(&other.outcome)
            .then_with(|| match self.outcome {
                // Wider wins, then sooner ones; unknowns as the narrowest and the longest.
                Wdl::Win => unknown_low(margin, their_margin)
                    .then_with(|| unknown_low(plies.map(Reverse), their_plies.map(Reverse))),
                // Narrower losses, then later ones; unknowns as the narrowest and the longest.
                Wdl::Loss | Wdl::Draw => unknown_high(margin, their_margin)
                    .then_with(|| unknown_high(plies, their_plies)),
            })
    }
}

impl fmt::Display for Proven {
    /// `a win in 9 plies`, `a loss by 12 in 14 plies`, `a draw`, `a win`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.outcome {
            Wdl::Win => "a win",
            Wdl::Draw => "a draw",
            Wdl::Loss => "a loss",
        })?;
        if let Some(margin) = self.margin.filter(|&m| m != 0) {
            write!(f, " by {}", margin.abs())?;
        }
        match self.plies {
            Some(1) if self.outcome != Wdl::Draw => f.write_str(" in 1 ply"),
            Some(n) if self.outcome != Wdl::Draw => write!(f, " in {n} plies"),
            _ => Ok(()),
        }
    }
}

/// What [`Solve::solve`] found: the value of each action it proved, and the best action once
/// it has proved enough to know it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution<A> {
    /// The actions proven, each with its value for the player to move.
    pub actions: Vec<(A, Proven)>,
    /// The best action and the position's value for the player to move, when proven; `None`
    /// when the solver ran out of time or reach first.
    pub best: Option<(A, Proven)>,
}

impl<A> Default for Solution<A> {
    fn default() -> Self {
        Solution {
            actions: Vec::new(),
            best: None,
        }
    }
}

/// An exact solver for a game: the knowledge a game offers a search that wants certainty
/// rather than statistics. Game crates implement it for their solvers (Connect Four's, Hex's,
/// Othello's endgame search); `search::Prover` implements it for every game, by brute force.
///
/// A solver checks `deadline` as it goes (every few thousand positions) and gives up, returning
/// `None`, once it has passed; what it learnt may stay in its tables for the next call.
///
/// ```
/// use std::time::Instant;
/// use game_core::{Game, Wdl, testing::TicTacToe, solve::{Proven, Solve}};
///
/// /// Proves only positions with one move left: their value is the result of that move.
/// struct LastMove;
/// impl Solve<TicTacToe> for LastMove {
///     fn prove(&mut self, position: &TicTacToe, _: Option<Instant>) -> Option<Proven> {
///         let [only] = position.legal_actions_vec()[..] else { return None };
///         let outcome = position.after(only).status().outcome()?;
///         Some(Proven::of_finished(outcome, position.to_move()).in_plies(1))
///     }
///     fn nodes(&self) -> u64 {
///         0
///     }
/// }
/// // o to move, two cells left: the bottom right wins the bottom row; the other lets x
/// // complete the diagonal.
/// let position: TicTacToe = "xox / xx. / oo.".parse()?;
/// let best = LastMove.solve(&position, None).best.unwrap();
/// assert_eq!(best.1, Proven::new(Wdl::Win).in_plies(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Solve<G: Game> {
    /// The exact value of `position` (an ongoing game) for the player to move; `None` when
    /// `deadline` passes first or the position is beyond the solver's reach.
    fn prove(&mut self, position: &G, deadline: Option<Instant>) -> Option<Proven>;

    /// Positions searched since the solver was made.
    fn nodes(&self) -> u64;

    /// The value of each legal action of `position` (an ongoing game) and the best of them.
    /// The default proves the position after each action in turn (those that end the game
    /// are worth their result); solvers that can find the best action with less work (a
    /// null-window test per action against the position's proven value) override it.
    fn solve(&mut self, position: &G, deadline: Option<Instant>) -> Solution<G::Action> {
        let mut solution = Solution::default();
        let mover = position.to_move();
        for action in position.legal_actions_vec() {
            let after = position.after(action);
            let value = match after.status() {
                Status::Over(outcome) => Proven::of_finished(outcome, mover).in_plies(1),
                Status::Ongoing => match self.prove(&after, deadline) {
                    Some(value) => value.before(),
                    None => return solution,
                },
            };
            solution.actions.push((action, value));
        }
        solution.best = best_of(&solution.actions);
        solution
    }
}

/// The best of proven actions: the first of those with the best value.
#[must_use]
pub fn best_of<A: Copy>(actions: &[(A, Proven)]) -> Option<(A, Proven)> {
    actions
        .iter()
        .copied()
        .reduce(|best, next| if next.1 > best.1 { next } else { best })
}

impl<G: Game, S: Solve<G> + ?Sized> Solve<G> for Box<S> {
    fn prove(&mut self, position: &G, deadline: Option<Instant>) -> Option<Proven> {
        (**self).prove(position, deadline)
    }

    fn nodes(&self) -> u64 {
        (**self).nodes()
    }

    fn solve(&mut self, position: &G, deadline: Option<Instant>) -> Solution<G::Action> {
        (**self).solve(position, deadline)
    }
}

/// A clock check for solvers: cheap to call at every position, it reads the time only every
/// 4096 calls, and remembers once the deadline has passed.
///
/// ```
/// use std::time::{Duration, Instant};
///
/// let mut clock = game_core::solve::Deadline::new(Some(Instant::now()));
/// std::thread::sleep(Duration::from_millis(1));
/// assert!((0..5000).any(|_| clock.passed()));
/// assert!(!game_core::solve::Deadline::new(None).passed());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at: Option<Instant>,
    calls: u32,
    passed: bool,
}

impl Deadline {
    /// A check against `at` (none: never passes).
    #[must_use]
    pub fn new(at: Option<Instant>) -> Deadline {
        Deadline {
            at,
            calls: 0,
            passed: false,
        }
    }

    /// Whether the deadline has passed, as of the last reading of the clock.
    #[inline]
    pub fn passed(&mut self) -> bool {
        if self.passed {
            return true;
        }
        let Some(at) = self.at else {
            return false;
        };
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(4096) {
            self.passed = Instant::now() >= at;
        }
        self.passed
    }

    /// Whether the deadline was found passed (without reading the clock).
    #[must_use]
    pub fn expired(&self) -> bool {
        self.passed
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn values_order_by_what_they_are_worth_to_the_mover() {
        let win = |p| Proven::new(Wdl::Win).in_plies(p);
        let loss = |p| Proven::new(Wdl::Loss).in_plies(p);
        let draw = Proven::new(Wdl::Draw).in_plies(42);
        let mut values = vec![
            win(5),
            loss(2),
            draw,
            win(1),
            loss(8),
            Proven::new(Wdl::Draw),
        ];
        values.sort();
        assert_eq!(
            values,
            [
                loss(2),
                loss(8),
                draw,
                Proven::new(Wdl::Draw),
                win(5),
                win(1)
            ]
        );
        let by = |m| Proven::new(Wdl::Win).with_margin(m).in_plies(10);
        assert!(by(20) > by(4).in_plies(2));
        assert_eq!(by(20).before().margin, Some(-20));
        assert_eq!(by(20).before().to_string(), "a loss by 20 in 11 plies");
        assert_eq!(Proven::new(Wdl::Draw).to_string(), "a draw");
        assert_eq!(win(1).to_string(), "a win in 1 ply");
    }

    #[test]
    fn unknown_plies_and_margins_are_the_far_end() {
        let win = Proven::new(Wdl::Win);
        let loss = Proven::new(Wdl::Loss);
        // A counted win beats an uncounted one; an uncounted loss holds out longest.
        assert!(win.in_plies(99) > win);
        assert!(loss > loss.in_plies(99));
        assert!(win.with_margin(1) > win);
        assert!(loss > loss.with_margin(-1));
        // So the default `solve` plays a move that wins at once over a win it cannot count.
        let actions = [('a', win), ('b', win.in_plies(1))];
        assert_eq!(best_of(&actions), Some(('b', win.in_plies(1))));
        // Still a win below no draw, a loss above no draw.
        assert!(Proven::new(Wdl::Draw) > loss && Proven::new(Wdl::Draw) < win.in_plies(1));
    }

    /// Any value, from few enough plies and margins that equal values come up often.
    fn any_proven() -> impl Strategy<Value = Proven> {
        let outcome = prop_oneof![Just(Wdl::Win), Just(Wdl::Draw), Just(Wdl::Loss)];
        let plies = proptest::option::of(0u32..4);
        let margin = proptest::option::of(-3i32..4);
        (outcome, plies, margin).prop_map(|(outcome, plies, margin)| Proven {
            outcome,
            plies,
            margin,
        })
    }

    proptest! {
        #[test]
        fn the_order_is_total_and_agrees_with_eq(
            a in any_proven(),
            b in any_proven(),
            c in any_proven(),
        ) {
            prop_assert_eq!(a.cmp(&b) == Ordering::Equal, a == b);
            prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
            prop_assert_eq!(a.partial_cmp(&b), Some(a.cmp(&b)));
            if a <= b && b <= c {
                prop_assert!(a <= c, "{:?} <= {:?} <= {:?}", a, b, c);
            }
            if a < b && b < c {
                prop_assert!(a < c, "{:?} < {:?} < {:?}", a, b, c);
            }
        }

        #[test]
        fn the_worth_of_wins_and_losses_flips_one_ply_before(
            a in any_proven(),
            b in any_proven(),
        ) {
            // What is better for the player to move is worse for the one who moved there.
            if a.outcome != Wdl::Draw && b.outcome != Wdl::Draw {
                prop_assert_eq!(a.before().cmp(&b.before()), a.cmp(&b).reverse());
            }
        }
    }

    #[test]
    fn the_best_of_equal_values_is_the_first() {
        let win = Proven::new(Wdl::Win);
        assert_eq!(best_of(&[('a', win), ('b', win)]), Some(('a', win)));
        assert_eq!(best_of::<char>(&[]), None);
    }
}
