//! Agents described by text: `uct:iterations=10000,c=0.4`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use game_core::{Evaluator, Game, WinDrawLoss};
use thiserror::Error;

use crate::{
    Agent, AlphaBeta, AlphaBetaConfig, Budget, Expansion, FinalChoice, Flat, Plain, Policy, Random,
    Reference, RootParallel, TreeParallel, Uct, UctConfig,
};

/// An agent and its budget, as text: `NAME` or `NAME:KEY=VALUE,KEY=VALUE,...`.
///
/// | name | keys (defaults) |
/// |---|---|
/// | `random` | `seed` |
/// | `mc` | `playouts` (1000), `time`, `seed`, `win`/`draw`/`loss` (1 / 0.5 / 0) |
/// | `ucb1` | as `mc`, and `c` (0.7) |
/// | `uct` | `iterations` (10000), `time`, `seed`, `c` (0.4), `reuse` (true), `final` (`visits`, `mean` or `wins`), `expand` (`one` or `all`), `expand_after` (1), `decay` (1), `nodes` (4000000), `solver` (false), `threads` (1), `parallel` (`root` or `tree`), `win`/`draw`/`loss` |
/// | `rave` | as `uct`, and `k` (300): RAVE's equivalence parameter |
/// | `grave` | as `rave`, and `ref` (50): the visits of the ancestor whose AMAF statistics are used |
/// | `minimax`, `negamax` | `depth` (4) |
/// | `alphabeta` | `depth` (64 with `time`, else 8), `time`, `table` (MiB, 16; 0 for none), `ordering` (true), `pvs` (true) |
///
/// `iterations` and `playouts` are the same key. `time` takes a number and a unit (`500ms`,
/// `2s`, `1.5s`, `1m`); with `time` and no count, the agent thinks for that long. The seed
/// defaults to the one given to [`build`](AgentSpec::build).
///
/// ```
/// use search::AgentSpec;
///
/// let spec: AgentSpec = "uct:iterations=20000,c=0.3,reuse=false".parse().unwrap();
/// assert_eq!(spec.budget().iterations, Some(20_000));
/// let error = "uct:c=lots".parse::<AgentSpec>().unwrap_err();
/// assert_eq!(error.to_string(), "bad value \"lots\" for c in \"uct:c=lots\": expected a number");
/// ```
#[derive(Clone, Debug)]
pub struct AgentSpec {
    text: String,
    algorithm: Algorithm,
    budget: Budget,
    seed: Option<u64>,
    reward: WinDrawLoss,
}

/// How UCT shares out its work over several threads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Parallel {
    /// A tree per thread, merged at the root ([`RootParallel`]).
    Root,
    /// One tree, with virtual loss ([`TreeParallel`]).
    Tree,
}

#[derive(Clone, Copy, Debug)]
enum Algorithm {
    Random,
    Flat(Policy),
    /// UCT, on this many threads, shared how.
    Uct(UctConfig, usize, Parallel),
    Reference(Plain, u32),
    AlphaBeta(AlphaBetaConfig),
}

impl AgentSpec {
    /// The budget the spec gives each move.
    #[must_use]
    pub fn budget(&self) -> Budget {
        self.budget.clone()
    }

    /// The agent's name: `random`, `mc`, `ucb1`, `uct`, `rave`, `grave`, `minimax`, `negamax` or
    /// `alphabeta`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self.algorithm {
            Algorithm::Random => "random",
            Algorithm::Flat(Policy::Uniform) => "mc",
            Algorithm::Flat(Policy::Ucb1 { .. }) => "ucb1",
            Algorithm::Uct(config, ..) if config.rave > 0.0 && config.grave > 0 => "grave",
            Algorithm::Uct(config, ..) if config.rave > 0.0 => "rave",
            Algorithm::Uct(..) => "uct",
            Algorithm::Reference(Plain::Minimax, _) => "minimax",
            Algorithm::Reference(Plain::NegaMax, _) => "negamax",
            Algorithm::Reference(Plain::AlphaBeta, _) | Algorithm::AlphaBeta(_) => "alphabeta",
        }
    }

    /// Builds the agent for game `G`, seeded with the spec's `seed` or else `seed`.
    /// Depth-limited agents get an evaluator that returns 0: they play by the wins and losses
    /// they can see. Use [`build_with_evaluator`](AgentSpec::build_with_evaluator) to give them
    /// the game's heuristic. The game must be `Send + Sync`, as `uct:threads=N` searches it on
    /// several threads (plain data, as every game here, is).
    #[must_use]
    pub fn build<G>(&self, seed: u64) -> Box<dyn Agent<G>>
    where
        G: Game + Send + Sync + 'static,
    {
        self.build_with_evaluator(seed, |_: &G| 0)
    }

    /// Builds the agent for game `G`, with `evaluator` for the depth-limited agents (the
    /// Monte-Carlo ones do not use it).
    #[must_use]
    pub fn build_with_evaluator<G, E>(&self, seed: u64, evaluator: E) -> Box<dyn Agent<G>>
    where
        G: Game + Send + Sync + 'static,
        E: Evaluator<G> + 'static,
    {
        let seed = self.seed.unwrap_or(seed);
        match self.algorithm {
            Algorithm::Random => Box::new(Random::new(seed)),
            Algorithm::Flat(policy) => Box::new(Flat::<G, _>::new(policy, self.reward, seed)),
            Algorithm::Uct(config, 1, _) => {
                Box::new(Uct::<G, _>::with_config(config, self.reward, seed))
            }
            Algorithm::Uct(config, threads, Parallel::Root) => Box::new(RootParallel::<G, _>::new(
                threads,
                config,
                self.reward,
                seed,
            )),
            Algorithm::Uct(config, threads, Parallel::Tree) => Box::new(TreeParallel::<G, _>::new(
                threads,
                config,
                self.reward,
                seed,
            )),
            Algorithm::Reference(plain, depth) => {
                Box::new(Reference::<G, E>::new(plain, depth, evaluator))
            }
            Algorithm::AlphaBeta(config) => {
                Box::new(AlphaBeta::<G, E>::with_config(config, evaluator))
            }
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The text the spec was parsed from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What is wrong with an agent spec.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SpecError {
    /// The name is not an agent.
    #[error(
        "unknown agent {name:?} in {spec:?}: expected random, mc, ucb1, uct, rave, grave, minimax, negamax or alphabeta"
    )]
    UnknownAgent {
        /// The whole spec.
        spec: String,
        /// The name given.
        name: String,
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

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let spec = || text.to_owned();
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim().to_ascii_lowercase();
        // The keys of the budget and reward, shared by the Monte-Carlo agents; UCT's, shared by
        // its variants; each agent accepts the keys of its groups.
        const MONTE_CARLO: &[&str] = &[
            "iterations",
            "playouts",
            "time",
            "seed",
            "win",
            "draw",
            "loss",
        ];
        const UCT: &[&str] = &[
            "c",
            "reuse",
            "final",
            "expand",
            "expand_after",
            "decay",
            "nodes",
            "solver",
            "threads",
            "parallel",
        ];
        let uct_with = |config: UctConfig| Algorithm::Uct(config, 1, Parallel::Root);
        let (mut algorithm, groups): (Algorithm, &[&[&str]]) = match name.as_str() {
            "random" => (Algorithm::Random, &[&["seed"]]),
            "mc" => (Algorithm::Flat(Policy::Uniform), &[MONTE_CARLO]),
            "ucb1" => (
                Algorithm::Flat(Policy::Ucb1 { c: 0.7 }),
                &[MONTE_CARLO, &["c"]],
            ),
            "uct" => (uct_with(UctConfig::default()), &[MONTE_CARLO, UCT]),
            "rave" => (
                uct_with(UctConfig {
                    rave: 300.0,
                    ..UctConfig::default()
                }),
                &[MONTE_CARLO, UCT, &["k"]],
            ),
            "grave" => (
                uct_with(UctConfig {
                    rave: 300.0,
                    grave: 50,
                    ..UctConfig::default()
                }),
                &[MONTE_CARLO, UCT, &["ref", "k"]],
            ),
            "minimax" => (Algorithm::Reference(Plain::Minimax, 4), &[&["depth"]]),
            "negamax" => (Algorithm::Reference(Plain::NegaMax, 4), &[&["depth"]]),
            "alphabeta" => (
                Algorithm::AlphaBeta(AlphaBetaConfig::default()),
                &[&["depth", "time", "table", "ordering", "pvs"]],
            ),
            _ => return Err(SpecError::UnknownAgent { spec: spec(), name }),
        };
        let mut budget = Budget::default();
        let mut seed = None;
        let mut reward = WinDrawLoss::default();
        let mut seen: Vec<String> = Vec::new();
        let mut explicit_depth = false;
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let syntax = |reason: &str| SpecError::Syntax {
                spec: spec(),
                part: part.to_owned(),
                reason: reason.to_owned(),
            };
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| syntax("write KEY=VALUE"))?;
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            if !groups.iter().any(|keys| keys.contains(&key.as_str())) {
                let expected = groups.concat().join(", ");
                return Err(SpecError::UnknownKey {
                    spec: spec(),
                    agent: name,
                    key,
                    expected,
                });
            }
            let canonical = if key == "playouts" {
                "iterations".to_owned()
            } else {
                key.clone()
            };
            if seen.contains(&canonical) {
                return Err(syntax("the key is given twice"));
            }
            seen.push(canonical);
            let bad = |expected: &str| SpecError::BadValue {
                spec: spec(),
                key: key.clone(),
                value: value.to_owned(),
                expected: expected.to_owned(),
            };
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| bad("a number"))
            };
            // A whole number from `low` to `high` (no upper limit when `high` is `u32::MAX`).
            let whole = |low: u32, high: u32| {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (low..=high).contains(n))
                    .ok_or_else(|| match high {
                        u32::MAX => bad(&format!("a whole number of at least {low}")),
                        _ => bad(&format!("a whole number from {low} to {high}")),
                    })
            };
            match key.as_str() {
                "iterations" | "playouts" => {
                    budget.iterations = Some(value.parse().map_err(|_| bad("a whole number"))?);
                }
                "time" => {
                    budget.time = Some(
                        parse_duration(value)
                            .ok_or_else(|| bad("a duration such as 500ms, 2s or 1m"))?,
                    );
                }
                "seed" => seed = Some(value.parse().map_err(|_| bad("a whole number"))?),
                "win" => reward.win = number()?,
                "draw" => reward.draw = number()?,
                "loss" => reward.loss = number()?,
                "c" => {
                    let c = number()?;
                    if c < 0.0 {
                        return Err(bad("a number of at least 0"));
                    }
                    match &mut algorithm {
                        Algorithm::Flat(Policy::Ucb1 { c: slot }) => *slot = c,
                        Algorithm::Uct(config, ..) => config.exploration = c,
                        _ => unreachable!("only ucb1 and uct have c"),
                    }
                }
                "depth" => {
                    let depth = whole(1, 64)?;
                    match &mut algorithm {
                        Algorithm::Reference(_, slot) => *slot = depth,
                        Algorithm::AlphaBeta(config) => config.max_depth = depth,
                        _ => unreachable!("only depth-limited agents have depth"),
                    }
                    explicit_depth = true;
                }
                "table" | "ordering" | "pvs" => {
                    let Algorithm::AlphaBeta(config) = &mut algorithm else {
                        unreachable!("only alphabeta has these keys")
                    };
                    match key.as_str() {
                        "table" => {
                            let mib: usize = value
                                .parse()
                                .ok()
                                .filter(|&m| m <= 1 << 16)
                                .ok_or_else(|| bad("a whole number of MiB, 0 for none"))?;
                            config.table_bytes = mib << 20;
                        }
                        "ordering" => {
                            config.ordering = value.parse().map_err(|_| bad("true or false"))?;
                        }
                        _ => config.pvs = value.parse().map_err(|_| bad("true or false"))?,
                    }
                }
                _ => {
                    let Algorithm::Uct(config, threads, parallel) = &mut algorithm else {
                        unreachable!("only uct has these keys")
                    };
                    match key.as_str() {
                        "reuse" => {
                            config.reuse = value.parse().map_err(|_| bad("true or false"))?;
                        }
                        "solver" => {
                            config.solver = value.parse().map_err(|_| bad("true or false"))?;
                        }
                        "ref" => {
                            config.grave = whole(1, u32::MAX)?;
                        }
                        "k" => {
                            config.rave = number()
                                .ok()
                                .filter(|k| *k > 0.0)
                                .ok_or_else(|| bad("a number above 0"))?;
                        }
                        "threads" => {
                            *threads = whole(1, 1024)? as usize;
                        }
                        "parallel" => {
                            *parallel = match value {
                                "root" => Parallel::Root,
                                "tree" => Parallel::Tree,
                                _ => return Err(bad("root or tree")),
                            }
                        }
                        "final" => {
                            config.final_choice = match value {
                                "visits" => FinalChoice::MostVisits,
                                "mean" => FinalChoice::BestMean,
                                "wins" => FinalChoice::MostWins,
                                _ => return Err(bad("visits, mean or wins")),
                            }
                        }
                        "expand" => {
                            config.expansion = match value {
                                "one" => Expansion::One,
                                "all" => Expansion::All,
                                _ => return Err(bad("one or all")),
                            }
                        }
                        "expand_after" => {
                            config.expand_after = whole(1, u32::MAX)?;
                        }
                        "decay" => {
                            config.decay = number()
                                .ok()
                                .filter(|d| *d > 0.0 && *d <= 1.0)
                                .ok_or_else(|| bad("a number above 0, at most 1"))?;
                        }
                        "nodes" => {
                            config.max_nodes = whole(1, u32::MAX - 1)? as usize; // node ids are u32
                        }
                        _ => unreachable!("every key of the list is handled"),
                    }
                }
            }
        }
        match &mut algorithm {
            Algorithm::AlphaBeta(config) if !explicit_depth && budget.time.is_none() => {
                config.max_depth = 8;
            }
            Algorithm::Flat(_) | Algorithm::Uct(..)
                if budget.iterations.is_none() && budget.time.is_none() =>
            {
                budget.iterations = Some(if matches!(algorithm, Algorithm::Uct(..)) {
                    10_000
                } else {
                    1_000
                });
            }
            _ => {}
        }
        Ok(AgentSpec {
            text: text.to_owned(),
            algorithm,
            budget,
            seed,
            reward,
        })
    }
}

/// `500ms`, `2s`, `1.5s`, `1m`, `250us` as a duration.
fn parse_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n >= 0.0)?;
    let seconds = match unit.trim() {
        "us" | "µs" => number / 1e6,
        "ms" => number / 1e3,
        "s" => number,
        "m" | "min" => number * 60.0,
        _ => return None,
    };
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_agent_with_defaults() {
        for (text, name, iterations) in [
            ("random", "random", None),
            ("mc", "mc", Some(1000)),
            ("mc:playouts=50", "mc", Some(50)),
            ("ucb1:playouts=1000,c=0.7", "ucb1", Some(1000)),
            ("uct", "uct", Some(10_000)),
            ("minimax:depth=3", "minimax", None),
            ("negamax", "negamax", None),
            (
                "alphabeta:depth=8,table=0,ordering=false,pvs=false",
                "alphabeta",
                None,
            ),
            ("alphabeta:time=1s", "alphabeta", None),
            (
                "UCT:iterations=5, c=0.3 ,reuse=false,final=mean,expand=all,expand_after=8,decay=0.9,nodes=1000,loss=-100",
                "uct",
                Some(5),
            ),
        ] {
            let spec: AgentSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(spec.name(), name);
            assert_eq!(spec.budget().iterations, iterations, "{text}");
        }
        let timed: AgentSpec = "uct:time=500ms".parse().unwrap();
        assert_eq!(
            (timed.budget().iterations, timed.budget().time),
            (None, Some(Duration::from_millis(500)))
        );
    }

    #[test]
    fn errors_name_the_key_or_value() {
        let cases = [
            ("alphazero", "unknown agent \"alphazero\""),
            ("mc:c=1", "unknown key \"c\" for mc"),
            ("uct:c=-1", "bad value \"-1\" for c"),
            ("uct:time=soon", "bad value \"soon\" for time"),
            ("uct:iterations=1e3", "bad value \"1e3\" for iterations"),
            ("uct:decay=1.5", "bad value \"1.5\" for decay"),
            ("uct:final=best", "bad value \"best\" for final"),
            ("uct:expand_after=0", "bad value \"0\" for expand_after"),
            ("uct:c", "malformed \"c\""),
            ("uct:playouts=1,iterations=2", "the key is given twice"),
            ("alphabeta:depth=0", "bad value \"0\" for depth"),
            ("minimax:time=1s", "unknown key \"time\" for minimax"),
        ];
        for (text, expected) in cases {
            let message = text.parse::<AgentSpec>().unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
    }

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("250us"), Some(Duration::from_micros(250)));
        assert_eq!(parse_duration("5"), None);
        assert_eq!(parse_duration("-1s"), None);
    }
}
