//! Backpropagation on the one-threaded tree: a simulation's result carried up the path, with
//! the solver's proofs, RAVE's statistics and tree parallelisation's virtual loss.

use game_core::{Game, Guide, Outcome, Player, Reward};

use super::node::NodeId;
use super::simulate::{Simulation, rewards};
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
        let Simulation {
            position,
            outcome,
            plies,
            finished,
            ..
        } = simulation;
        let (outcome, plies) = (*outcome, *plies);
        if let (true, true, Some(&(id, mover))) = (*finished, self.config.solver, trace.path.last())
        {
            let draw = self.reward.reward(position, Outcome::Draw, mover);
            self.tree[id].prove(outcome.for_player(mover).into(), draw);
        }
        let rewards = rewards(&self.reward, simulation);
        if virtual_loss.is_none() {
            self.tree[NodeId::ROOT].visits += 1;
        }
        let depth = trace.path.len();
        for (i, &(id, mover)) in trace.path.iter().enumerate() {
            let value = self
                .config
                .decayed(rewards[mover.index()], (depth - 1 - i) as u32 + plies);
            let node = &mut self.tree[id];
            match virtual_loss {
                None => node.record(value),
                Some(losses) => node.revise(value - losses[mover.index()]),
            }
        }
        if let Some(rave) = &mut self.rave {
            rave.update(
                &mut self.tree,
                &trace.path,
                &mut trace.marked,
                position,
                rewards,
            );
        }
        if self.config.solver {
            let draws = Player::BOTH.map(|p| self.reward.reward(position, Outcome::Draw, p));
            self.tree.propagate_proofs(&trace.path, draws);
        }
    }
}
