//! Backpropagation: a simulation's result carried up the path ([`back_up`], for both trees),
//! with, on the one-threaded tree, RAVE's statistics, the solver's proofs and the virtual
//! loss of tree parallelisation under a lock.

use game_core::{Game, Outcome, Player, Reward, knowledge::Guide};

use super::UctConfig;
use super::node::{NodeId, Nodes};
use super::simulate::{Simulation, rewards};
use super::solver::carry_proofs;
use super::{Trace, TreeSearch};

impl<A: Copy + PartialEq, R, K> TreeSearch<A, R, K> {
    /// Counts the iteration now under way on `trace`'s path as a loss for every player who
    /// moved there (tree parallelisation's virtual loss), so that other threads selecting
    /// meanwhile prefer other paths. [`backpropagate`](Self::backpropagate) with
    /// `virtual_loss` replaces it by the real result.
    pub(crate) fn add_virtual_loss(&mut self, trace: &Trace, losses: [f64; 2]) {
        self.tree[NodeId::ROOT].visits += 1;
        for &(id, mover) in &trace.path {
            self.tree[id].record(losses[mover.index()]);
        }
    }

    /// Backs the result of `simulation` up the trace's path (replacing the virtual loss
    /// `virtual_loss` the path's nodes already count, if any); with the solver, a finished game
    /// at the end of the path proves its node, and new proofs are carried up the path.
    pub(crate) fn backpropagate<G>(
        &mut self,
        simulation: &Simulation<G>,
        trace: &mut Trace,
        virtual_loss: Option<[f64; 2]>,
    ) where
        G: Game<Action = A>,
        R: Reward<G>,
        K: Guide<G>,
    {
        if virtual_loss.is_none() {
            self.tree[NodeId::ROOT].visits += 1;
        }
        let rewards = back_up(
            &mut self.tree,
            &self.config,
            &self.reward,
            simulation,
            &trace.path,
            virtual_loss,
        );
        let position = &simulation.position;
        if let Some(rave) = &mut self.rave {
            rave.update(
                &mut self.tree,
                &trace.path,
                &mut trace.marked,
                position,
                rewards,
            );
        }
        if self.config.prove {
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            carry_proofs(&mut self.tree, &trace.path, draws);
        }
    }
}

/// Backs the result of `simulation` up `path` (each node and the player who moved into it) in
/// `tree`, and returns its reward for each player: every node counts the reward of the player
/// who moved into it (decayed by the plies to the end), or, where the path counts the virtual
/// loss `virtual_loss` already, has it replaced by that reward. With the solver, a finished
/// game at the end of the path proves its node first. Carrying proofs further up is the
/// caller's ([`carry_proofs`]), after what else it updates.
#[inline]
pub(crate) fn back_up<G, R, T>(
    tree: &mut T,
    config: &UctConfig,
    reward: &R,
    simulation: &Simulation<G>,
    path: &[(T::Id, Player)],
    virtual_loss: Option<[f64; 2]>,
) -> [f64; 2]
where
    G: Game,
    R: Reward<G>,
    T: Nodes,
{
    if let (true, true, Some(&(id, mover))) = (simulation.finished, config.prove, path.last()) {
        let draw = reward.reward(&simulation.position, Outcome::Draw, mover);
        tree.prove(id, simulation.outcome.for_player(mover).into(), draw);
    }
    let rewards = rewards(reward, simulation);
    let depth = path.len();
    for (i, &(id, mover)) in path.iter().enumerate() {
        let plies = (depth - 1 - i) as u32 + simulation.plies;
        let value = config.decayed(rewards[mover.index()], plies);
        match virtual_loss {
            None => tree.record(id, value),
            Some(losses) => {
                // A loss changes nothing: the virtual loss counted it already (and in the
                // lock-free tree a write to a node the other threads read costs a trip
                // between the cores' caches).
                let delta = value - losses[mover.index()];
                if delta != 0.0 {
                    tree.revise(id, delta);
                }
            }
        }
    }
    rewards
}
