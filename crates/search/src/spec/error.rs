//! What can be wrong with an agent spec.

use thiserror::Error;

/// What is wrong with an agent spec.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SpecError {
    /// The name is not an agent.
    #[error("unknown agent {name:?} in {spec:?}: expected {expected}")]
    UnknownAgent {
        /// The whole spec.
        spec: String,
        /// The name given.
        name: String,
        /// The names there are.
        expected: String,
    },
    /// A key the agent does not have.
    #[error("unknown key {key:?} for {agent} in {spec:?}: expected {expected}")]
    UnknownKey {
        /// The whole spec.
        spec: String,
        /// The agent's name.
        agent: String,
        /// The key given.
        key: String,
        /// The keys it has.
        expected: String,
    },
    /// A value that does not fit its key.
    #[error("bad value {value:?} for {key} in {spec:?}: expected {expected}")]
    BadValue {
        /// The whole spec.
        spec: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What would fit.
        expected: String,
    },
    /// The spec asks for something the game does not offer (its prior, its playout policy, its
    /// evaluator).
    #[error("{spec:?} cannot be built for this game: {what}")]
    Unsupported {
        /// The whole spec.
        spec: String,
        /// What is missing.
        what: String,
    },
    /// A part without `=`, or a key given twice.
    #[error("malformed {part:?} in {spec:?}: {reason}")]
    Syntax {
        /// The whole spec.
        spec: String,
        /// The part.
        part: String,
        /// What is wrong.
        reason: String,
    },
}
