//! Simulation: how an iteration scores the position at the end of its path (a playout by
//! the game's policy or its own random playout, cut short by the evaluator, or the proven
//! result of a decided node), and the rewards the result is worth to each player.

use game_core::{Game, Outcome, PlayedActions, Player, Reward, Status, knowledge::Guide};
use rand::Rng;

use super::node::{NodeId, Proof};
use super::{Trace, TreeSearch};

/// The result of one simulation.
pub(crate) struct Simulation<G> {
    /// The position at the end of the game (or of the path, for a decided one).
    pub(crate) position: G,
    pub(crate) outcome: Outcome,
    /// Plies from the end of the path to the end of the game.
    pub(crate) plies: u32,
    /// Whether the game was already over at the end of the path.
    pub(crate) finished: bool,
    /// For a simulation cut short: the evaluator's win probability for the player to move in
    /// `position` (which goes on); `outcome` is then meaningless.
    pub(crate) value: Option<f64>,
}

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    /// How this search's simulations run, with `knowledge` (the tree's own, or a thread's
    /// copy of it for the simulations it runs outside the lock).
    pub(crate) fn rollout<'k>(&self, knowledge: &'k K) -> Rollout<'k, K> {
        Rollout {
            knowledge,
            cutoff: self.config.cutoff,
            record: self.rave.is_some(),
        }
    }

    /// The simulation phase on one thread, from `position` at the end of the trace's path.
    pub(crate) fn simulate<G>(&mut self, position: G, trace: &mut Trace) -> Simulation<G>
    where
        G: Game<Action = A>,
        K: Guide<G>,
    {
        let leaf = trace.leaf(&self.tree);
        let rollout = self.rollout(&self.knowledge);
        rollout.simulate(position, leaf, &mut self.rng, &mut trace.marked)
    }

    /// Expansion of every child at once: one playout from each new child of `node` (with the
    /// tree's random numbers, also on several threads), backed up at once.
    pub(crate) fn simulate_all_children<G>(
        &mut self,
        node: NodeId,
        position: &G,
        trace: &mut Trace,
    ) -> u64
    where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        let mover = position.to_move();
        self.tree.try_all_children(node);
        let path_len = trace.path.len();
        let current = self.tree[node];
        for child in current.child_ids() {
            trace.path.truncate(path_len);
            trace.path.push((child, mover));
            let start = position.after(self.tree[child].action);
            let simulation = self.simulate(start, trace);
            self.backpropagate(&simulation, trace, None);
        }
        u64::from(current.len)
    }
}

/// The reward of a simulation's result for each player: the reward of the finished game, or,
/// for a simulation cut short, the evaluator's win probability put between a loss and a win.
pub(crate) fn rewards<G: Game, R: Reward<G>>(reward: &R, simulation: &Simulation<G>) -> [f64; 2] {
    let position = &simulation.position;
    match simulation.value {
        Some(p) => Player::BOTH.map(|q| {
            let win = reward.reward(position, Outcome::Win(q), q);
            let loss = reward.reward(position, Outcome::Win(q.opponent()), q);
            let p = if q == position.to_move() { p } else { 1.0 - p };
            loss + p * (win - loss)
        }),
        None => Player::BOTH.map(|p| reward.reward(position, simulation.outcome, p)),
    }
}

/// How simulations run: with the game's knowledge (its playout policy and evaluator), cut
/// short after `cutoff` plies when there is an evaluator, marking the actions played when
/// `record` (RAVE).
pub(crate) struct Rollout<'a, K> {
    pub(crate) knowledge: &'a K,
    pub(crate) cutoff: Option<u32>,
    pub(crate) record: bool,
}

impl<K> Rollout<'_, K> {
    /// The simulation phase from `position` (the end of the path, whose node's proof and
    /// mover are `leaf`): a playout (by the policy, else the game's random playout), marking in
    /// `played` the actions each player plays when recording (in games that number their
    /// actions; emptied first); a position the solver has decided is not played out, its
    /// proven result stands for it; with a cut-off, a game still going after `cutoff` plies is
    /// scored by the evaluator.
    pub(crate) fn simulate<G, Rg>(
        &self,
        mut position: G,
        leaf: Option<(Proof, Player)>,
        rng: &mut Rg,
        played: &mut PlayedActions,
    ) -> Simulation<G>
    where
        G: Game,
        K: Guide<G>,
        Rg: Rng,
    {
        let space = if self.record {
            position.action_space()
        } else {
            None
        };
        if let Some(space) = space {
            played.clear(space);
        }
        let marks = space.map(|_| played);
        let mut value = None;
        let (outcome, plies, finished) = match position.status() {
            Status::Over(outcome) => (outcome, 0, true),
            Status::Ongoing => match leaf.and_then(|(proof, mover)| Some((proof.wdl()?, mover))) {
                Some((proven, mover)) => (proven.to_outcome(mover), 0, false),
                None => match self.cutoff {
                    Some(limit) => {
                        let (plies, status) =
                            self.knowledge.play_plies(&mut position, rng, limit, marks);
                        match status {
                            Status::Over(outcome) => (outcome, plies, false),
                            Status::Ongoing => {
                                value = Some(self.knowledge.evaluate(&position).unwrap_or(0.5));
                                (Outcome::Draw, plies, false)
                            }
                        }
                    }
                    None => {
                        let playout = self.knowledge.play_out(&mut position, rng, marks);
                        (playout.outcome, playout.plies, false)
                    }
                },
            },
        };
        Simulation {
            position,
            outcome,
            plies,
            finished,
            value,
        }
    }
}
