//! Fitting [`Patterns`] to positions with known results: ridge least squares on the sparse
//! features by conjugate gradients, one phase at a time (the phases share no weight, so they
//! fit side by side).
//!
//! `examples/othello_train.rs` makes the positions (self-play with exact endgames) and drives
//! this module; `docs/othello.md` says how to rerun it.
//!
//! ```
//! use games_othello::pattern::train::{FitConfig, Sample, errors, fit};
//! use games_othello::{Othello, Patterns};
//! use game_core::{Game, Player};
//!
//! // Two positions and the final disc difference for the player to move.
//! let a = Othello::new().after_moves("f5d6")?;
//! let b = Othello::new().after_moves("f5f6")?;
//! let samples = [Sample::of(&a, 10), Sample::of(&b, -6)];
//! // A weak prior for so few positions (the default, 50, is for a million).
//! let config = FitConfig { l2: 0.5, ..FitConfig::default() };
//! let patterns = fit(&samples, &config, |_, _, _| {});
//! let by_phase = errors(&patterns, &samples);
//! assert!(by_phase[0].1 < 1.0, "{by_phase:?}"); // both fitted within a disc
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{FEATURES, Layout, PHASE_LEN, PHASES, Patterns, UNIT, packed_features_of, phase};
use crate::OthelloBoard;

/// A training position: the discs of the player to move and of the opponent, and the final
/// disc difference for the player to move (exact, or the result of a game played from it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    /// The discs of the player to move.
    pub me: u64,
    /// The opponent's discs.
    pub them: u64,
    /// The final disc difference for the player to move.
    pub score: i8,
}

impl Sample {
    /// The size of a sample in a data file: two `u64`s and an `i8`, little-endian.
    pub const BYTES: usize = 17;

    /// The sample of `position` with `score` for its player to move.
    #[must_use]
    pub fn of<const N: usize>(position: &OthelloBoard<N>, score: i32) -> Sample {
        let mover = game_core::Game::to_move(position);
        Sample {
            me: position.bits(mover),
            them: position.bits(mover.opponent()),
            score: score.clamp(-64, 64) as i8,
        }
    }

    /// The sample as a data file stores it.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; Sample::BYTES] {
        let mut bytes = [0; Sample::BYTES];
        bytes[..8].copy_from_slice(&self.me.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.them.to_le_bytes());
        bytes[16] = self.score.to_le_bytes()[0];
        bytes
    }

    /// A sample from a data file's bytes.
    #[must_use]
    pub fn from_bytes(bytes: &[u8; Sample::BYTES]) -> Sample {
        Sample {
            me: u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default()),
            them: u64::from_le_bytes(bytes[8..16].try_into().unwrap_or_default()),
            score: i8::from_le_bytes([bytes[16]]),
        }
    }

    /// The phase of the sample's position.
    #[must_use]
    pub fn phase(&self) -> usize {
        phase((self.me | self.them).count_ones())
    }
}

/// How [`fit`] runs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct FitConfig {
    /// Conjugate-gradient iterations per phase (each reads every position twice).
    pub iterations: u32,
    /// The ridge prior: the pull of every weight towards 0, as if each weight had also been
    /// seen this many times with a result of 0. It keeps the configurations seen a few times
    /// from taking the noise of their few games as their value.
    pub l2: f32,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            iterations: 100,
            l2: 50.0,
        }
    }
}

/// Fits the weights of `phase` to the samples of that phase among `samples` (the others are
/// skipped): ridge least squares, `|A w - y|^2 + l2 |w|^2` with `A` the positions' features,
/// solved by conjugate gradients preconditioned by each weight's count. Returns the distinct
/// weights of the phase, in discs. `progress` hears of each iteration's end: its number and
/// the mean absolute error over the phase's samples (discs).
pub fn fit_phase(
    phase: usize,
    samples: &[Sample],
    config: &FitConfig,
    mut progress: impl FnMut(u32, f64),
) -> Vec<f32> {
    let layout = Layout::get();
    let rows: Vec<[u32; FEATURES]> = samples
        .iter()
        .filter(|s| s.phase() == phase)
        .map(|s| packed_features_of(s.me, s.them).1)
        .collect();
    let targets: Vec<f64> = samples
        .iter()
        .filter(|s| s.phase() == phase)
        .map(|s| f64::from(s.score))
        .collect();
    let n = layout.len;
    let l2 = f64::from(config.l2);
    // `A^T v` and `A x`, over the rows.
    let transposed = |v: &[f64]| {
        let mut out = vec![0f64; n];
        for (row, &x) in rows.iter().zip(v) {
            for &f in row {
                out[f as usize] += x;
            }
        }
        out
    };
    let forward = |x: &[f64]| -> Vec<f64> {
        rows.iter()
            .map(|row| row.iter().map(|&f| x[f as usize]).sum())
            .collect()
    };
    let mut counts = vec![0f64; n];
    for row in &rows {
        for &f in row {
            counts[f as usize] += 1.0;
        }
    }
    let preconditioner: Vec<f64> = counts.iter().map(|&c| 1.0 / (c + l2.max(1e-9))).collect();
    let mut weights = vec![0f64; n];
    let mut predictions = vec![0f64; rows.len()];
    // The residual of the normal equations, `A^T y - (A^T A + l2) w`, at w = 0.
    let mut residual = transposed(&targets);
    let mut z: Vec<f64> = residual
        .iter()
        .zip(&preconditioner)
        .map(|(r, m)| r * m)
        .collect();
    let mut direction = z.clone();
    let mut rz: f64 = residual.iter().zip(&z).map(|(r, z)| r * z).sum();
    for iteration in 0..config.iterations {
        if rz <= 0.0 || rows.is_empty() {
            break;
        }
        let q = forward(&direction);
        let mut product = transposed(&q);
        for (p, d) in product.iter_mut().zip(&direction) {
            *p += l2 * d;
        }
        let curvature: f64 = direction.iter().zip(&product).map(|(d, p)| d * p).sum();
        if curvature <= 0.0 {
            break;
        }
        let alpha = rz / curvature;
        for (w, d) in weights.iter_mut().zip(&direction) {
            *w += alpha * d;
        }
        for (p, q) in predictions.iter_mut().zip(&q) {
            *p += alpha * q;
        }
        for (r, p) in residual.iter_mut().zip(&product) {
            *r -= alpha * p;
        }
        z = residual
            .iter()
            .zip(&preconditioner)
            .map(|(r, m)| r * m)
            .collect();
        let next: f64 = residual.iter().zip(&z).map(|(r, z)| r * z).sum();
        let beta = next / rz;
        rz = next;
        for (d, z) in direction.iter_mut().zip(&z) {
            *d = z + beta * *d;
        }
        let error = predictions
            .iter()
            .zip(&targets)
            .map(|(p, y)| (p - y).abs())
            .sum::<f64>()
            / rows.len() as f64;
        progress(iteration, error);
    }
    weights.into_iter().map(|w| w as f32).collect()
}

impl Patterns {
    /// The evaluation with these distinct weights per phase (in discs, as [`fit_phase`]
    /// returns them), rounded to [`UNIT`]s. A phase with no weights given stays zero.
    ///
    /// # Panics
    ///
    /// If a phase's weights are not as many as the phase has distinct weights.
    #[must_use]
    pub fn from_fitted(phases: &[Vec<f32>]) -> Patterns {
        let layout = Layout::get();
        let mut patterns = Patterns::zero();
        for (table, distinct) in patterns.weights.chunks_exact_mut(PHASE_LEN).zip(phases) {
            if distinct.is_empty() {
                continue;
            }
            assert_eq!(distinct.len(), layout.len, "weights of another pattern set");
            for (w, &p) in table.iter_mut().zip(&layout.packed) {
                let units = (distinct[p as usize] * UNIT as f32).round();
                *w = units.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
            }
        }
        patterns
    }
}

/// Fits every phase ([`fit_phase`] one after the other) and rounds the weights.
/// `progress` hears `(phase, iteration, mean absolute error)`.
pub fn fit(
    samples: &[Sample],
    config: &FitConfig,
    mut progress: impl FnMut(usize, u32, f64),
) -> Patterns {
    let phases: Vec<Vec<f32>> = (0..PHASES)
        .map(|p| fit_phase(p, samples, config, |i, error| progress(p, i, error)))
        .collect();
    Patterns::from_fitted(&phases)
}

/// For each phase, how many of `samples` are in it and the mean absolute difference, in
/// discs, between `patterns`' value and their score (`NaN` for a phase with none).
#[must_use]
pub fn errors(patterns: &Patterns, samples: &[Sample]) -> [(usize, f64); PHASES] {
    let mut sums = [(0usize, 0f64); PHASES];
    for s in samples {
        let value = f64::from(patterns.value(s.me, s.them)) / f64::from(UNIT);
        let entry = &mut sums[s.phase()];
        entry.0 += 1;
        entry.1 += (value - f64::from(s.score)).abs();
    }
    sums.map(|(n, sum)| (n, if n == 0 { f64::NAN } else { sum / n as f64 }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Othello;
    use game_core::Game;
    use game_core::mix64;
    use rand::SeedableRng;

    /// Positions of random games near `plies` plies, all in one phase.
    fn positions(count: usize, plies: u32, seed: u64) -> Vec<(u64, u64)> {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut position = Othello::new();
            while position.plies() < plies && !position.status().is_over() {
                let action = position.random_action(&mut rng).unwrap();
                position.play(action);
            }
            let mover = position.to_move();
            let (me, them) = (position.bits(mover), position.bits(mover.opponent()));
            if phase((me | them).count_ones()) == phase(4 + plies) {
                out.push((me, them));
            }
        }
        out
    }

    #[test]
    fn the_trainer_recovers_a_planted_model() {
        // A planted evaluation on a few features only: the 4-square diagonals, mobility and
        // parity. Positions labelled by it (rounded to discs) must be fitted, and predicted
        // on positions the fit never saw, far better than the labels' own spread.
        let layout = Layout::get();
        let planted_phase = phase(4 + 30);
        let mut planted = vec![0f32; layout.len];
        let kinds = super::super::features::OFFSETS;
        let diagonal4 = kinds[10]..kinds[11];
        let rest = kinds[11]..PHASE_LEN;
        for i in diagonal4.chain(rest) {
            let p = layout.packed[i] as usize;
            planted[p] = (mix64(p as u64) % 9) as f32 - 4.0;
        }
        let value = |me: u64, them: u64| -> f32 {
            let (_, features) = packed_features_of(me, them);
            features.iter().map(|&f| planted[f as usize]).sum()
        };
        let label = |(me, them): (u64, u64)| Sample {
            me,
            them,
            score: value(me, them).round().clamp(-64.0, 64.0) as i8,
        };
        let train: Vec<Sample> = positions(6000, 30, 1).into_iter().map(label).collect();
        let test: Vec<Sample> = positions(500, 30, 2).into_iter().map(label).collect();
        let config = FitConfig {
            iterations: 60,
            l2: 1.0,
        };
        let fitted = fit_phase(planted_phase, &train, &config, |_, _| {});
        let mut phases = vec![Vec::new(); PHASES];
        phases[planted_phase] = fitted;
        let patterns = Patterns::from_fitted(&phases);
        let error = errors(&patterns, &test)[planted_phase];
        let mean = test.iter().map(|s| f64::from(s.score)).sum::<f64>() / test.len() as f64;
        let spread = test
            .iter()
            .map(|s| (f64::from(s.score) - mean).abs())
            .sum::<f64>()
            / test.len() as f64;
        assert_eq!(error.0, test.len());
        assert!(spread > 3.0, "labels spread {spread}");
        eprintln!("error {} against spread {spread}", error.1);
        assert!(
            error.1 < spread / 5.0,
            "error {} against spread {spread}",
            error.1
        );
    }

    #[test]
    fn samples_round_trip_through_bytes() {
        let sample = Sample {
            me: 0x0123_4567_89ab_cdef & !0xfedc_ba98_7654_3210,
            them: 0x0000_0010_0800_0000,
            score: -37,
        };
        assert_eq!(Sample::from_bytes(&sample.to_bytes()), sample);
    }
}
