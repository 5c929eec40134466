//! The weight file: the distinct weights of each phase, packed (mirror images stored once).
//!
//! Layout, little-endian: the magic `GSOPAT01`, then three `u32`s (phases, distinct weights per
//! phase, units per disc), then the weights as `i16`s, phase by phase.

use std::path::Path;

use thiserror::Error;

use super::{Layout, PHASE_LEN, PHASES, Patterns, UNIT};

const MAGIC: &[u8; 8] = b"GSOPAT01";
const HEADER: usize = 8 + 12;

/// Why a weight file could not be read or written.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not a weight file of this crate.
    #[error("not an Othello pattern weight file (it does not start with GSOPAT01)")]
    NotWeights,
    /// A weight file for another pattern set, phase split or scale.
    #[error(
        "weights for another evaluation: {phases} phases of {weights} weights at {unit} a disc \
         (this build reads {PHASES} phases of {expected} at {UNIT})"
    )]
    Mismatch {
        /// Phases in the file.
        phases: u32,
        /// Weights per phase in the file.
        weights: u32,
        /// Units per disc in the file.
        unit: u32,
        /// Weights per phase this build expects.
        expected: usize,
    },
    /// The file ends before its last weight, or goes on after it.
    #[error("the file has {found} bytes where {expected} were expected")]
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
}

impl Patterns {
    /// Reads weights written by [`to_bytes`](Patterns::to_bytes).
    ///
    /// # Errors
    ///
    /// [`WeightsError`] when the bytes are not a weight file of this pattern set.
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, WeightsError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (phases, weights, unit) = (word(0), word(1), word(2));
        let layout = Layout::get();
        if phases as usize != PHASES || weights as usize != layout.len || unit != UNIT as u32 {
            return Err(WeightsError::Mismatch {
                phases,
                weights,
                unit,
                expected: layout.len,
            });
        }
        let expected = HEADER + 2 * PHASES * layout.len;
        if bytes.len() != expected {
            return Err(WeightsError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let packed: Vec<i16> = bytes[HEADER..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let mut patterns = Patterns::zero();
        for (phase, table) in patterns.weights.chunks_exact_mut(PHASE_LEN).enumerate() {
            let distinct = &packed[phase * layout.len..][..layout.len];
            for (w, &p) in table.iter_mut().zip(&layout.packed) {
                *w = distinct[p as usize];
            }
        }
        Ok(patterns)
    }

    /// The weights as a file's bytes (about 2 MB).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = Layout::get();
        let mut bytes = Vec::with_capacity(HEADER + 2 * PHASES * layout.len);
        bytes.extend_from_slice(MAGIC);
        for word in [PHASES as u32, layout.len as u32, UNIT as u32] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for table in self.weights.chunks_exact(PHASE_LEN) {
            let mut distinct = vec![0i16; layout.len];
            for (&w, &p) in table.iter().zip(&layout.packed) {
                distinct[p as usize] = w;
            }
            for w in distinct {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        bytes
    }

    /// Reads a weight file.
    ///
    /// # Errors
    ///
    /// [`WeightsError`] when it cannot be read or is not a weight file of this pattern set.
    pub fn read(path: &Path) -> Result<Patterns, WeightsError> {
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Patterns::from_bytes(&bytes)
    }

    /// Writes the weights to `path` (through a temporary file, renamed: a stop midway leaves
    /// the old file).
    ///
    /// # Errors
    ///
    /// [`WeightsError::Io`] when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), WeightsError> {
        let io = |source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        };
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, self.to_bytes()).map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_patterns;
    use super::*;

    #[test]
    fn a_weight_file_round_trips() {
        let patterns = random_patterns(5);
        let bytes = patterns.to_bytes();
        assert_eq!(Patterns::from_bytes(&bytes).unwrap(), patterns);
        let path = std::env::temp_dir().join(format!("patterns-{}.bin", std::process::id()));
        patterns.write(&path).unwrap();
        assert_eq!(Patterns::read(&path).unwrap(), patterns);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn bad_files_are_refused_with_their_reason() {
        let bytes = random_patterns(1).to_bytes();
        assert!(matches!(
            Patterns::from_bytes(b"hello"),
            Err(WeightsError::NotWeights)
        ));
        assert!(matches!(
            Patterns::from_bytes(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Length { .. })
        ));
        let mut other = bytes;
        other[8] = 3; // three phases
        let error = Patterns::from_bytes(&other).unwrap_err();
        assert!(error.to_string().contains("3 phases"), "{error}");
        let missing = Patterns::read(Path::new("/nonexistent/patterns.bin")).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/patterns.bin"));
    }
}
