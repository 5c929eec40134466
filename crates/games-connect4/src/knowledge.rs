//! What Connect Four knows, for Monte-Carlo search: playouts that take a win and block a loss,
//! and priors from threats. [`knowledge`] bundles them.

use game_core::{
    Game, Player,
    knowledge::{Knowledge, NoEvaluator, PlayoutPolicy, Prior},
};
use rand::{Rng, RngExt};

use crate::bits::Bits;
use crate::board::Connect4Board;
use crate::notation::Column;

/// Connect Four's knowledge: [`Threats`] as the prior and [`WinBlock`] as the playout policy;
/// no evaluator (playouts are cheap and short enough to play to the end).
///
/// A search takes it whole (`search::AgentSpec::build_with`) and uses the parts its spec asks
/// for (`uct:prior=game,playout=game`).
///
/// ```
/// use game_core::knowledge::{PlayoutPolicy, Prior};
/// use games_connect4::Connect4;
/// use rand::SeedableRng;
///
/// let knowledge = games_connect4::knowledge();
/// // White has three stacked in column 1: Black must block there.
/// let position: Connect4 = "213161".parse()?;
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// let policy = knowledge.policy.unwrap();
/// assert_eq!(policy.action(&position, &mut rng), "1".parse()?);
/// let mut weights = Vec::new();
/// let actions: Vec<_> = (1..=7).map(|c| c.to_string().parse().unwrap()).collect();
/// knowledge.prior.unwrap().weigh(&position, &actions, &mut weights);
/// assert_eq!(weights[0], 32.0); // the block weighs most
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn knowledge() -> Knowledge<Threats, WinBlock, NoEvaluator> {
    Knowledge::NONE.with_prior(Threats).with_policy(WinBlock)
}

/// The playout policy every strong Monte-Carlo Connect Four player starts from: play a winning
/// move if there is one; else block the opponent's; else a uniformly random move among those
/// that do not give the opponent a win in the cell above (any move, if all of them do).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct WinBlock;

impl<B: Bits> PlayoutPolicy<Connect4Board<B>> for WinBlock {
    fn action<R: Rng + ?Sized>(&self, position: &Connect4Board<B>, rng: &mut R) -> Column {
        let threats = position.threats();
        let wins = threats.mine & threats.playable;
        if wins != B::ZERO {
            return position.column_of(wins.lowest_bit());
        }
        let blocks = threats.theirs & threats.playable;
        if blocks != B::ZERO {
            return position.column_of(blocks.lowest_bit());
        }
        let safe = threats.playable & !(threats.theirs >> 1);
        let pool = if safe == B::ZERO {
            threats.playable
        } else {
            safe
        };
        let k = rng.random_range(0..pool.count_ones());
        position.column_of(nth_bit(pool, k))
    }
}

/// Only the `k`-th lowest set bit of `bits` (from 0).
fn nth_bit<B: Bits>(mut bits: B, k: u32) -> B {
    for _ in 0..k {
        bits &= bits.wrapping_sub(B::ONE);
    }
    bits.lowest_bit()
}

/// A prior from threats (hand-set weights, not trained): a winning move weighs 64, a move that
/// blocks the opponent's win 32, a move under the opponent's winning cell (which hands it over)
/// 1/16; any other move 1, plus 1/2 per column nearer the centre, plus its new threats (cells
/// where the mover would then complete four) at 3 each on the rows that favour the mover
/// (the first player's odd rows counted from 1 at the bottom, the second player's even rows)
/// and 1 on the others.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Threats;

impl<B: Bits> Prior<Connect4Board<B>> for Threats {
    fn weigh(&self, position: &Connect4Board<B>, actions: &[Column], weights: &mut Vec<f32>) {
        let threats = position.threats();
        // Rows (from 0) whose threats favour the mover: the first player's odd rows from 1
        // are even from 0.
        let favoured = match position.to_move() {
            Player::Black => 0,
            Player::White => 1,
        };
        let centre = f32::from(position.width() - 1) / 2.0;
        weights.extend(actions.iter().map(|&column| {
            let cell = position.playable_in(column);
            if cell & threats.mine != B::ZERO {
                64.0
            } else if cell & threats.theirs != B::ZERO {
                32.0
            } else if (cell << 1) & threats.theirs != B::ZERO {
                1.0 / 16.0
            } else {
                let nearness = centre - (f32::from(column.index()) - centre).abs();
                let mut new = position.wins_after(cell) & !threats.mine;
                let mut weight = 1.0 + 0.5 * nearness;
                while new != B::ZERO {
                    let threat = new.lowest_bit();
                    weight += if position.row_of(threat) % 2 == favoured {
                        3.0
                    } else {
                        1.0
                    };
                    new &= !threat;
                }
                weight
            }
        }));
    }
}
