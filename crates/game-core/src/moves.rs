//! [`MovesError`]: a move list that could not be played, the same shape for every game.

use thiserror::Error;

/// A move list (text such as `"d3 c5 f6"` or `"4453"`) that could not be played: which move,
/// its text, and why. `K` is the game's kind of error (`MoveErrorKind` in each game crate);
/// every game crate names this type `MovesError` for its kind.
///
/// ```
/// use game_core::MovesError;
///
/// let error = MovesError {
///     input: "a1 a1".to_owned(),
///     index: 1,
///     text: "a1".to_owned(),
///     kind: "a1 is occupied",
/// };
/// assert_eq!(error.to_string(), "move 2 (\"a1\") of \"a1 a1\": a1 is occupied");
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("move {} ({text:?}) of {input:?}: {kind}", index + 1)]
pub struct MovesError<K> {
    /// The whole move list.
    pub input: String,
    /// The bad move's place in the list, counting from 0.
    pub index: usize,
    /// The bad move's text.
    pub text: String,
    /// What was wrong with it.
    pub kind: K,
}
