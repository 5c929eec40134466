//! What Hex knows, for Monte-Carlo search: playouts that save bridges. [`knowledge`] bundles
//! it.

use game_core::{Game, Knowledge, NoEvaluator, PlayedActions, Playout, PlayoutPolicy, Prior};
use rand::Rng;

use crate::hex::{Hex, with_board};
use crate::notation::Move;

/// Hex's knowledge: [`Shape`] as the prior and [`Bridges`] as the playout policy; no
/// evaluator yet.
///
/// ```
/// use game_core::{Game, PlayoutPolicy};
/// use games_hex::Hex;
/// use rand::SeedableRng;
///
/// let policy = games_hex::knowledge().policy.unwrap();
/// // Black's b2 and c3 make a bridge over b3 and c2; White breaks in at c2: Black saves it.
/// let position = Hex::new(5)?.after_moves("b2 a5 c3 c2")?;
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// assert_eq!(policy.action(&position, &mut rng), "b3".parse()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn knowledge() -> Knowledge<Shape, Bridges, NoEvaluator> {
    Knowledge::NONE
        .with_prior(Shape::default())
        .with_policy(Bridges::default())
}

/// A prior from local shape, hand-set (not learned): a cell weighs 1, plus `bridge` for each of
/// the mover's stones a bridge away from it (both cells between empty), plus `adjacent` for
/// each stone next to it, halved on the outer ring when no stone touches it.
///
/// It is a taste, not a judgement: with PUCT's default constant (1) it decides too much of
/// what is searched and loses; with `puct=3` it orders the search and wins on top of
/// [`Bridges`] (`best` on Hex is `uct:playout=game,prior=game,puct=3`; `docs/experiments.md`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Shape {
    /// The weight of each own stone at bridge distance.
    pub bridge: f32,
    /// The weight of each stone next to the cell.
    pub adjacent: f32,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            bridge: 1.5,
            adjacent: 1.0,
        }
    }
}

impl Prior<Hex> for Shape {
    fn weigh(&self, position: &Hex, actions: &[Move], weights: &mut Vec<f32>) {
        with_board!(&position.0, b => b.shape_weights(actions, self.bridge, self.adjacent, weights));
    }
}

/// The playout policy of MoHex and most Monte-Carlo Hex programs: when the opponent's last
/// stone broke into one of the mover's bridges (two stones that share two empty neighbours) or
/// edge templates (a stone on the second row and the two cells below it), the mover plays the
/// other cell of the pair and keeps the connection; otherwise a uniformly random empty cell.
///
/// Playouts with it play one move at a time (the plain playout fills the board at once), so
/// they cost more; `docs/experiments.md` measures what they buy at equal time.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Bridges {
    /// The probability of saving a broken bridge (1: always).
    pub reply: f64,
}

impl Default for Bridges {
    fn default() -> Self {
        Bridges { reply: 1.0 }
    }
}

impl Bridges {
    /// `reply` in units of 2^-32, as the playout compares it with a random `u32`.
    fn threshold(self) -> u64 {
        (self.reply.clamp(0.0, 1.0) * 4_294_967_296.0) as u64
    }
}

impl PlayoutPolicy<Hex> for Bridges {
    fn action<R: Rng + ?Sized>(&self, position: &Hex, rng: &mut R) -> Move {
        let saved = with_board!(&position.0, b => {
            let last = b.last_stone();
            match last {
                Some(cell) if u64::from(rng.next_u32()) < self.threshold() => b
                    .bridge_reply(cell, b.to_move())
                    .map(|i| Move::Place(b.cell_at(i))),
                _ => None,
            }
        });
        saved.unwrap_or_else(|| {
            position
                .random_action(rng)
                .expect("a playout policy is asked about ongoing games")
        })
    }

    fn play_out<R: Rng + ?Sized>(&self, position: &mut Hex, rng: &mut R) -> Playout {
        let reply = self.threshold();
        with_board!(&mut position.0, b => b.bridge_playout(rng, reply, None))
    }

    fn play_out_marked<R: Rng + ?Sized>(
        &self,
        position: &mut Hex,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let reply = self.threshold();
        with_board!(&mut position.0, b => b.bridge_playout(rng, reply, Some(played)))
    }
}
