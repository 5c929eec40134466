//! The conformance kit: random games that check the rules of [`Game`] at every position.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Display};
use std::panic::{self, AssertUnwindSafe};
use std::str::FromStr;

use proptest::collection::vec;
use proptest::prelude::{Strategy, any};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

use crate::{Game, PlayError, PlayedActions, Player, Status};

/// Which rule a game broke. The kit's [`Failure`] carries one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Error)]
#[non_exhaustive]
pub enum Violation {
    /// The same action is listed twice by [`Game::legal_actions`].
    #[error("an action is listed twice among the legal actions")]
    DuplicateAction,
    /// [`Game::num_legal_actions`] disagrees with the length of the list.
    #[error("num_legal_actions disagrees with legal_actions")]
    CountMismatch,
    /// The game says it goes on, but lists no legal action.
    #[error("the status is ongoing but there is no legal action")]
    OngoingWithoutActions,
    /// The game is over, but lists legal actions.
    #[error("the game is over but legal actions are listed")]
    OverWithActions,
    /// [`Game::is_legal`] or [`Game::try_play`] rejects an action that is listed as legal.
    #[error("a listed legal action is rejected")]
    LegalRejected,
    /// [`Game::is_legal`] or [`Game::try_play`] accepts an action that is not listed as legal.
    #[error("an action that is not legal is accepted")]
    IllegalAccepted,
    /// A rejected [`Game::try_play`] changed the position, or gave the wrong error.
    #[error("a rejected try_play changed the position or gave the wrong error")]
    BadRejection,
    /// [`Game::try_play`] and [`Game::play_unchecked`] of the same action lead to different
    /// positions.
    #[error("try_play and play_unchecked disagree")]
    PlayMismatch,
    /// After an action the same player is to move again.
    #[error("an action did not pass the turn to the other player")]
    TurnNotPassed,
    /// Two equal positions have different [`Game::position_hash`]es (a clone, or the same
    /// position reached by two move orders).
    #[error("equal positions have different hashes")]
    HashMismatch,
    /// A position and the one after it have the same hash: a hash that ignores the board.
    #[error("a position and its successor have the same hash")]
    HashCollision,
    /// A clone is not equal to the original.
    #[error("a clone differs from its original")]
    CloneMismatch,
    /// An action's text does not parse back to the same action.
    #[error("an action's text does not parse back to the same action")]
    ActionText,
    /// A position's text does not parse back to the same position
    /// ([`Conformance::check_with_text`]).
    #[error("a position's text does not parse back to the same position")]
    PositionText,
    /// [`Game::random_action`] returned an illegal action, or `None` in an ongoing game, or an
    /// action in a finished one.
    #[error("random_action returned an action that is not legal, or none")]
    RandomActionIllegal,
    /// [`Game::random_action`] does not draw the legal actions with equal probability.
    #[error("random_action is not uniform over the legal actions")]
    RandomActionNotUniform,
    /// [`Game::random_playout`] left a position that is not over, or not over with the outcome
    /// it reported.
    #[error("random_playout's outcome disagrees with the final position")]
    PlayoutInconsistent,
    /// [`Game::random_playout`] does not give the outcomes of uniformly random play with their
    /// probabilities: its outcomes from the start position differ from those of move-by-move
    /// uniform play beyond chance (a chi-squared test over 600 games of each).
    #[error("random_playout's outcomes differ from uniformly random play's")]
    PlayoutBiased,
    /// [`Game::random_playout`] gave different results for the same random seed.
    #[error("random_playout is not reproducible from its seed")]
    PlayoutNotReproducible,
    /// [`Game::random_playout_marked`] (checked for games that number their actions) ended
    /// elsewhere than it said, gave different results or marks for the same random seed,
    /// marked an action number beyond the action space, or marked anything in a finished game.
    #[error("random_playout_marked is inconsistent, not reproducible, or marks out of range")]
    MarkedPlayout,
    /// A game that numbers its actions ([`Game::action_space`]) breaks the numbering's
    /// contract: a legal action's number is not below the action space, two legal actions of
    /// a position share a number, an action has different numbers in two positions, or the
    /// action space changes during a game.
    #[error("the action numbers break their contract (range, distinct, the same everywhere)")]
    ActionNumbering,
    /// A game's knowledge ([`Conformance::check_knowledge`]) broke its contract: a prior that
    /// does not give one finite weight of at least 0 per legal action, a playout policy that
    /// chose an illegal action or did not end the game, a cut-off that played past its limit
    /// or past the end of the game, or an evaluation that is not a probability.
    #[error("the game's knowledge breaks its contract (prior, playout policy or evaluator)")]
    Knowledge,
    /// A random game did not end within the kit's ply limit ([`Conformance::max_plies`]).
    #[error("a random game did not end within the ply limit")]
    NoTermination,
    /// A method of the game panicked.
    #[error("the game panicked")]
    Panicked,
}

/// A rule broken by a game, where, and how.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub struct Failure {
    /// The rule.
    pub violation: Violation,
    /// The actions, as text, that lead from the start position to where it broke (shrunk by
    /// proptest to a short sequence).
    pub path: Vec<String>,
    /// What exactly was seen.
    pub detail: String,
}

impl Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(
                f,
                "{} at the start position: {}",
                self.violation, self.detail
            )
        } else {
            write!(
                f,
                "{} after {}: {}",
                self.violation,
                self.path.join(" "),
                self.detail
            )
        }
    }
}

/// The conformance kit: plays random games from a start position and checks, at every
/// position, the rules that [`Game`] documents.
///
/// The games are generated by [proptest](https://docs.rs/proptest) from a fixed seed, so a run
/// is reproducible, and a failure is shrunk to a short sequence of actions before it is
/// reported. At every position of every game the kit checks that:
///
/// - the legal actions are unique, counted correctly, each accepted by `is_legal` and
///   `try_play`, and the same as `play_unchecked`; each passes the turn;
/// - actions seen elsewhere that are not legal here are refused by `is_legal` and `try_play`,
///   which leaves the position unchanged and says why (game over or illegal);
/// - the status says ongoing exactly when there is a legal action;
/// - clones are equal and hash equally; the same position reached by two move orders hashes
///   equally; a position and its successor hash differently;
/// - every legal action's text parses back to it;
/// - for games that number their actions: every legal action's number is below the action
///   space, the legal actions of a position have distinct numbers, an action keeps its number
///   from one position to the next, and the action space stays the same;
/// - `random_action` returns a legal action (`None` when the game is over) and, at a few
///   positions, is uniform by a chi-squared test;
/// - `random_playout` ends in a finished position with the outcome it reports, and repeats
///   itself exactly for the same seed; so does `random_playout_marked` (for games that number
///   their actions), whose marks repeat too and stay within the action space;
/// - the game ends within [`max_plies`](Conformance::max_plies).
///
/// ```
/// use game_core::testing::{Conformance, TicTacToe};
///
/// Conformance::new().cases(32).assert(&TicTacToe::new());
/// ```
#[derive(Clone, Debug)]
pub struct Conformance {
    cases: u32,
    max_plies: usize,
    seed: u64,
}

impl Default for Conformance {
    fn default() -> Self {
        Conformance {
            cases: 64,
            max_plies: 1_000,
            seed: 0x6761_6d65_7365_6172,
        }
    }
}

impl Conformance {
    /// 64 random games of at most 1,000 plies each, from a fixed seed.
    #[must_use]
    pub fn new() -> Self {
        Conformance::default()
    }

    /// How many random games to play. Each costs a few clones per legal action per ply.
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// The longest game allowed; a longer one is reported as [`Violation::NoTermination`].
    #[must_use]
    pub fn max_plies(mut self, max_plies: usize) -> Self {
        self.max_plies = max_plies;
        self
    }

    /// The seed of the random games.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Checks the game's rules on random games from `start`.
    ///
    /// # Errors
    ///
    /// The first broken rule, at the shortest sequence of actions proptest could find.
    pub fn check<G: Game>(&self, start: &G) -> Result<(), Failure> {
        self.run(start, |_| Ok(()))
    }

    /// Like [`check`](Conformance::check), and also checks at every position that the
    /// position's text (`Display`) parses back (`FromStr`) to the same position.
    ///
    /// # Errors
    ///
    /// As [`check`](Conformance::check); a text that does not round-trip is
    /// [`Violation::PositionText`].
    pub fn check_with_text<G>(&self, start: &G) -> Result<(), Failure>
    where
        G: Game + FromStr<Err: Display>,
    {
        self.run(start, |position| match position.to_string().parse::<G>() {
            Ok(parsed) if parsed == *position => Ok(()),
            Ok(parsed) => Err((
                Violation::PositionText,
                format!("{position:?} came back as {parsed:?}"),
            )),
            Err(e) => Err((
                Violation::PositionText,
                format!("{position:?} did not parse back: {e}"),
            )),
        })
    }

    /// Checks a game's knowledge (a prior, a playout policy, an evaluator: see
    /// [`Knowledge`](crate::knowledge::Knowledge)) at every position of the kit's random games from
    /// `start`: the prior gives one finite weight of at least 0 per legal action, and its
    /// `examine` one verdict per action (or none), which for a move that ends the game is its
    /// result, and replies only after examined actions and legal after them, and its `opening` move, where it has one, is legal; the policy's
    /// action is legal, its playout ends in a finished position that says how it ended, and
    /// repeats itself for the same seed; a cut-off plays at most its plies and stops at the end
    /// of the game; the evaluation is a probability. A part the knowledge does not have is
    /// not checked. Everything [`check`](Conformance::check) checks is checked too.
    ///
    /// ```
    /// use game_core::knowledge::Knowledge;
    /// use game_core::testing::{Conformance, TicTacToe};
    ///
    /// Conformance::new().cases(16).check_knowledge(&TicTacToe::new(), &Knowledge::NONE).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// The first broken rule, as [`Violation::Knowledge`] (or [`Violation::Panicked`]).
    pub fn check_knowledge<G, K>(&self, start: &G, knowledge: &K) -> Result<(), Failure>
    where
        G: Game,
        K: crate::knowledge::Guide<G>,
    {
        self.run(start, |position| {
            check_knowledge_at(position, knowledge, self.seed)
        })
    }

    /// Runs [`check`](Conformance::check) and panics with the failure.
    ///
    /// # Panics
    ///
    /// When the game breaks a rule; the message says which, where, and what was seen.
    #[track_caller]
    pub fn assert<G: Game>(&self, start: &G) {
        if let Err(failure) = self.check(start) {
            panic!(
                "{} failed the conformance kit: {failure}",
                std::any::type_name::<G>()
            );
        }
    }

    fn run<G, F>(&self, start: &G, extra: F) -> Result<(), Failure>
    where
        G: Game,
        F: Fn(&G) -> Result<(), (Violation, String)>,
    {
        // The rules of moves first, over all the games; then the random methods, whose playouts
        // wander off the checked path and would otherwise report a broken rule as a panic.
        self.phase(&Walker {
            start,
            max_plies: self.max_plies,
            extra: &extra,
            phase: Phase::Rules,
        })?;
        let walker = Walker {
            start,
            max_plies: self.max_plies,
            extra: &extra,
            phase: Phase::Random,
        };
        catch(|| walker.uniformity(self.seed))?;
        self.phase(&walker)?;
        catch(|| walker.playout_distribution(self.seed))
    }

    fn phase<G, F>(&self, walker: &Walker<'_, G, F>) -> Result<(), Failure>
    where
        G: Game,
        F: Fn(&G) -> Result<(), (Violation, String)>,
    {
        let config = Config {
            cases: self.cases,
            failure_persistence: None,
            max_shrink_iters: 512,
            ..Config::default()
        };
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&self.seed.to_le_bytes());
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        // The seed only varies the checks; the choices are the game, and shrink to a short one.
        let games = (
            any::<u64>().no_shrink(),
            vec(any::<u32>(), 0..=self.max_plies),
        );
        let result = runner.run(&games, |(seed, choices)| {
            walker
                .game(seed, &choices)
                .map_err(|f| TestCaseError::fail(f.to_string()))
        });
        match result {
            Ok(()) => Ok(()),
            Err(TestError::Fail(reason, (seed, choices))) => {
                // Replay the shrunk game to report the failure as a value, not a string.
                Err(catch(|| walker.game(seed, &choices))
                    .err()
                    .unwrap_or_else(|| Failure {
                        violation: Violation::Panicked,
                        path: Vec::new(),
                        detail: reason.to_string(),
                    }))
            }
            Err(TestError::Abort(reason)) => Err(Failure {
                violation: Violation::Panicked,
                path: Vec::new(),
                detail: format!("proptest aborted: {reason}"),
            }),
        }
    }
}

/// The contract of a game's knowledge at one position (see [`Conformance::check_knowledge`]).
fn check_knowledge_at<G, K>(
    position: &G,
    knowledge: &K,
    seed: u64,
) -> Result<(), (Violation, String)>
where
    G: Game,
    K: crate::knowledge::Guide<G>,
{
    let fail = |detail: String| Err((Violation::Knowledge, detail));
    if position.status().is_over() {
        return Ok(());
    }
    let actions = position.legal_actions_vec();
    if knowledge.has_prior() {
        let mut weights = Vec::new();
        knowledge.weigh(position, &actions, &mut weights);
        if weights.len() != actions.len() {
            return fail(format!(
                "the prior gave {} weights for {} legal actions",
                weights.len(),
                actions.len()
            ));
        }
        if let Some((action, weight)) = actions
            .iter()
            .zip(&weights)
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return fail(format!("the prior gave {action} the weight {weight}"));
        }
        let mut found = crate::knowledge::Examination::default();
        knowledge.examine(position, &actions, &mut found);
        for &(action, reply) in &found.replies {
            if !actions.contains(&action) {
                return fail(format!(
                    "the prior's examine gave a reply after {action}, which it was not asked about, in\n{position}"
                ));
            }
            if !position.after(action).is_legal(reply) {
                return fail(format!(
                    "the prior's examine gave the reply {reply} after {action}, which is not legal then, in\n{position}"
                ));
            }
        }
        let verdicts = found.verdicts;
        if !verdicts.is_empty() && verdicts.len() != actions.len() {
            return fail(format!(
                "the prior's examine gave {} verdicts for {} legal actions",
                verdicts.len(),
                actions.len()
            ));
        }
        // A verdict on a move that ends the game must be its result.
        let mover = position.to_move();
        for (&action, &verdict) in actions.iter().zip(&verdicts) {
            let result = position.after(action).status().outcome();
            let contradicted = match (verdict, result) {
                (crate::knowledge::Verdict::Win, Some(outcome)) => outcome.winner() != Some(mover),
                (crate::knowledge::Verdict::Loss, Some(outcome)) => {
                    outcome.winner() != Some(mover.opponent())
                }
                _ => false,
            };
            if contradicted {
                return fail(format!(
                    "the prior's examine called {action} a {verdict:?}, but it ends the game as {result:?} in\n{position}"
                ));
            }
        }
        if let Some(action) = knowledge.opening(position)
            && !position.is_legal(action)
        {
            return fail(format!(
                "the prior's opening book plays {action}, which is not legal in\n{position}"
            ));
        }
    }
    // The policy's own playout, one checked action at a time.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut walk = position.clone();
    while !walk.status().is_over() {
        let Some(action) = knowledge.policy_action(&walk, &mut rng) else {
            break;
        };
        if !walk.is_legal(action) {
            return fail(format!(
                "the playout policy chose {action}, which is not legal in\n{walk}"
            ));
        }
        walk.play_unchecked(action);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut first = position.clone();
    let playout = knowledge.play_out(&mut first, &mut rng, None);
    if first.status() != Status::Over(playout.outcome) {
        return fail(format!(
            "the playout reported {playout:?} but ended in status {:?}",
            first.status()
        ));
    }
    let mut second = position.clone();
    let again = knowledge.play_out(
        &mut second,
        &mut Xoshiro256PlusPlus::seed_from_u64(seed),
        None,
    );
    if again != playout || second != first {
        return fail(format!(
            "the playout gave {playout:?}, then {again:?} for the same seed"
        ));
    }
    for limit in [0, 1, 3] {
        let mut cut = position.clone();
        let (plies, status) = knowledge.play_plies(&mut cut, &mut rng, limit, None);
        if plies > limit || status != cut.status() || (plies < limit && status == Status::Ongoing) {
            return fail(format!(
                "a cut-off of {limit} plies played {plies} and reported {status:?} (the position says {:?})",
                cut.status()
            ));
        }
        if status == Status::Ongoing
            && let Some(p) = knowledge.evaluate(&cut)
            && !(0.0..=1.0).contains(&p)
        {
            return fail(format!("the evaluation gave the probability {p}"));
        }
    }
    Ok(())
}

/// Actions in the game's notation, separated by spaces (`none` for no action).
fn notation<A: Display>(actions: impl IntoIterator<Item = A>) -> String {
    let text: Vec<String> = actions.into_iter().map(|a| a.to_string()).collect();
    if text.is_empty() {
        "none".to_owned()
    } else {
        text.join(" ")
    }
}

/// Runs `f`, turning a panic into a [`Violation::Panicked`] failure.
fn catch(f: impl FnOnce() -> Result<(), Failure>) -> Result<(), Failure> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Err(Failure {
            violation: Violation::Panicked,
            path: Vec::new(),
            detail: message,
        })
    })
}

/// What a walk checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Legal actions, playing them, status, hashes, text.
    Rules,
    /// `random_action` and `random_playout`.
    Random,
}

/// Plays one random game and checks every position on the way.
struct Walker<'a, G, F> {
    start: &'a G,
    max_plies: usize,
    extra: &'a F,
    phase: Phase,
}

/// The state of one game being checked.
struct Visit<A> {
    path: Vec<A>,
    /// Actions seen legal anywhere in this game: candidates for illegal actions elsewhere.
    pool: Vec<A>,
    seen: HashSet<A>,
    /// Numbered actions: the action space of the first position, and each action's number
    /// where it was first seen legal.
    space: Option<Option<usize>>,
    numbers: HashMap<A, usize>,
    rng: Xoshiro256PlusPlus,
}

impl<A: Display> Visit<A> {
    fn fail(&self, violation: Violation, detail: String) -> Failure {
        failure(&self.path, violation, detail)
    }
}

fn failure<A: Display>(path: &[A], violation: Violation, detail: String) -> Failure {
    Failure {
        violation,
        path: path.iter().map(ToString::to_string).collect(),
        detail,
    }
}

/// How many pool actions are tried as illegal actions per position.
const ILLEGAL_TRIES: usize = 24;

impl<G, F> Walker<'_, G, F>
where
    G: Game,
    F: Fn(&G) -> Result<(), (Violation, String)>,
{
    /// Plays the game that `choices` describes (the `i`-th action index, modulo the number of
    /// legal actions; the first action once the choices run out) and checks every position.
    fn game(&self, seed: u64, choices: &[u32]) -> Result<(), Failure> {
        let mut visit = Visit {
            path: Vec::new(),
            pool: Vec::new(),
            seen: HashSet::new(),
            space: None,
            numbers: HashMap::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        };
        let mut position = self.start.clone();
        for ply in 0.. {
            let actions = match self.phase {
                Phase::Rules => self.rules(&position, &mut visit)?,
                Phase::Random => self.random(&position, &mut visit)?,
            };
            if actions.is_empty() {
                return Ok(());
            }
            if ply >= self.max_plies {
                return Err(visit.fail(
                    Violation::NoTermination,
                    format!("still going after {} plies", self.max_plies),
                ));
            }
            let choice = choices.get(ply).map_or(0, |&c| c as usize % actions.len());
            position.play_unchecked(actions[choice]);
            visit.path.push(actions[choice]);
        }
        unreachable!("the loop returns")
    }

    /// Checks the rules of moves at one position; returns its legal actions.
    fn rules(&self, position: &G, visit: &mut Visit<G::Action>) -> Result<Vec<G::Action>, Failure> {
        let actions = position.legal_actions_vec();
        let status = position.status();
        let path = &visit.path;
        let fail = |violation, detail: String| {
            Err(failure(path, violation, format!("{detail} in\n{position}")))
        };

        if let Err((v, detail)) = (self.extra)(position) {
            return fail(v, detail);
        }
        let clone = position.clone();
        if clone != *position {
            return fail(
                Violation::CloneMismatch,
                format!("{clone:?} != {position:?}"),
            );
        }
        if clone.position_hash() != position.position_hash() {
            return fail(Violation::HashMismatch, "a clone hashes differently".into());
        }
        match (status, actions.is_empty()) {
            (Status::Ongoing, true) => {
                return fail(Violation::OngoingWithoutActions, "no action".into());
            }
            (Status::Over(o), false) => {
                return fail(
                    Violation::OverWithActions,
                    format!(
                        "the game is over ({o}) but {} are listed",
                        notation(&actions)
                    ),
                );
            }
            _ => {}
        }
        let mut unique = HashSet::with_capacity(actions.len());
        if let Some(dup) = actions.iter().find(|&&a| !unique.insert(a)) {
            return fail(Violation::DuplicateAction, format!("{dup} is listed twice"));
        }
        if position.num_legal_actions() != actions.len() {
            let n = position.num_legal_actions();
            return fail(
                Violation::CountMismatch,
                format!("num_legal_actions is {n}, the list has {}", actions.len()),
            );
        }

        let hash = position.position_hash();
        for &action in &actions {
            let text = action.to_string();
            match text.parse::<G::Action>() {
                Ok(parsed) if parsed == action => {}
                Ok(parsed) => {
                    return fail(
                        Violation::ActionText,
                        format!("{action:?} prints as {text:?}, which parses as {parsed:?}"),
                    );
                }
                Err(e) => {
                    return fail(
                        Violation::ActionText,
                        format!("{action:?} prints as {text:?}, which does not parse: {e}"),
                    );
                }
            }
            if !position.is_legal(action) {
                return fail(
                    Violation::LegalRejected,
                    format!("is_legal({action}) is false"),
                );
            }
            let mut tried = position.clone();
            if let Err(e) = tried.try_play(action) {
                return fail(
                    Violation::LegalRejected,
                    format!("try_play({action}) failed: {e}"),
                );
            }
            let mut played = position.clone();
            played.play_unchecked(action);
            if tried != played || tried.position_hash() != played.position_hash() {
                return fail(
                    Violation::PlayMismatch,
                    format!("after {action}: {tried:?} vs {played:?}"),
                );
            }
            if played.to_move() == position.to_move() {
                return fail(
                    Violation::TurnNotPassed,
                    format!("{} is to move again after {action}", played.to_move()),
                );
            }
            if played.position_hash() == hash {
                return fail(
                    Violation::HashCollision,
                    format!("{action} does not change the hash {hash:#x}"),
                );
            }
            if visit.seen.insert(action) {
                visit.pool.push(action);
            }
        }

        // Actions seen elsewhere that are not legal here must be refused without a trace.
        let candidates = visit
            .pool
            .iter()
            .filter(|a| !unique.contains(a))
            .take(ILLEGAL_TRIES);
        for &action in candidates {
            if position.is_legal(action) {
                return fail(
                    Violation::IllegalAccepted,
                    format!("is_legal({action}) is true but it is not listed"),
                );
            }
            let mut tried = position.clone();
            let result = tried.try_play(action);
            let expected = if status.is_over() {
                PlayError::GameOver(action)
            } else {
                PlayError::Illegal(action)
            };
            match result {
                Ok(()) => {
                    return fail(
                        Violation::IllegalAccepted,
                        format!("try_play({action}) succeeded but it is not listed"),
                    );
                }
                Err(e) if e != expected || tried != *position => {
                    return fail(
                        Violation::BadRejection,
                        format!("try_play({action}) answered {e:?}, position now {tried:?}"),
                    );
                }
                Err(_) => {}
            }
        }

        self.numbering(position, &actions, visit)?;
        self.transposition(position, visit)?;
        Ok(actions)
    }

    /// The contract of numbered actions at one position: below the action space, distinct,
    /// the same number as wherever the action was seen before, the same action space.
    fn numbering(
        &self,
        position: &G,
        actions: &[G::Action],
        visit: &mut Visit<G::Action>,
    ) -> Result<(), Failure> {
        let space = position.action_space();
        let fail = |detail: String| {
            Err(failure(
                &visit.path,
                Violation::ActionNumbering,
                format!("{detail} in\n{position}"),
            ))
        };
        match visit.space {
            None => visit.space = Some(space),
            Some(first) if first != space => {
                return fail(format!(
                    "the action space is {space:?} here, {first:?} at the start"
                ));
            }
            Some(_) => {}
        }
        let Some(space) = space else {
            return Ok(());
        };
        let mut owner: HashMap<usize, G::Action> = HashMap::with_capacity(actions.len());
        for &action in actions {
            let number = position.action_index(action);
            if number >= space {
                return fail(format!(
                    "{action} has number {number}, not below the action space {space}"
                ));
            }
            if let Some(other) = owner.insert(number, action) {
                return fail(format!("{other} and {action} both have number {number}"));
            }
            // `action_from_index` is optional (None by default); a game that offers it must
            // give back the action it numbered.
            match position.action_from_index(number) {
                Some(back) if back != action => {
                    return fail(format!(
                        "{action} has number {number}, but action_from_index({number}) is {back}"
                    ));
                }
                _ => {}
            }
            match visit.numbers.insert(action, number) {
                Some(before) if before != number => {
                    return fail(format!(
                        "{action} has number {number} here, {before} in an earlier position"
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Checks `random_action` and `random_playout` at one position; returns its legal actions.
    fn random(
        &self,
        position: &G,
        visit: &mut Visit<G::Action>,
    ) -> Result<Vec<G::Action>, Failure> {
        let actions = position.legal_actions_vec();
        let status = position.status();
        match (position.random_action(&mut visit.rng), status) {
            (None, Status::Over(_)) => {}
            (Some(a), Status::Ongoing) if actions.contains(&a) => {}
            (got, _) => {
                let detail = format!(
                    "random_action gave {}, status {status:?} in\n{position}",
                    notation(got)
                );
                return Err(visit.fail(Violation::RandomActionIllegal, detail));
            }
        }
        self.playout(position, visit)?;
        Ok(actions)
    }

    /// `random_playout` ends where it says, and repeats itself for the same seed.
    fn playout(&self, position: &G, visit: &mut Visit<G::Action>) -> Result<(), Failure> {
        let seed = visit.rng.random::<u64>();
        let mut first = position.clone();
        let result = first.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        if first.status() != Status::Over(result.outcome) {
            let detail = format!(
                "reported {:?}, final status {:?} in\n{first}",
                result,
                first.status()
            );
            return Err(visit.fail(Violation::PlayoutInconsistent, detail));
        }
        if position.status().is_over() && (result.plies != 0 || first != *position) {
            let detail = format!("from a finished position it played {} plies", result.plies);
            return Err(visit.fail(Violation::PlayoutInconsistent, detail));
        }
        let mut second = position.clone();
        let again = second.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        if again != result || second != first {
            let detail = format!(
                "seed {seed} gave {result:?} ending in\n{first}\nthen {again:?} ending in\n{second}"
            );
            return Err(visit.fail(Violation::PlayoutNotReproducible, detail));
        }
        self.marked_playout(position, seed, visit)
    }

    /// `random_playout_marked` ends where it says, repeats itself and its marks for the same
    /// seed, marks only action numbers below the action space, and nothing in a finished game.
    fn marked_playout(
        &self,
        position: &G,
        seed: u64,
        visit: &mut Visit<G::Action>,
    ) -> Result<(), Failure> {
        let Some(space) = position.action_space() else {
            return Ok(());
        };
        let run = || {
            let mut played = PlayedActions::default();
            played.clear(space);
            let mut end = position.clone();
            let playout = end
                .random_playout_marked(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &mut played);
            (end, playout, played)
        };
        let (end, playout, played) = run();
        let fail = |detail: String| Err(visit.fail(Violation::MarkedPlayout, detail));
        if end.status() != Status::Over(playout.outcome) {
            return fail(format!(
                "reported {playout:?}, final status {:?} in\n{end}",
                end.status()
            ));
        }
        let beyond = (space..space.div_ceil(64) * 64)
            .find(|&i| Player::BOTH.iter().any(|&p| played.contains(p, i)));
        if let Some(i) = beyond {
            return fail(format!(
                "marked action number {i}, beyond the action space {space}"
            ));
        }
        let mut none = PlayedActions::default();
        none.clear(space);
        if position.status().is_over() && (playout.plies != 0 || played != none) {
            return fail(format!(
                "from a finished position it played {} plies",
                playout.plies
            ));
        }
        if run() != (end, playout, played) {
            return fail(format!("seed {seed} gave different results or marks"));
        }
        Ok(())
    }

    /// Plays `a c b` and `b c a` from `position` (`a`, `b` by the mover, `c` by the opponent);
    /// where both sequences are legal and reach equal positions, their hashes must agree.
    fn transposition(&self, position: &G, visit: &mut Visit<G::Action>) -> Result<(), Failure> {
        let actions = position.legal_actions_vec();
        if actions.len() < 2 {
            return Ok(());
        }
        let i = visit.rng.random_range(0..actions.len());
        let j = (i + visit.rng.random_range(1..actions.len())) % actions.len();
        let (a, b) = (actions[i], actions[j]);
        let after_a = position.after(a);
        let Some(c) = after_a.random_action(&mut visit.rng) else {
            return Ok(());
        };
        let mut first = after_a;
        let mut second = position.after(b);
        let legal = [
            first.try_play(c),
            first.try_play(b),
            second.try_play(c),
            second.try_play(a),
        ];
        if legal.iter().all(Result::is_ok)
            && first == second
            && first.position_hash() != second.position_hash()
        {
            let detail = format!(
                "{a} {c} {b} and {b} {c} {a} reach the same position with hashes {:#x} and {:#x}",
                first.position_hash(),
                second.position_hash()
            );
            return Err(visit.fail(Violation::HashMismatch, detail));
        }
        Ok(())
    }

    /// The outcomes of `random_playout` from the start position against those of move-by-move
    /// uniform play (`random_action` and `play`): a chi-squared test of homogeneity over
    /// [`PLAYOUTS`] games each, with a bound that the same distribution exceeds with a
    /// probability of about 10⁻⁷, while a playout that moves an outcome's probability by 20
    /// points or more fails it.
    fn playout_distribution(&self, seed: u64) -> Result<(), Failure> {
        const PLAYOUTS: usize = 600;
        if self.start.status().is_over() {
            return Ok(());
        }
        let index = |outcome: crate::Outcome| match outcome {
            crate::Outcome::Win(Player::Black) => 0,
            crate::Outcome::Draw => 1,
            crate::Outcome::Win(Player::White) => 2,
        };
        let mut counts = [[0usize; 3]; 2];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x706c_6179_6f75_7400);
        for _ in 0..PLAYOUTS {
            let mut fast = self.start.clone();
            counts[0][index(fast.random_playout(&mut rng).outcome)] += 1;
            let mut slow = self.start.clone();
            for _ in 0..self.max_plies {
                match slow.random_action(&mut rng) {
                    Some(action) => slow.play_unchecked(action),
                    None => break,
                }
            }
            if let Status::Over(outcome) = slow.status() {
                counts[1][index(outcome)] += 1;
            }
        }
        let totals = [
            counts[0].iter().sum::<usize>(),
            counts[1].iter().sum::<usize>(),
        ];
        let all = (totals[0] + totals[1]) as f64;
        let mut chi2 = 0.0;
        for (fast, slow) in counts[0].iter().zip(&counts[1]) {
            let column = (fast + slow) as f64;
            for (count, total) in [(fast, totals[0]), (slow, totals[1])] {
                let expected = column * total as f64 / all;
                if expected > 0.0 {
                    chi2 += (*count as f64 - expected).powi(2) / expected;
                }
            }
        }
        // Two degrees of freedom: P(chi2 > 32) = e^-16 ≈ 1.1e-7.
        if chi2 > 32.0 {
            let detail = format!(
                "from the start, random_playout gave Black, draw, White {:?} and uniform play {:?} in {PLAYOUTS} games each (chi-squared {chi2:.1} > 32)",
                counts[0], counts[1]
            );
            return Err(failure::<G::Action>(&[], Violation::PlayoutBiased, detail));
        }
        Ok(())
    }

    /// A chi-squared test of `random_action` at the start and at two later positions of one
    /// random game, with a bound that a uniform generator fails with negligible probability.
    fn uniformity(&self, seed: u64) -> Result<(), Failure> {
        const DRAWS_PER_ACTION: usize = 64;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x756e_6966_6f72_6d00);
        let mut position = self.start.clone();
        let mut path = Vec::new();
        for _ in 0..3 {
            let actions = position.legal_actions_vec();
            if actions.len() < 2 {
                break;
            }
            let draws = DRAWS_PER_ACTION * actions.len();
            let mut counts = vec![0usize; actions.len()];
            for _ in 0..draws {
                let drawn = position.random_action(&mut rng);
                if let Some(k) = drawn.and_then(|a| actions.iter().position(|&b| b == a)) {
                    counts[k] += 1;
                } else {
                    let detail = format!(
                        "random_action gave {}, legal are {}",
                        notation(drawn),
                        notation(&actions)
                    );
                    return Err(failure(&path, Violation::RandomActionIllegal, detail));
                }
            }
            let expected = DRAWS_PER_ACTION as f64;
            let chi2: f64 = counts
                .iter()
                .map(|&c| (c as f64 - expected).powi(2) / expected)
                .sum();
            let df = (actions.len() - 1) as f64;
            let bound = df + 8.0 * (2.0 * df).sqrt() + 8.0;
            if chi2 > bound {
                let detail = format!(
                    "chi-squared {chi2:.1} > {bound:.1} over {draws} draws: counts {counts:?} for {}",
                    notation(&actions)
                );
                return Err(failure(&path, Violation::RandomActionNotUniform, detail));
            }
            let next = actions[rng.random_range(0..actions.len())];
            position.play_unchecked(next);
            path.push(next);
        }
        Ok(())
    }
}
