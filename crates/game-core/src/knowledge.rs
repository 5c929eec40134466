//! What a game knows, for Monte-Carlo search: a [`Prior`] over the legal actions, a
//! [`PlayoutPolicy`] for the simulations, and an [`Evaluator`] for positions where a
//! simulation stops early; bundled as [`Knowledge`] so that a game crate can ship its own
//! without depending on a search crate.

pub use crate::batch::{Batch, BatchEvaluator};
use rand::Rng;

use crate::{Evaluator, Game, PlayedActions, Playout, Status};

/// Weights for the legal actions of a position: how promising each looks before any search.
///
/// A search normalises the weights into probabilities (a sum of 0 counts as uniform). UCT uses
/// them in selection (PUCT: `Q + c·P·sqrt(N)/(1+n)`), so that moves the prior likes are tried
/// first and explored more. A weight of 0 prunes: PUCT never tries such a move while another
/// has weight (give it to moves that are never better than some other, such as Hex's dead
/// cells).
///
/// ```
/// use game_core::{Game, testing::TicTacToe, knowledge::Prior};
///
/// /// The centre first, then the corners.
/// struct Shape;
/// impl Prior<TicTacToe> for Shape {
///     fn weigh(&self, _: &TicTacToe, actions: &[game_core::testing::Cell], weights: &mut Vec<f32>) {
///         weights.extend(actions.iter().map(|cell| match cell.to_string().as_str() {
///             "b2" => 4.0,
///             "a1" | "a3" | "c1" | "c3" => 2.0,
///             _ => 1.0,
///         }));
///     }
/// }
/// let start = TicTacToe::new();
/// let mut weights = Vec::new();
/// Shape.weigh(&start, &start.legal_actions_vec(), &mut weights);
/// assert_eq!(weights.iter().sum::<f32>(), 4.0 + 4.0 * 2.0 + 4.0);
/// ```
pub trait Prior<G: Game> {
    /// Appends to `weights` one weight, finite and at least 0, for each of `actions` (the legal
    /// actions of `position`, an ongoing game), in their order.
    fn weigh(&self, position: &G, actions: &[G::Action], weights: &mut Vec<f32>);

    /// Knowledge too costly for every new node, which a search asks only of the nodes it
    /// visits often (UCT's `examine=N`: once, at a node's `N`-th visit), about `actions` (the
    /// legal actions of `position`, an ongoing game, in any order), written into `found`
    /// (empty when asked; the default finds nothing):
    ///
    /// - [`verdicts`](Examination::verdicts): what is *proven* about each action, one
    ///   [`Verdict`] per action in their order, or none at all for "nothing known". A verdict
    ///   must be exact: a search treats [`Verdict::Loss`] as a move never to play and, with its
    ///   solver on, as a proven result. Hex's virtual connections are the model: a move outside
    ///   the carrier of every threat of the opponent loses, and the key of a semi-connection
    ///   between the mover's edges wins.
    /// - [`replies`](Examination::replies): advice, not proof: after one of `actions`, which
    ///   answers of the opponent deserve to be searched first (in Hex, the moves that restore a
    ///   connection the action breaks into). UCT raises their priors in the child of that
    ///   action, expanding it for the purpose.
    ///
    /// ```
    /// use game_core::{Game, testing::TicTacToe, knowledge::{Examination, Prior, Verdict}};
    ///
    /// /// Sees a win in one.
    /// struct Wins;
    /// impl Prior<TicTacToe> for Wins {
    ///     fn weigh(&self, _: &TicTacToe, actions: &[game_core::testing::Cell], weights: &mut Vec<f32>) {
    ///         weights.extend(actions.iter().map(|_| 1.0));
    ///     }
    ///     fn examine(&self, position: &TicTacToe, actions: &[game_core::testing::Cell], found: &mut Examination<game_core::testing::Cell>) {
    ///         let mover = position.to_move();
    ///         found.verdicts.extend(actions.iter().map(|&action| {
    ///             match position.after(action).status().outcome() {
    ///                 Some(outcome) if outcome.winner() == Some(mover) => Verdict::Win,
    ///                 _ => Verdict::Unknown,
    ///             }
    ///         }));
    ///     }
    /// }
    /// let mut position = TicTacToe::new();
    /// for cell in ["a1", "b1", "a2", "b2"] {
    ///     position.play(cell.parse()?);
    /// }
    /// let actions = position.legal_actions_vec();
    /// let mut found = Examination::default();
    /// Wins.examine(&position, &actions, &mut found);
    /// let a3 = actions.iter().position(|a| a.to_string() == "a3").unwrap();
    /// assert_eq!(found.verdicts[a3], Verdict::Win);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn examine(&self, position: &G, actions: &[G::Action], found: &mut Examination<G::Action>) {
        let _ = (position, actions, found);
    }

    /// The move the game's opening book plays in `position` (an ongoing game), if the book
    /// has the position: knowledge computed ahead of play, as the prior's weights are, but
    /// deep enough to play without a search. `None` (the default) leaves the position to the
    /// search. A search asks it only when told to (`book=true` in UCT's specs), and plays the
    /// move only if it is legal.
    ///
    /// ```
    /// use game_core::{Game, testing::{Cell, TicTacToe}, knowledge::Prior};
    ///
    /// /// Takes the centre of an empty board.
    /// struct Centre;
    /// impl Prior<TicTacToe> for Centre {
    ///     fn weigh(&self, _: &TicTacToe, actions: &[Cell], weights: &mut Vec<f32>) {
    ///         weights.extend(actions.iter().map(|_| 1.0));
    ///     }
    ///     fn opening(&self, position: &TicTacToe) -> Option<Cell> {
    ///         (position.legal_actions_vec().len() == 9).then(|| "b2".parse().unwrap())
    ///     }
    /// }
    /// assert_eq!(Centre.opening(&TicTacToe::new()), Some("b2".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn opening(&self, position: &G) -> Option<G::Action> {
        let _ = position;
        None
    }
}

/// What [`Prior::examine`] has proven about one move, for the player making it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Verdict {
    /// Nothing proven.
    #[default]
    Unknown,
    /// The move wins with perfect play.
    Win,
    /// The move loses whatever the mover does next.
    Loss,
}

/// What [`Prior::examine`] found about the moves of a position: verdicts (proof) and replies
/// (advice). A search keeps one and clears it before each examination.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Examination<A> {
    /// One verdict per examined action, in their order, or none at all.
    pub verdicts: Vec<Verdict>,
    /// `(action, reply)`: after `action` (one of the examined actions), the opponent's `reply`
    /// deserves to be searched first. Any number, in any order; each reply must be legal
    /// after its action (the conformance kit checks it; a search ignores one that is not).
    pub replies: Vec<(A, A)>,
}

impl<A> Default for Examination<A> {
    fn default() -> Self {
        Examination {
            verdicts: Vec::new(),
            replies: Vec::new(),
        }
    }
}

impl<A> Examination<A> {
    /// Nothing found, keeping the memory.
    pub fn clear(&mut self) {
        self.verdicts.clear();
        self.replies.clear();
    }
}

/// How the simulation phase of a search chooses its moves.
///
/// A policy picks one action at a time ([`action`](PlayoutPolicy::action)); the provided
/// [`play_out`](PlayoutPolicy::play_out) plays it to the end of the game. A policy may answer a
/// threat, take a win, prefer a corner; [`Uniform`] is the game's own uniformly random playout.
///
/// ```
/// use game_core::{Game, testing::TicTacToe, knowledge::PlayoutPolicy};
/// use rand::SeedableRng;
///
/// /// Takes the centre when it is free, else plays at random.
/// struct Centre;
/// impl PlayoutPolicy<TicTacToe> for Centre {
///     fn action<R: rand::Rng + ?Sized>(&self, position: &TicTacToe, rng: &mut R) -> game_core::testing::Cell {
///         let centre = "b2".parse().unwrap();
///         if position.is_legal(centre) { centre } else { position.random_action(rng).unwrap() }
///     }
/// }
/// let mut position = TicTacToe::new();
/// let playout = Centre.play_out(&mut position, &mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!(position.status().is_over());
/// assert!(playout.plies >= 5);
/// ```
pub trait PlayoutPolicy<G: Game> {
    /// The action to play in `position`, an ongoing game: one of its legal actions.
    fn action<R: Rng + ?Sized>(&self, position: &G, rng: &mut R) -> G::Action;

    /// Plays `position` to the end with [`action`](PlayoutPolicy::action), and reports how it
    /// ended; like [`Game::random_playout`], it leaves the finished position behind.
    fn play_out<R: Rng + ?Sized>(&self, position: &mut G, rng: &mut R) -> Playout {
        finished(self.play_plies(position, rng, u32::MAX, None))
    }

    /// [`play_out`](PlayoutPolicy::play_out), marking the action numbers each player plays in
    /// `played` (for RAVE; see [`Game::random_playout_marked`]).
    fn play_out_marked<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        finished(self.play_plies(position, rng, u32::MAX, Some(played)))
    }

    /// Plays at most `plies` actions with [`action`](PlayoutPolicy::action), marking them in
    /// `played` if given; returns how many it played and the status it reached (a search that
    /// stops early evaluates the position, if the game goes on).
    fn play_plies<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        plies: u32,
        mut played: Option<&mut PlayedActions>,
    ) -> (u32, Status) {
        let mut done = 0;
        loop {
            let status = position.status();
            if status.is_over() || done == plies {
                return (done, status);
            }
            let action = self.action(position, rng);
            if let Some(played) = played.as_deref_mut() {
                played.insert(position.to_move(), position.action_index(action));
            }
            position.play(action);
            done += 1;
        }
    }
}

/// The playout of a game played to its end.
fn finished((plies, status): (u32, Status)) -> Playout {
    let outcome = status
        .outcome()
        .expect("a playout without a limit ends with the game");
    Playout { outcome, plies }
}

/// The uniform playout policy: the game's own [`Game::random_playout`] (and its marked
/// version), exactly what a search without a policy plays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Uniform;

impl<G: Game> PlayoutPolicy<G> for Uniform {
    #[inline]
    fn action<R: Rng + ?Sized>(&self, position: &G, rng: &mut R) -> G::Action {
        position
            .random_action(rng)
            .expect("a playout policy is asked about ongoing games")
    }

    #[inline]
    fn play_out<R: Rng + ?Sized>(&self, position: &mut G, rng: &mut R) -> Playout {
        position.random_playout(rng)
    }

    #[inline]
    fn play_out_marked<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        position.random_playout_marked(rng, played)
    }
}

/// No prior: every action weighs the same. The placeholder type of a [`Knowledge`] without one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct NoPrior;

impl<G: Game> Prior<G> for NoPrior {
    fn weigh(&self, _: &G, actions: &[G::Action], weights: &mut Vec<f32>) {
        weights.extend(actions.iter().map(|_| 1.0));
    }
}

/// No evaluation: every position is worth 0. The placeholder type of a [`Knowledge`] without
/// an evaluator.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct NoEvaluator;

impl<G: Game> Evaluator<G> for NoEvaluator {
    fn evaluate(&self, _: &G) -> i32 {
        0
    }
}

/// What a game knows, for a Monte-Carlo search: each part optional.
///
/// - `prior`: weights for the legal actions, used in selection;
/// - `policy`: how simulations choose their moves (none: the game's uniform random playout);
/// - `evaluator`: a heuristic value of a position, for simulations cut short; `scale` turns it
///   into a win probability for the player to move, `1 / (1 + exp(-value / scale))`: a value of
///   `scale` is worth about 73%, `2 * scale` 88%.
///
/// Game crates ship theirs (`games_connect4::knowledge()`, `games_othello::knowledge()`); a
/// search takes it whole and a spec turns each part on or off (`prior=game`, `playout=game`,
/// `cutoff=N`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Knowledge<P = NoPrior, L = Uniform, E = NoEvaluator> {
    /// Weights for the legal actions.
    pub prior: Option<P>,
    /// The simulations' moves.
    pub policy: Option<L>,
    /// A heuristic value of positions, for the player to move.
    pub evaluator: Option<E>,
    /// The evaluator's value that means a 73% chance of winning (`1 / (1 + e^-1)`).
    pub scale: f32,
}

impl Default for Knowledge {
    fn default() -> Self {
        Knowledge::NONE
    }
}

impl Knowledge {
    /// No knowledge at all: a plain search.
    pub const NONE: Knowledge = Knowledge {
        prior: None,
        policy: None,
        evaluator: None,
        scale: 1.0,
    };
}

impl<P, L, E> Knowledge<P, L, E> {
    /// This knowledge with `prior` as its prior.
    ///
    /// ```
    /// use game_core::knowledge::{Knowledge, NoPrior};
    ///
    /// let knowledge = Knowledge::NONE.with_prior(NoPrior);
    /// assert!(knowledge.prior.is_some() && knowledge.policy.is_none());
    /// ```
    #[must_use]
    pub fn with_prior<P2>(self, prior: P2) -> Knowledge<P2, L, E> {
        Knowledge {
            prior: Some(prior),
            policy: self.policy,
            evaluator: self.evaluator,
            scale: self.scale,
        }
    }

    /// This knowledge with `policy` as its playout policy.
    #[must_use]
    pub fn with_policy<L2>(self, policy: L2) -> Knowledge<P, L2, E> {
        Knowledge {
            prior: self.prior,
            policy: Some(policy),
            evaluator: self.evaluator,
            scale: self.scale,
        }
    }

    /// This knowledge with `evaluator`, whose value `scale` means a 73% chance of winning.
    #[must_use]
    pub fn with_evaluator<E2>(self, evaluator: E2, scale: f32) -> Knowledge<P, L, E2> {
        Knowledge {
            prior: self.prior,
            policy: self.policy,
            evaluator: Some(evaluator),
            scale,
        }
    }

    /// The win probability that the evaluator's `value` stands for, for the player to move:
    /// `1 / (1 + exp(-value / scale))`.
    ///
    /// ```
    /// let knowledge = game_core::knowledge::Knowledge::NONE.with_evaluator(game_core::knowledge::NoEvaluator, 100.0);
    /// assert_eq!(knowledge.win_probability(0), 0.5);
    /// assert!((knowledge.win_probability(100) - 0.731).abs() < 1e-3);
    /// assert!((knowledge.win_probability(-100) - 0.269).abs() < 1e-3);
    /// ```
    #[must_use]
    pub fn win_probability(&self, value: i32) -> f64 {
        1.0 / (1.0 + (-f64::from(value) / f64::from(self.scale)).exp())
    }
}

/// What a search asks of a [`Knowledge`], whatever its prior, policy and evaluator: the one
/// bound a search needs (`K: Guide<G>`), so that a search takes one type parameter for
/// knowledge, not three.
///
/// `Guide` is sealed: [`Knowledge<P, L, E>`](Knowledge), for every prior `P`, policy `L` and
/// evaluator `E` that work on `G`, is its only implementor. It is a bound, not a second way to
/// write knowledge: implement [`Prior`], [`PlayoutPolicy`] or [`Evaluator`] for your own
/// types and bundle them in a `Knowledge`.
pub trait Guide<G: Game>: sealed::Sealed {
    /// Whether there is a prior.
    fn has_prior(&self) -> bool;

    /// The prior's weights for `actions` (appended to `weights`); nothing without a prior.
    fn weigh(&self, position: &G, actions: &[G::Action], weights: &mut Vec<f32>);

    /// The prior's [`Prior::examine`] of `actions` (written into `found`); nothing without a
    /// prior.
    fn examine(&self, position: &G, actions: &[G::Action], found: &mut Examination<G::Action>);

    /// The prior's [`Prior::opening`] move for `position`; `None` without a prior.
    fn opening(&self, position: &G) -> Option<G::Action>;

    /// Plays `position` out: with the policy, or the game's own random playout without one;
    /// marking the actions in `played` if given.
    fn play_out<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        played: Option<&mut PlayedActions>,
    ) -> Playout;

    /// Plays at most `plies` actions (with the policy, or uniformly at random), marking them
    /// in `played` if given; returns how many and the status reached.
    fn play_plies<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        plies: u32,
        played: Option<&mut PlayedActions>,
    ) -> (u32, Status);

    /// The playout policy's action in `position` (ongoing); `None` without a policy.
    fn policy_action<R: Rng + ?Sized>(&self, position: &G, rng: &mut R) -> Option<G::Action>;

    /// The win probability of the player to move in `position` (ongoing) by the evaluator;
    /// `None` without one.
    fn evaluate(&self, position: &G) -> Option<f64>;
}

mod sealed {
    /// Implemented only by [`Knowledge`](super::Knowledge), so that no other type can
    /// implement [`Guide`](super::Guide).
    pub trait Sealed {}

    impl<P, L, E> Sealed for super::Knowledge<P, L, E> {}
}

impl<G, P, L, E> Guide<G> for Knowledge<P, L, E>
where
    G: Game,
    P: Prior<G>,
    L: PlayoutPolicy<G>,
    E: Evaluator<G>,
{
    #[inline]
    fn has_prior(&self) -> bool {
        self.prior.is_some()
    }

    fn weigh(&self, position: &G, actions: &[G::Action], weights: &mut Vec<f32>) {
        if let Some(prior) = &self.prior {
            prior.weigh(position, actions, weights);
        }
    }

    fn examine(&self, position: &G, actions: &[G::Action], found: &mut Examination<G::Action>) {
        if let Some(prior) = &self.prior {
            prior.examine(position, actions, found);
        }
    }

    fn opening(&self, position: &G) -> Option<G::Action> {
        self.prior.as_ref()?.opening(position)
    }

    #[inline]
    fn play_out<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        played: Option<&mut PlayedActions>,
    ) -> Playout {
        match (&self.policy, played) {
            (Some(policy), Some(played)) => policy.play_out_marked(position, rng, played),
            (Some(policy), None) => policy.play_out(position, rng),
            (None, Some(played)) => position.random_playout_marked(rng, played),
            (None, None) => position.random_playout(rng),
        }
    }

    fn play_plies<R: Rng + ?Sized>(
        &self,
        position: &mut G,
        rng: &mut R,
        plies: u32,
        played: Option<&mut PlayedActions>,
    ) -> (u32, Status) {
        match &self.policy {
            Some(policy) => policy.play_plies(position, rng, plies, played),
            None => Uniform.play_plies(position, rng, plies, played),
        }
    }

    fn policy_action<R: Rng + ?Sized>(&self, position: &G, rng: &mut R) -> Option<G::Action> {
        Some(self.policy.as_ref()?.action(position, rng))
    }

    #[inline]
    fn evaluate(&self, position: &G) -> Option<f64> {
        let evaluator = self.evaluator.as_ref()?;
        Some(self.win_probability(evaluator.evaluate(position)))
    }
}
