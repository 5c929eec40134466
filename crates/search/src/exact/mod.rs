//! Exact solving as an agent: [`SolverAgent`] plays a game's solver's best proven move and
//! falls back on another agent where the solver cannot finish; [`Prover`] is the solver every
//! game has.

mod prover;

use std::time::{Duration, Instant};

use game_core::{
    Game, Wdl,
    solve::{Proven, Solution, Solve},
};

use crate::{ActionStats, Agent, Budget, Report};

pub use prover::Prover;

/// The solver's time per move when the budget gives none (before its share).
pub(crate) const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Plays perfectly where an exact solver can prove the position in time, and like its
/// fallback agent elsewhere.
///
/// Each move, the solver gets `share` of the time ([`Solve::solve`] with that deadline). If
/// it proves the best action, the agent plays it: the fastest win, the slowest loss, or a
/// draw (the largest margin first, where the game has one), and its [`Report`] says what was
/// proven ([`Report::proven`]). If not, the fallback agent chooses with the time left, among
/// the actions the solver did not prove lost: when the fallback picks one proven lost, the
/// agent plays the fallback's most visited action that is not, or else the first such legal
/// action.
///
/// A budget without a time gives the solver [`DEFAULT_TIME`](SolverAgent::DEFAULT_TIME) times
/// `share`, and the fallback its iterations.
///
/// ```
/// use game_core::{Game, Wdl, testing::TicTacToe};
/// use search::{Agent, Budget, Prover, Random, SolverAgent};
/// use std::time::Duration;
///
/// let mut agent = SolverAgent::new(Prover::default(), Box::new(Random::new(1)));
/// let position: TicTacToe = "xo. / .x. / o..".parse()?;
/// let action = agent.choose(&position, &Budget::time(Duration::from_secs(1))).unwrap();
/// assert_eq!(action.to_string(), "c3"); // the diagonal, at once
/// let proven = agent.report().unwrap().proven.unwrap();
/// assert_eq!(proven.to_string(), "a win in 1 ply");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SolverAgent<G: Game, S> {
    solver: S,
    fallback: Box<dyn Agent<G> + Send>,
    share: f64,
    report: Option<Report<G::Action>>,
}

impl<G: Game, S: std::fmt::Debug> std::fmt::Debug for SolverAgent<G, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverAgent")
            .field("solver", &self.solver)
            .field("share", &self.share)
            .finish_non_exhaustive()
    }
}

impl<G: Game, S: Solve<G>> SolverAgent<G, S> {
    /// The solver's time when the budget gives none, before `share`.
    pub const DEFAULT_TIME: Duration = DEFAULT_TIME;

    /// An agent that tries `solver` for half of each move's time, then `fallback`.
    #[must_use]
    pub fn new(solver: S, fallback: Box<dyn Agent<G> + Send>) -> Self {
        SolverAgent {
            solver,
            fallback,
            share: 0.5,
            report: None,
        }
    }

    /// The same agent, giving the solver `share` (0 to 1) of each move's time.
    #[must_use]
    pub fn with_share(mut self, share: f64) -> Self {
        self.share = share.clamp(0.0, 1.0);
        self
    }

    /// The solver (for its node count, say).
    pub fn solver(&self) -> &S {
        &self.solver
    }

    /// The report of a proven choice: every proven action, best first.
    fn proven_report(
        &self,
        solution: &Solution<G::Action>,
        best: (G::Action, Proven),
        nodes: u64,
        elapsed: Duration,
    ) -> Report<G::Action> {
        let mut report = Report::new(Some(best.0), nodes, elapsed);
        report.nodes = usize::try_from(nodes).unwrap_or(usize::MAX);
        report.proven = Some(best.1);
        let mut actions = solution.actions.clone();
        actions.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        report.actions = actions.iter().map(|&(a, v)| stats(a, v)).collect();
        report
    }
}

/// A proven action's statistics: no visits, its result as the mean.
fn stats<A>(action: A, value: Proven) -> ActionStats<A> {
    ActionStats {
        action,
        visits: 0,
        mean: match value.outcome {
            Wdl::Win => f64::INFINITY,
            Wdl::Draw => 0.5,
            Wdl::Loss => f64::NEG_INFINITY,
        },
        proof: Some(value.outcome),
    }
}

impl<G: Game, S: Solve<G>> Agent<G> for SolverAgent<G, S> {
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            return None;
        }
        let start = Instant::now();
        let total = budget.time.unwrap_or(Self::DEFAULT_TIME);
        let nodes = self.solver.nodes();
        let solution = self
            .solver
            .solve(position, Some(start + total.mul_f64(self.share)));
        let nodes = self.solver.nodes() - nodes;
        if let Some(best) = solution.best {
            self.report = Some(self.proven_report(&solution, best, nodes, start.elapsed()));
            return Some(best.0);
        }
        let lost = |action: &G::Action| {
            solution
                .actions
                .iter()
                .any(|(a, v)| a == action && v.is_lost())
        };
        let rest = Budget {
            time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
            ..budget.clone()
        };
        let choice = self.fallback.choose(position, &rest)?;
        let report = self.fallback.report().cloned();
        let legal = position.legal_actions_vec();
        let choice = if lost(&choice) && !legal.iter().all(lost) {
            let visited = report
                .iter()
                .flat_map(|r| r.actions.iter().map(|s| s.action));
            visited
                .chain(legal.iter().copied())
                .find(|a| !lost(a))
                .unwrap_or(choice)
        } else {
            choice
        };
        let mut report = report.unwrap_or_else(|| Report::new(None, 0, Duration::ZERO));
        report.chosen = Some(choice);
        report.elapsed = start.elapsed();
        for (action, value) in &solution.actions {
            match report.actions.iter_mut().find(|s| s.action == *action) {
                Some(stats) => stats.proof = Some(value.outcome),
                None => report.actions.push(stats(*action, *value)),
            }
        }
        self.report = Some(report);
        Some(choice)
    }

    fn played(&mut self, position: &G, action: G::Action) {
        self.fallback.played(position, action);
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Random;
    use game_core::testing::TicTacToe;

    /// A solver that proves the given actions lost and gives up on the rest.
    struct Partial(Vec<String>);

    impl Solve<TicTacToe> for Partial {
        fn prove(&mut self, _: &TicTacToe, _: Option<Instant>) -> Option<Proven> {
            None
        }

        fn nodes(&self) -> u64 {
            0
        }

        fn solve(
            &mut self,
            position: &TicTacToe,
            _: Option<Instant>,
        ) -> Solution<game_core::testing::Cell> {
            let lost = position
                .legal_actions_vec()
                .into_iter()
                .filter(|a| self.0.contains(&a.to_string()))
                .map(|a| (a, Proven::new(Wdl::Loss)))
                .collect();
            Solution {
                actions: lost,
                best: None,
            }
        }
    }

    #[test]
    fn the_fallback_never_plays_a_move_proven_lost() {
        let all: Vec<String> = TicTacToe::new()
            .legal_actions_vec()
            .iter()
            .map(ToString::to_string)
            .collect();
        let open = "b2";
        let lost: Vec<String> = all.iter().filter(|c| *c != open).cloned().collect();
        for seed in 0..20 {
            let mut agent = SolverAgent::new(Partial(lost.clone()), Box::new(Random::new(seed)));
            let action = agent.choose(&TicTacToe::new(), &Budget::iterations(10));
            assert_eq!(action.unwrap().to_string(), open);
            let report = agent.report().unwrap();
            assert_eq!(report.proven, None);
            assert_eq!(
                report
                    .actions
                    .iter()
                    .filter(|s| s.proof == Some(Wdl::Loss))
                    .count(),
                8
            );
        }
        // With every move lost, the fallback's choice stands.
        let mut agent = SolverAgent::new(Partial(all), Box::new(Random::new(1)));
        assert!(
            agent
                .choose(&TicTacToe::new(), &Budget::iterations(10))
                .is_some()
        );
    }

    #[test]
    fn a_proven_choice_reports_every_action_best_first() {
        // x to move: c3 completes the diagonal; the other moves win later or not at all.
        let position: TicTacToe = "xo. / .x. / o..".parse().unwrap();
        let mut agent = SolverAgent::new(Prover::default(), Box::new(Random::new(1)));
        let action = agent.choose(&position, &Budget::time(Duration::from_secs(5)));
        let report = agent.report().unwrap();
        assert_eq!(report.chosen, action);
        assert_eq!(report.actions.len(), position.legal_actions_vec().len());
        assert_eq!(Some(report.actions[0].action), action);
        assert_eq!(report.proven.map(|p| p.outcome), Some(Wdl::Win));
        assert_eq!(report.proven.unwrap().plies, Some(1));
    }
}
