//! Simulation balancing: pattern weights for the playouts, fitted so that the playouts' mean
//! result from a position matches a target value of it ([`Patterns::balance`]).
//!
//! Silver and Tesauro (2009), "Monte-Carlo simulation balancing", in its policy-gradient
//! form; Huang, Coulom and Lin (2010), "Monte-Carlo simulation balancing in practice". A move
//! no bridge saves is drawn from the empty cells in proportion to `exp(θ[pattern] +
//! η[near])`, the pattern being the six neighbours' colours seen by the mover (up to the half
//! turn) and `near` the cell's closeness to the last stone. A playout policy that plays well
//! is not one whose results say who stands better (the papers above), as
//! [`Patterns::train`]'s weights, fitted to strong moves, showed in our playouts.

use game_core::{Game, Outcome, Status};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use super::Patterns;
use crate::board::{Near, PATTERN_CODES};
use crate::hex::{Hex, with_board};
use crate::notation::Move;

/// How many codes the six neighbours have (`3^6`).
const RING_CODES: usize = 729;
/// The parameters: one per six-neighbour code, then the three [`Near`] classes.
const PARAMETERS: usize = RING_CODES + 3;
/// The most a log weight may be, either way (`e^30` is about `10^13`).
const LIMIT: f64 = 30.0;

/// A position and the value to fit its playouts to ([`Patterns::balance`]).
#[derive(Clone, Debug)]
pub struct Target {
    /// The position (the game still on, no swap pending).
    pub position: Hex,
    /// The value for the player to move: the probability of winning that a strong search
    /// gives it, from 0 to 1.
    pub value: f64,
}

/// The settings of [`Patterns::balance`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Balancing {
    /// Passes over the targets.
    pub rounds: usize,
    /// Playouts per target and step: as many to estimate its value, as many for the gradient.
    pub playouts: usize,
    /// The step size, in units of the log weights (which stay within ±30).
    pub rate: f64,
}

impl Default for Balancing {
    fn default() -> Self {
        Balancing {
            rounds: 10,
            playouts: 32,
            rate: 1.0,
        }
    }
}

/// The six-neighbour code of a twelve-cell pattern code, the smaller of it and its half turn's
/// (which maps neighbour `k` to neighbour `k + 3` around the ring).
fn ring_code(pattern: u32) -> usize {
    let code = pattern as usize % RING_CODES;
    let (low, high) = (code % 27, code / 27);
    code.min(high + 27 * low)
}

/// A move the policy may draw: its six-neighbour code, its [`Near`] class's parameter, its
/// weight.
struct Candidate {
    action: Move,
    code: usize,
    near: usize,
    weight: f64,
}

/// The buffers of [`Policy::playout`], kept from one playout to the next.
#[derive(Default)]
struct Scratch {
    actions: Vec<Move>,
    candidates: Vec<Candidate>,
}

/// The policy's log weights.
#[derive(Clone, Debug)]
struct Policy {
    theta: Vec<f64>,
}

impl Policy {
    /// Every weight 1: the bridge-saving playout with uniformly random moves.
    fn uniform() -> Policy {
        Policy {
            theta: vec![0.0; PARAMETERS],
        }
    }

    /// The table [`Bridges::weighted`](crate::Bridges::weighted) draws with.
    fn table(&self) -> Patterns {
        let mut table = Patterns::default();
        let mut weights = vec![1.0f32; PATTERN_CODES];
        for (code, w) in weights.iter_mut().enumerate() {
            *w = self.theta[ring_code(code as u32)].exp() as f32;
        }
        let near = [Near::Far, Near::Adjacent, Near::Bridge]
            .map(|n| (self.theta[RING_CODES + n as usize] - self.theta[RING_CODES]).exp() as f32);
        table.set_weights(weights.into_boxed_slice(), near);
        table
    }

    /// One playout from `position` with this policy; whether the player to move at the
    /// start won. With `trace`, the playout's score function (the gradient of the log
    /// probability of its moves) is added into it.
    fn playout<R: Rng + ?Sized>(
        &self,
        position: &Hex,
        rng: &mut R,
        mut trace: Option<&mut [f64]>,
        scratch: &mut Scratch,
    ) -> bool {
        let mut hex = position.clone();
        let root = hex.to_move();
        let Scratch {
            actions,
            candidates,
        } = scratch;
        while hex.status() == Status::Ongoing {
            let saved = with_board!(&hex.0, b => b
                .last_stone()
                .and_then(|last| b.bridge_reply(last, b.to_move()))
                .map(|i| Move::Place(b.cell_at(i))));
            let action = match saved {
                Some(action) => action,
                None => {
                    actions.clear();
                    hex.legal_actions(actions);
                    candidates.clear();
                    let mut total = 0.0;
                    for &action in actions.iter() {
                        let Move::Place(cell) = action else { continue };
                        let shape = hex.local_shape(cell).expect("a legal cell is empty");
                        let (code, near) =
                            (ring_code(shape.pattern), RING_CODES + shape.near as usize);
                        let weight = (self.theta[code] + self.theta[near]).exp();
                        total += weight;
                        candidates.push(Candidate {
                            action,
                            code,
                            near,
                            weight,
                        });
                    }
                    let mut r = rng.random::<f64>() * total;
                    let mut pick = candidates.len() - 1;
                    for (k, c) in candidates.iter().enumerate() {
                        if r < c.weight {
                            pick = k;
                            break;
                        }
                        r -= c.weight;
                    }
                    let chosen = &candidates[pick];
                    if let Some(trace) = trace.as_deref_mut() {
                        for c in candidates.iter() {
                            trace[c.code] -= c.weight / total;
                            trace[c.near] -= c.weight / total;
                        }
                        trace[chosen.code] += 1.0;
                        trace[chosen.near] += 1.0;
                    }
                    chosen.action
                }
            };
            hex.play(action);
        }
        hex.status() == Status::Over(Outcome::Win(root))
    }

    /// The mean result of `playouts` playouts from `position` for its player to move.
    fn value<R: Rng + ?Sized>(
        &self,
        position: &Hex,
        playouts: usize,
        rng: &mut R,
        scratch: &mut Scratch,
    ) -> f64 {
        let wins = (0..playouts)
            .filter(|_| self.playout(position, rng, None, scratch))
            .count();
        wins as f64 / playouts.max(1) as f64
    }
}

impl Patterns {
    /// Fits playout weights by simulation balancing (Silver and Tesauro 2009, the policy
    /// gradient form): for each target in turn, `playouts` playouts estimate its value `V`,
    /// `playouts` more the gradient `g` of that value (each playout's result less `V`, times
    /// the score function of its moves), and the weights move by `rate (value - V) g`.
    ///
    /// The policy fitted is [`Bridges::weighted`](crate::Bridges::weighted)'s with one weight
    /// per shape of the six neighbours (seen by the mover, up to the half turn) and one per
    /// [`Near`] class, the near classes weighing at least the far one: a broken bridge is
    /// saved, any other move is drawn from the empty cells by weight. The aim is playouts
    /// whose mean result is right, not the move a strong player picks. `progress` is called
    /// after each round with the round (from 1) and the table so far.
    ///
    /// Returns a table for [`Bridges`](crate::Bridges)' `patterns`, to be played with
    /// `weighted: Some(f32::MAX)`: every pattern with the same six neighbours weighs the same.
    ///
    /// ```
    /// use games_hex::patterns::{Balancing, Patterns, Target};
    /// use games_hex::{Bridges, Hex};
    /// use rand::SeedableRng;
    ///
    /// let targets = vec![Target { position: Hex::new(5)?.after_moves("c3 b4")?, value: 0.9 }];
    /// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    /// let settings = Balancing { rounds: 2, playouts: 8, rate: 1.0 };
    /// let mut errors = Vec::new();
    /// let mut check = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
    /// let table = Patterns::balance(&targets, &settings, &mut rng, |_round, table| {
    ///     errors.push(table.balance_error(&targets, 64, &mut check));
    /// });
    /// assert_eq!(errors.len(), 2);
    /// // Playouts by the table (it lives as long as the program).
    /// let policy = Bridges {
    ///     weighted: Some(f32::MAX),
    ///     patterns: Box::leak(Box::new(table)),
    ///     ..Bridges::default()
    /// };
    /// # let _ = policy;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn balance<R: Rng + ?Sized>(
        targets: &[Target],
        settings: &Balancing,
        rng: &mut R,
        mut progress: impl FnMut(usize, &Patterns),
    ) -> Patterns {
        let mut policy = Policy::uniform();
        let mut scratch = Scratch::default();
        let mut gradient = vec![0.0; PARAMETERS];
        let mut trace = vec![0.0; PARAMETERS];
        let mut order: Vec<usize> = (0..targets.len()).collect();
        for round in 1..=settings.rounds {
            order.shuffle(rng);
            for &t in &order {
                let Target { position, value } = &targets[t];
                let v = policy.value(position, settings.playouts, rng, &mut scratch);
                gradient.fill(0.0);
                for _ in 0..settings.playouts {
                    trace.fill(0.0);
                    let won = policy.playout(position, rng, Some(&mut trace), &mut scratch);
                    let z = f64::from(u8::from(won)) - v;
                    for (g, s) in gradient.iter_mut().zip(&trace) {
                        *g += z * s;
                    }
                }
                let step = settings.rate * (value - v) / settings.playouts.max(1) as f64;
                for (theta, g) in policy.theta.iter_mut().zip(&gradient) {
                    // Bounded, so that every weight stays a positive finite `f32`.
                    *theta = (*theta + step * g).clamp(-LIMIT, LIMIT);
                }
                // The near classes weigh at least the far one (as the playout reads them).
                let far = policy.theta[RING_CODES + Near::Far as usize];
                for near in [Near::Adjacent, Near::Bridge] {
                    let eta = &mut policy.theta[RING_CODES + near as usize];
                    *eta = eta.max(far);
                }
            }
            progress(round, &policy.table());
        }
        policy.table()
    }

    /// The mean squared error of the playouts' values against `targets`' values, `playouts`
    /// playouts each, with this table's policy (as [`balance`](Self::balance) fits it: its
    /// weights read for the six neighbours). For the uniform policy, `Patterns::default()`.
    pub fn balance_error<R: Rng + ?Sized>(
        &self,
        targets: &[Target],
        playouts: usize,
        rng: &mut R,
    ) -> f64 {
        let mut policy = Policy::uniform();
        let mut seen = vec![false; RING_CODES];
        for code in 0..PATTERN_CODES as u32 {
            let ring = ring_code(code);
            if !seen[ring] {
                seen[ring] = true;
                policy.theta[ring] = f64::from(self.pattern_weight(code)).ln();
            }
        }
        for near in [Near::Far, Near::Adjacent, Near::Bridge] {
            policy.theta[RING_CODES + near as usize] = f64::from(self.near_weight(near)).ln();
        }
        let mut scratch = Scratch::default();
        let total: f64 = targets
            .iter()
            .map(|t| (t.value - policy.value(&t.position, playouts, rng, &mut scratch)).powi(2))
            .sum();
        total / targets.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::Solver;

    /// The half turn of a twelve-cell pattern code: digit `k` goes to the cell opposite.
    fn half_turn(code: u32) -> u32 {
        (0..12).fold(0, |turned, k| {
            let digit = code / 3u32.pow(k) % 3;
            let to = k - k % 6 + (k % 6 + 3) % 6;
            turned + digit * 3u32.pow(to)
        })
    }

    #[test]
    fn the_six_neighbour_code_is_the_same_for_a_pattern_and_its_half_turn() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..10_000 {
            let code = rng.random_range(0..PATTERN_CODES as u32);
            assert_eq!(ring_code(code), ring_code(half_turn(code)), "{code}");
            // The outer six cells do not matter.
            let outer = rng.random_range(0..729u32) * 729;
            assert_eq!(ring_code(code), ring_code(code % 729 + outer), "{code}");
        }
        // Two different rings of neighbours, not each other's half turn, differ.
        assert_ne!(ring_code(1), ring_code(3));
        assert_eq!(ring_code(1), ring_code(27));
    }

    /// Positions of 5x5 games a few random moves in, each with its exact value for the
    /// player to move (the solver's).
    fn solved_targets(count: usize, seed: u64) -> Vec<Target> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut solver = Solver::with_table_bytes(1 << 16);
        let mut targets = Vec::new();
        while targets.len() < count {
            let mut position = Hex::new(5).expect("5x5");
            let mut actions = Vec::new();
            for _ in 0..rng.random_range(4..10) {
                actions.clear();
                position.legal_actions(&mut actions);
                position.play(actions[rng.random_range(0..actions.len())]);
            }
            if position.status() == Status::Ongoing {
                let value = f64::from(u8::from(solver.winner(&position) == position.to_move()));
                targets.push(Target { position, value });
            }
        }
        targets
    }

    /// Fitted to exact values, the playouts' values come nearer them than the uniform
    /// playouts' do, on the positions fitted; and `balance_error` reads the returned table as
    /// the policy that was fitted (its error is the one the fit reached, not the uniform's).
    #[test]
    fn balancing_brings_the_playouts_values_nearer_the_targets() {
        let targets = solved_targets(40, 7);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let settings = Balancing {
            rounds: 8,
            playouts: 32,
            rate: 1.0,
        };
        let mut rounds = 0;
        let table = Patterns::balance(&targets, &settings, &mut rng, |_, _| rounds += 1);
        assert_eq!(rounds, 8);
        let uniform = Patterns::default().balance_error(&targets, 400, &mut rng);
        let fitted = table.balance_error(&targets, 400, &mut rng);
        assert!(
            fitted < 0.9 * uniform,
            "squared error {fitted:.4} fitted, {uniform:.4} uniform"
        );
    }
}
