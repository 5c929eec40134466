//! The learned pattern table ([`Patterns`]): weights of local patterns ([`LocalShape`]) for
//! the prior of Hex's knowledge and its playouts, their text, and their training: from the
//! moves of recorded games ([`Sample`], [`Patterns::train`]) and by simulation balancing
//! ([`Target`], [`Balancing`], [`Patterns::balance`]).

use std::fmt::Write as _;
use std::sync::OnceLock;

mod balance;

pub use crate::board::{LocalShape, Near, PATTERN_CODES};
use crate::board::{RING_COLOURINGS, ring_weights};
use crate::hex::{Hex, with_board};
use crate::notation::Cell;
pub use balance::{Balancing, Target};

impl Hex {
    /// The local shape around `cell` for the player to move, or `None` when the cell is off
    /// the board or taken.
    ///
    /// ```
    /// use games_hex::Hex;
    /// use games_hex::patterns::Near;
    ///
    /// let position = Hex::new(9)?.after_moves("e5")?;
    /// let shape = position.local_shape("e4".parse()?).expect("empty");
    /// assert_eq!(shape.near, Near::Adjacent);
    /// // Black's view of d5 after White's d4 is White's view of d5 after Black's d4 (the
    /// // board read transposed): the same pattern.
    /// let black = Hex::new(9)?.after_moves("a1 d4")?.local_shape("e5".parse()?);
    /// let white = Hex::new(9)?.after_moves("d4")?.local_shape("e5".parse()?);
    /// assert_eq!(black.map(|s| s.pattern), white.map(|s| s.pattern));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn local_shape(&self, cell: Cell) -> Option<LocalShape> {
        if cell.column() >= self.size() || cell.row() >= self.size() || self.at(cell).is_some() {
            return None;
        }
        Some(with_board!(&self.0, b => b.local_shape(cell.column(), cell.row())))
    }
}

/// One position of a recorded game, for [`Patterns::train`]: the shapes of the moves the
/// player could have made, and which one was played.
#[derive(Clone, PartialEq, Debug)]
pub struct Sample {
    /// The candidates' shapes.
    pub candidates: Vec<LocalShape>,
    /// The index in `candidates` of the move played.
    pub chosen: usize,
}

/// Learned weights of local patterns, for the prior of Hex's knowledge ([`Shape`](crate::Shape)).
///
/// A cell's [`LocalShape`] is the state of its twelve nearest cells (the six next to it and
/// the six a bridge away: empty, the mover's, the opponent's, with the board's edges counted
/// as their owner's stones) in the mover's frame, canonical under the half turn, and how close
/// it is to the last stone. [`Patterns`] gives each a weight (a Bradley-Terry strength,
/// Coulom's "Elo ratings of move patterns", 2007, as in MoHex 2.0): the weights of a position's
/// moves, normalised, are the probability that a strong player picks each one.
/// [`Patterns::train`] fits them to the moves of recorded games by minorisation-maximisation;
/// [`Patterns::learned`] are the weights this crate ships, trained on self-play
/// (`cargo run --release --example hex_patterns`, `docs/experiments.md`).
///
/// ```
/// use games_hex::Hex;
/// use games_hex::patterns::Patterns;
///
/// // 9x9, White to move after Black's e5: the cells next to the stone weigh more than a far
/// // corner, by what the training saw.
/// let position = Hex::new(9)?.after_moves("e5")?;
/// let patterns = Patterns::learned();
/// let weight = |cell: &str| -> Result<f32, Box<dyn std::error::Error>> {
///     Ok(patterns.weight(position.local_shape(cell.parse()?).expect("an empty cell")))
/// };
/// assert!(weight("e4")? > weight("a9")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
///
/// A shape's weight is its pattern's weight times its [`Near`] class's weight.
#[derive(Clone, Debug)]
pub struct Patterns {
    pattern: Box<[f32]>,
    near: [f32; 3],
    /// The weights of the six neighbours' colourings that pattern-weighted playouts read,
    /// derived from `pattern` at their first use ([`ring_weights`]).
    ring: OnceLock<Box<[[f32; RING_COLOURINGS]; 2]>>,
}

impl PartialEq for Patterns {
    /// The same weights (the derived `ring` follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern && self.near == other.near
    }
}

/// The text of [`Patterns::learned`].
const LEARNED: &str = include_str!("../../data/patterns.txt");

/// Why a weight table's text was refused: the line (from 1) and what is wrong with it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ParsePatternsError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl Default for Patterns {
    /// Every weight 1: no pattern preferred.
    fn default() -> Self {
        Patterns {
            pattern: vec![1.0; PATTERN_CODES].into_boxed_slice(),
            near: [1.0; 3],
            ring: OnceLock::new(),
        }
    }
}

impl Patterns {
    /// The weights this crate ships (`data/patterns.txt`), read once.
    #[must_use]
    pub fn learned() -> &'static Patterns {
        static LEARNED_TABLE: OnceLock<Patterns> = OnceLock::new();
        LEARNED_TABLE.get_or_init(|| {
            Patterns::from_text(LEARNED).expect("the shipped pattern table parses (tested)")
        })
    }

    /// The weight of a shape: positive; the larger, the likelier a strong player plays there.
    #[must_use]
    #[inline]
    pub fn weight(&self, shape: LocalShape) -> f32 {
        self.pattern[shape.pattern as usize] * self.near[shape.near as usize]
    }

    /// The weight of pattern `code` alone (a [`LocalShape`]'s `pattern`).
    #[inline]
    pub(crate) fn pattern_weight(&self, code: u32) -> f32 {
        self.pattern[code as usize]
    }

    /// Replaces every pattern's weight (indexed by code, half turns alike) and the
    /// [`Near`] classes'.
    pub(crate) fn set_weights(&mut self, pattern: Box<[f32]>, near: [f32; 3]) {
        debug_assert_eq!(pattern.len(), PATTERN_CODES);
        self.pattern = pattern;
        self.near = near;
        self.ring = OnceLock::new();
    }

    /// For each mover, the weight of each colouring of a cell's six neighbours, for
    /// pattern-weighted playouts ([`ring_weights`]); built at the first call.
    pub(crate) fn ring_weights(&self) -> &[[f32; RING_COLOURINGS]; 2] {
        self.ring
            .get_or_init(|| ring_weights(|code| self.pattern_weight(code)))
    }

    /// The weight of the class `near` alone.
    pub(crate) fn near_weight(&self, near: Near) -> f32 {
        self.near[near as usize]
    }

    /// Reads the text [`to_text`](Self::to_text) writes: `#` comments, `near CLASS WEIGHT`
    /// (`far`, `adjacent`, `bridge`) and `CODE WEIGHT` lines; patterns not listed weigh 1.
    ///
    /// # Errors
    ///
    /// A line that is none of these, a code out of range or not canonical, a weight that is
    /// not a positive finite number.
    pub fn from_text(text: &str) -> Result<Patterns, ParsePatternsError> {
        let mut table = Patterns::default();
        for (i, line) in text.lines().enumerate() {
            let error = |reason: String| ParsePatternsError {
                line: i + 1,
                reason,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let weight = |text: &str| match text.parse::<f32>() {
                Ok(w) if w.is_finite() && w > 0.0 => Ok(w),
                _ => Err(error(format!("`{text}` is not a positive weight"))),
            };
            match fields[..] {
                ["near", class, w] => {
                    let at = match class {
                        "far" => Near::Far,
                        "adjacent" => Near::Adjacent,
                        "bridge" => Near::Bridge,
                        _ => {
                            return Err(error(format!("`{class}` is not far, adjacent or bridge")));
                        }
                    };
                    table.near[at as usize] = weight(w)?;
                }
                [code, w] => {
                    let code = code
                        .parse::<u32>()
                        .ok()
                        .filter(|&c| (c as usize) < PATTERN_CODES && canonical(c) == c)
                        .ok_or_else(|| {
                            error(format!("`{code}` is not a canonical pattern code"))
                        })?;
                    table.pattern[code as usize] = weight(w)?;
                }
                _ => {
                    return Err(error(
                        "expected `CODE WEIGHT` or `near CLASS WEIGHT`".into(),
                    ));
                }
            }
        }
        // A pattern's half turn shares its weight.
        for code in 0..PATTERN_CODES as u32 {
            let c = canonical(code);
            if c != code {
                table.pattern[code as usize] = table.pattern[c as usize];
            }
        }
        Ok(table)
    }

    /// The table as text, for [`from_text`](Self::from_text): the [`Near`] weights, then each
    /// canonical pattern whose weight is not 1, four significant digits.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (near, name) in Near::ALL.iter().zip(["far", "adjacent", "bridge"]) {
            let _ = writeln!(text, "near {name} {:.4e}", self.near[*near as usize]);
        }
        for code in 0..PATTERN_CODES as u32 {
            let w = self.pattern[code as usize];
            if canonical(code) == code && w != 1.0 {
                let _ = writeln!(text, "{code} {w:.4e}");
            }
        }
        text
    }

    /// Fits weights to recorded moves by minorisation-maximisation (Coulom 2007): each round
    /// updates every pattern's weight, then the three [`Near`] weights, each to its best value
    /// given the others; every pattern also plays one virtual win and one virtual loss against
    /// a weight of 1, so that a pattern seen a few times stays near 1 and one never chosen
    /// stays finite. Samples whose move is out of range are skipped.
    #[must_use]
    pub fn train(samples: &[Sample], rounds: usize) -> Patterns {
        let samples: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.chosen < s.candidates.len())
            .collect();
        let mut table = Patterns::default();
        let mut gamma = vec![1.0f64; PATTERN_CODES];
        let mut near = [1.0f64; 3];
        let mut wins = vec![0.0f64; PATTERN_CODES];
        let mut near_wins = [0.0f64; 3];
        let mut seen = vec![false; PATTERN_CODES];
        for s in &samples {
            let chosen = s.candidates[s.chosen];
            wins[chosen.pattern as usize] += 1.0;
            near_wins[chosen.near as usize] += 1.0;
            for c in &s.candidates {
                seen[c.pattern as usize] = true;
            }
        }
        // The sum of a position's strengths, the denominator of each of its moves' probability.
        let total = |gamma: &[f64], near: &[f64; 3], s: &Sample| -> f64 {
            s.candidates
                .iter()
                .map(|c| gamma[c.pattern as usize] * near[c.near as usize])
                .sum()
        };
        let mut denominator = vec![0.0f64; PATTERN_CODES];
        for _ in 0..rounds {
            denominator.iter_mut().for_each(|d| *d = 0.0);
            for s in &samples {
                let total = total(&gamma, &near, s);
                for c in &s.candidates {
                    denominator[c.pattern as usize] += near[c.near as usize] / total;
                }
            }
            for code in 0..PATTERN_CODES {
                if seen[code] {
                    let g = gamma[code];
                    gamma[code] = (wins[code] + 1.0) / (denominator[code] + 2.0 / (g + 1.0));
                }
            }
            let mut near_denominator = [0.0f64; 3];
            for s in &samples {
                let total = total(&gamma, &near, s);
                for c in &s.candidates {
                    near_denominator[c.near as usize] += gamma[c.pattern as usize] / total;
                }
            }
            for k in 0..3 {
                if near_denominator[k] > 0.0 && near_wins[k] > 0.0 {
                    near[k] = near_wins[k] / near_denominator[k];
                }
            }
            // Only ratios matter: keep the far class at 1.
            let far = near[Near::Far as usize];
            near.iter_mut().for_each(|w| *w /= far);
        }
        for code in 0..PATTERN_CODES as u32 {
            table.pattern[code as usize] = gamma[canonical(code) as usize] as f32;
        }
        table.near = near.map(|w| w as f32);
        table
    }

    /// The mean log-likelihood of the moves played in `samples` under these weights (each
    /// move's probability is its weight over the sum of its position's): the higher, the
    /// better the weights predict them.
    #[must_use]
    pub fn log_likelihood(&self, samples: &[Sample]) -> f64 {
        let mut sum = 0.0;
        let mut n = 0;
        for s in samples.iter().filter(|s| s.chosen < s.candidates.len()) {
            let total: f64 = s
                .candidates
                .iter()
                .map(|&c| f64::from(self.weight(c)))
                .sum();
            sum += (f64::from(self.weight(s.candidates[s.chosen])) / total).ln();
            n += 1;
        }
        sum / f64::from(n.max(1))
    }
}

/// The canonical code of a pattern code (the smaller of it and its half turn's).
fn canonical(code: u32) -> u32 {
    let mut digits = [0u32; 12];
    let mut rest = code;
    for d in &mut digits {
        *d = rest % 3;
        rest /= 3;
    }
    crate::board::canonical_pattern(&digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic positions whose moves are drawn from known strengths: training recovers the
    /// ratios of the strengths.
    #[test]
    fn training_recovers_known_strengths() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let truth = [(0u32, 1.0f64), (1, 4.0), (2, 0.25), (4, 2.0)];
        let shape = |pattern| LocalShape {
            pattern,
            near: Near::Far,
        };
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let candidates: Vec<LocalShape> = truth.iter().map(|&(p, _)| shape(p)).collect();
                let total: f64 = truth.iter().map(|&(_, g)| g).sum();
                let mut draw = rng.random::<f64>() * total;
                let chosen = truth
                    .iter()
                    .position(|&(_, g)| {
                        draw -= g;
                        draw < 0.0
                    })
                    .unwrap_or(truth.len() - 1);
                Sample { candidates, chosen }
            })
            .collect();
        let table = Patterns::train(&samples, 60);
        let base = f64::from(table.weight(shape(0)));
        for &(p, g) in &truth {
            let ratio = f64::from(table.weight(shape(p))) / base;
            assert!(
                (ratio / g - 1.0).abs() < 0.1,
                "pattern {p}: {ratio} for {g}"
            );
        }
        // The fit predicts the moves better than equal weights.
        assert!(table.log_likelihood(&samples) > Patterns::default().log_likelihood(&samples));
    }

    #[test]
    fn text_round_trips_and_refuses_bad_lines() {
        let mut table = Patterns::default();
        table.pattern[5] = 2.5;
        table.near = [1.0, 3.0, 1.5];
        let again = Patterns::from_text(&table.to_text()).expect("parses");
        assert_eq!(
            again.weight(LocalShape {
                pattern: 5,
                near: Near::Adjacent
            }),
            7.5
        );
        for (bad, line) in [
            ("1 2\nnear close 2", 2),
            ("x 1", 1),
            ("7 -1", 1),
            ("1 2 3", 1),
        ] {
            assert_eq!(
                Patterns::from_text(bad).map(|_| ()).unwrap_err().line,
                line,
                "{bad}"
            );
        }
        // 3^9 (the fourth bridge cell mine) is not canonical: its half turn is 3^6.
        assert!(Patterns::from_text("19683 2").is_err());
        assert!(Patterns::from_text("729 2").is_ok());
        assert!(Patterns::from_text(&format!("{PATTERN_CODES} 2")).is_err());
    }

    #[test]
    fn the_shipped_table_parses() {
        let table = Patterns::learned();
        // The file is the table in its normal form, as `to_text` writes it (after its
        // comments): canonical codes in order, no weight of 1, four significant digits.
        let written: String = LEARNED
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| format!("{line}\n"))
            .collect();
        assert_eq!(table.to_text(), written);
        // Thousands of patterns trained, every weight a positive number.
        let trained = table.pattern.iter().filter(|&&w| w != 1.0).count();
        assert!(trained > 10_000, "{trained} patterns trained");
        assert!(table.pattern.iter().all(|w| w.is_finite() && *w > 0.0));
        // The far class is the unit; cells near the last stone are likelier moves.
        assert_eq!(table.near_weight(Near::Far), 1.0);
        assert!(table.near_weight(Near::Adjacent) > 1.0);
        assert!(table.near_weight(Near::Bridge) > 1.0);
        // Black's e5 and f6 make a bridge; White intrudes into it, at f5 or e6. The reply
        // that restores the connection (the other cell of the bridge) weighs more than twice
        // any other move.
        for (intrusion, reply) in [("f5", "e6"), ("e6", "f5")] {
            let moves = format!("e5 i1 f6 {intrusion}");
            let position = Hex::new(9).unwrap().after_moves(&moves).unwrap();
            let weight = |cell: Cell| position.local_shape(cell).map(|s| table.weight(s));
            let reply: Cell = reply.parse().unwrap();
            let best = weight(reply).unwrap();
            let cells = (0..9).flat_map(|c| (0..9).map(move |r| Cell::new(c, r)));
            for cell in cells.filter(|&cell| cell != reply) {
                let other = weight(cell).unwrap_or(0.0);
                assert!(
                    best > 2.0 * other,
                    "after {moves}: {reply} {best}, {cell} {other}"
                );
            }
        }
    }
}
