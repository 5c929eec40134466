//! Agents described by text: `uct:iterations=10000,c=0.4`.

use game_core::{Evaluator, Game, Knowledge, PlayoutPolicy, Prior, Solve, WinDrawLoss};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

use crate::book::BookAgent;
use crate::setting::{Setting, SettingError};
use crate::{
    Agent, AlphaBeta, AlphaBetaConfig, Budget, Flat, Plain, Policy, Prover, Random, Reference,
    RootParallel, SolverAgent, TreeParallel, Uct, UctConfig,
};

/// An agent and its budget, as text: `NAME` or `NAME:KEY=VALUE,KEY=VALUE,...`.
///
/// | name | keys (defaults) |
/// |---|---|
/// | `best` | the game's strongest configuration ([`resolve_best`](AgentSpec::resolve_best); the tools use each game's own), and any key of `uct`, `rave` and `grave` |
/// | `random` | `seed` |
/// | `mc` | `playouts` (1000), `time`, `seed`, `win`/`draw`/`loss` (1 / 0.5 / 0) |
/// | `ucb1` | as `mc`, and `c` (0.7) |
/// | `uct` | `iterations` (10000), `time`, `seed`, `c` (0.4), `reuse` (true), `final` (`visits`, `mean` or `wins`), `expand` (`one` or `all`), `expand_after` (1), `decay` (1), `nodes` (4000000), `solver` (false), `threads` (1; 0 or `auto`: every core), `parallel` (`root` or `tree`: one lock-free tree), `win`/`draw`/`loss`; the game's knowledge: `prior` (`game` or `none`), `playout` (`game` or `random`), `cutoff` (none: plies before the game's evaluator scores a simulation), `puct` (1.0), `examine` (0: off; visits after which a node asks the game what is proven about its moves), `reply` (1: the prior an advised reply gains; 0 ignores the advice), `extend` (1: off; with `time`, how many times the time an unstable search may take), `book` (false: play the game's opening book where it has the position, [`BookAgent`]) |
/// | `rave` | as `uct`, but `c` (0.02), and `k` (300): RAVE's equivalence parameter, `bias` (0: off; with `prior=game`, the weight of a progressive bias `bias·P/sqrt(n+1)` that replaces PUCT, [`UctConfig`]) |
/// | `grave` | as `rave`, and `ref` (50): the visits of the ancestor whose AMAF statistics are used |
/// | `minimax`, `negamax` | `depth` (4) |
/// | `alphabeta` | `depth` (64 with `time`, else 8), `time`, `table` (MiB, 16; 0 for none), `ordering` (true), `pvs` (true) |
/// | `solver` | `time` (1s), `iterations`, `seed`, `fallback` (`best`; any built-in name but `solver`), `share` (0.5): the game's exact solver gets `share` of each move's time, the fallback agent the rest where the solver cannot finish ([`SolverAgent`]) |
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
/// assert_eq!(
///     error.to_string(),
///     "bad value \"lots\" for c in \"uct:c=lots\": expected a number of at least 0"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct AgentSpec {
    text: String,
    algorithm: Algorithm,
    budget: Budget,
    seed: Option<u64>,
    reward: WinDrawLoss,
    /// The keys and values of a game's own agent ([`own_agent`](AgentSpec::own_agent)), other
    /// than its budget and seed.
    settings: Vec<(String, String)>,
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
    /// `best`: the game's strongest configuration, filled in by
    /// [`resolve_best`](AgentSpec::resolve_best); its keys wait in the spec's text.
    Best,
    Random,
    Flat(Policy),
    /// UCT, on how many threads, shared how, with which parts of the game's knowledge.
    Uct(UctConfig, Threads, Hooks),
    Reference(Plain, u32),
    AlphaBeta(AlphaBetaConfig),
    /// An agent of the game's own, named in [`AgentSpec::parse_with`]: the game builds it.
    Own,
    /// `solver`: the game's exact solver for `share` of the time, then the `fallback` agent.
    Solver {
        share: f64,
        fallback: &'static str,
    },
}

/// The agents a `solver` may fall back on.
const FALLBACKS: &[&str] = &[
    "best",
    "random",
    "mc",
    "ucb1",
    "uct",
    "rave",
    "grave",
    "minimax",
    "negamax",
    "alphabeta",
];

impl AgentSpec {
    /// The budget the spec gives each move.
    #[must_use]
    pub fn budget(&self) -> Budget {
        self.budget.clone()
    }

    /// The agent's name: `best`, `solver`, `random`, `mc`, `ucb1`, `uct`, `rave`, `grave`,
    /// `minimax`, `negamax` or `alphabeta`, or the name of a game's own agent.
    #[must_use]
    pub fn name(&self) -> &str {
        match self.algorithm {
            Algorithm::Own => self.own_agent().map_or("", |(name, _)| name),
            Algorithm::Best => "best",
            Algorithm::Solver { .. } => "solver",
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

    /// Reads a spec that may also name one of `own`, the names of a game's own agents (for
    /// example a network-guided search the game's crate provides): such a spec takes the
    /// budget keys (`time`, `iterations`), `seed`, and any other `key=value`, which the game
    /// reads back with [`own_agent`](AgentSpec::own_agent) when it builds the agent. The
    /// built-in names come first. `text.parse()` is `parse_with(text, &[])`.
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let spec = AgentSpec::parse_with("mine:time=1s,depth=3", &["mine"])?;
    /// assert_eq!(spec.name(), "mine");
    /// assert_eq!(spec.budget().time, Some(std::time::Duration::from_secs(1)));
    /// let (name, settings) = spec.own_agent().unwrap();
    /// assert_eq!((name, settings), ("mine", &[("depth".to_owned(), "3".to_owned())][..]));
    /// // Without the name, it is not an agent.
    /// let error = "mine:time=1s".parse::<AgentSpec>().unwrap_err();
    /// assert!(error.to_string().starts_with("unknown agent \"mine\""));
    /// # Ok::<(), search::SpecError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`from_str`](AgentSpec::from_str): an unknown name, key or value, a malformed part.
    pub fn parse_with(text: &str, own: &[&str]) -> Result<AgentSpec, SpecError> {
        parse(text, own)
    }

    /// For the spec of a game's own agent ([`parse_with`](AgentSpec::parse_with)): its name and
    /// its settings other than the budget and seed, in the order given; `None` for the
    /// built-in agents.
    #[must_use]
    pub fn own_agent(&self) -> Option<(&str, &[(String, String)])> {
        if !matches!(self.algorithm, Algorithm::Own) {
            return None;
        }
        let name = self.text.split_once(':').map_or(&*self.text, |(n, _)| n);
        Some((name.trim(), &self.settings))
    }

    /// The seed the spec gives (`seed=N`), if it gives one.
    #[must_use]
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Checks that this spec can play the game of `start`: RAVE and GRAVE need a game that
    /// numbers its actions ([`Game::action_space`]); without numbers they would silently be
    /// plain UCT.
    ///
    /// ```
    /// use game_core::testing::TicTacToe;
    /// use search::AgentSpec;
    ///
    /// // Tic-tac-toe numbers its cells; a game that does not would be refused.
    /// let rave: AgentSpec = "rave:iterations=100".parse()?;
    /// assert!(rave.check_for(&TicTacToe::new()).is_ok());
    /// # Ok::<(), search::SpecError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SpecError::Unsupported`] for `rave` and `grave` on a game without numbered actions.
    pub fn check_for<G: Game>(&self, start: &G) -> Result<(), SpecError> {
        match self.algorithm {
            Algorithm::Uct(config, ..) if config.rave > 0.0 && start.action_space().is_none() => {
                Err(SpecError::Unsupported {
                    spec: self.text.clone(),
                    what: format!(
                        "{} needs a game that numbers its actions (Game::action_space)",
                        self.name()
                    ),
                })
            }
            _ => Ok(()),
        }
    }

    /// This spec with `best` replaced by `config`, the game's strongest configuration (an agent
    /// spec such as `uct:prior=game,playout=game`), the keys given to `best` added to it (and
    /// taking precedence); other specs are returned as they are. The text stays the one given
    /// (`best:time=1s`), so that tools show what the user asked for.
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let best: AgentSpec = "best:time=1s".parse()?;
    /// assert_eq!(best.name(), "best");
    /// let resolved = best.resolve_best("uct:c=0.3,playout=game")?;
    /// assert_eq!(resolved.name(), "uct");
    /// assert_eq!(resolved.budget().time, Some(std::time::Duration::from_secs(1)));
    /// assert_eq!(resolved.to_string(), "best:time=1s");
    /// assert!("best:c=lots".parse::<AgentSpec>()?.resolve_best("uct").is_err());
    /// # Ok::<(), search::SpecError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `config` with the keys given to `best` is not a valid spec.
    pub fn resolve_best(&self, config: &str) -> Result<AgentSpec, SpecError> {
        if !matches!(self.algorithm, Algorithm::Best) {
            return Ok(self.clone());
        }
        let keys = self.text.split_once(':').map_or("", |(_, keys)| keys);
        let (name, base) = config.split_once(':').unwrap_or((config, ""));
        // The user's keys replace the configuration's keys of the same name.
        let key_of = |part: &str| {
            part.split_once('=')
                .map_or(part, |(k, _)| k)
                .trim()
                .to_owned()
        };
        let given: Vec<String> = keys.split(',').map(key_of).collect();
        let parts: Vec<&str> = base
            .split(',')
            .filter(|part| !part.trim().is_empty() && !given.contains(&key_of(part)))
            .chain(keys.split(',').filter(|part| !part.trim().is_empty()))
            .collect();
        let combined = format!("{name}:{}", parts.join(","));
        let mut resolved: AgentSpec = combined.parse().map_err(|error| match error {
            SpecError::BadValue {
                key,
                value,
                expected,
                ..
            } => SpecError::BadValue {
                spec: self.text.clone(),
                key,
                value,
                expected,
            },
            other => other,
        })?;
        resolved.text.clone_from(&self.text);
        Ok(resolved)
    }

    /// For a `solver` spec, the spec of its fallback agent, with the solver's budget and seed;
    /// `None` for other specs.
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let spec: AgentSpec = "solver:time=2s,fallback=alphabeta".parse()?;
    /// let fallback = spec.fallback().unwrap();
    /// assert_eq!(fallback.name(), "alphabeta");
    /// assert_eq!(fallback.budget().time, spec.budget().time);
    /// assert!("uct".parse::<AgentSpec>()?.fallback().is_none());
    /// assert!("solver:fallback=solver".parse::<AgentSpec>().is_err());
    /// # Ok::<(), search::SpecError>(())
    /// ```
    #[must_use]
    pub fn fallback(&self) -> Option<AgentSpec> {
        let Algorithm::Solver { fallback, .. } = self.algorithm else {
            return None;
        };
        let mut spec: AgentSpec = fallback.parse().expect("the fallbacks are built-in agents");
        spec.budget = self.budget.clone();
        spec.seed = self.seed;
        Some(spec)
    }

    /// For a `solver` spec: the agent that tries `solver` (the game's exact solver) for its
    /// share of each move's time, then `fallback` (built from [`fallback`](AgentSpec::fallback)).
    ///
    /// # Errors
    ///
    /// [`SpecError::Unsupported`] when the spec is not a `solver` spec.
    pub fn solver_agent<G, S>(
        &self,
        solver: S,
        fallback: Box<dyn Agent<G> + Send>,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Game + 'static,
        S: Solve<G> + Send + 'static,
    {
        let Algorithm::Solver { share, .. } = self.algorithm else {
            return Err(SpecError::Unsupported {
                spec: self.text.clone(),
                what: "not a solver spec".to_owned(),
            });
        };
        Ok(Box::new(
            SolverAgent::new(solver, fallback).with_share(share),
        ))
    }

    /// Builds the agent for game `G`, seeded with the spec's `seed` or else `seed`, without
    /// any knowledge of the game: depth-limited agents get an evaluator that returns 0 (they
    /// play by the wins and losses they can see). Use [`build_with`](AgentSpec::build_with) to
    /// give them the game's heuristic, and the Monte-Carlo agents its knowledge. The game must
    /// be `Send + Sync`, as `uct:threads=N` searches it on several threads (plain data, as
    /// every game here, is).
    ///
    /// # Errors
    ///
    /// [`SpecError::Unsupported`] when the spec asks for knowledge (`prior=game`,
    /// `playout=game`, `cutoff=N`): this builder has none.
    pub fn build<G>(&self, seed: u64) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Game + Send + Sync + 'static,
    {
        self.build_with(seed, |_: &G| 0, Knowledge::NONE)
    }

    /// Builds the agent for game `G`, seeded with the spec's `seed` or else `seed`: the
    /// depth-limited agents with `evaluator`, the Monte-Carlo tree agents with the parts of
    /// `knowledge` their spec asks for (`prior=game`, `playout=game`, `cutoff=N` for its
    /// evaluator).
    ///
    /// ```
    /// use game_core::{Knowledge, testing::TicTacToe};
    /// use search::AgentSpec;
    ///
    /// let spec: AgentSpec = "uct:cutoff=2".parse()?;
    /// let knowledge = Knowledge::NONE.with_evaluator(|_: &TicTacToe| 0, 1.0);
    /// assert!(spec.build_with(1, |_: &TicTacToe| 0, knowledge).is_ok());
    /// let error = spec.build::<TicTacToe>(1).err().unwrap();
    /// assert!(error.to_string().contains("the game has no evaluator"), "{error}");
    /// # Ok::<(), search::SpecError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SpecError::Unsupported`] when the spec asks for a part of the knowledge that the game
    /// does not have.
    pub fn build_with<G, E, P, L, V>(
        &self,
        seed: u64,
        evaluator: E,
        knowledge: Knowledge<P, L, V>,
    ) -> Result<Box<dyn Agent<G> + Send>, SpecError>
    where
        G: Game + Send + Sync + 'static,
        E: Evaluator<G> + Send + 'static,
        P: Prior<G> + Clone + Send + Sync + 'static,
        L: PlayoutPolicy<G> + Clone + Send + Sync + 'static,
        V: Evaluator<G> + Clone + Send + Sync + 'static,
    {
        // `best` without a game's own configuration: UCT with whatever the game knows.
        let resolved;
        let spec = if let Algorithm::Best = self.algorithm {
            let mut parts = Vec::new();
            if knowledge.prior.is_some() {
                parts.push("prior=game");
            }
            if knowledge.policy.is_some() {
                parts.push("playout=game");
            }
            resolved = self.resolve_best(&format!("uct:{}", parts.join(",")))?;
            &resolved
        } else {
            self
        };
        if let Some(fallback) = spec.fallback() {
            // Without a solver of the game's own, the one every game has.
            let fallback = fallback.build_with(seed, evaluator, knowledge)?;
            return spec.solver_agent(Prover::<G>::default(), fallback);
        }
        let seed = spec.seed.unwrap_or(seed);
        Ok(match spec.algorithm {
            Algorithm::Best => {
                return Err(SpecError::Unsupported {
                    spec: spec.text.clone(),
                    what: "best needs a configuration (AgentSpec::resolve_best)".to_owned(),
                });
            }
            Algorithm::Random => Box::new(Random::new(seed)),
            Algorithm::Flat(policy) => Box::new(Flat::<G, _>::new(policy, spec.reward, seed)),
            Algorithm::Uct(config, threads, hooks) => {
                let unsupported = |what: &str| SpecError::Unsupported {
                    spec: spec.text.clone(),
                    what: what.to_owned(),
                };
                // The opening book answers through the prior, whether or not it also guides
                // the search.
                let book = match (hooks.book, &knowledge.prior) {
                    (false, _) => None,
                    (true, Some(prior)) => Some(prior.clone()),
                    (true, None) => {
                        return Err(unsupported("book=true: the game has no opening knowledge"));
                    }
                };
                let knowledge = Knowledge {
                    prior: match (hooks.prior, knowledge.prior) {
                        (false, _) => None,
                        (true, Some(prior)) => Some(prior),
                        (true, None) => {
                            return Err(unsupported("prior=game: the game has no prior"));
                        }
                    },
                    policy: match (hooks.playout, knowledge.policy) {
                        (false, _) => None,
                        (true, Some(policy)) => Some(policy),
                        (true, None) => {
                            return Err(unsupported(
                                "playout=game: the game has no playout policy",
                            ));
                        }
                    },
                    evaluator: match (config.cutoff, knowledge.evaluator) {
                        (None, _) => None,
                        (Some(_), Some(evaluator)) => Some(evaluator),
                        (Some(_), None) => {
                            return Err(unsupported("cutoff: the game has no evaluator"));
                        }
                    },
                    scale: knowledge.scale,
                };
                let reward = spec.reward;
                let threads = Threads {
                    count: match threads.count {
                        0 => std::thread::available_parallelism().map_or(1, usize::from),
                        n => n,
                    },
                    ..threads
                };
                let search: Box<dyn Agent<G> + Send> = match threads {
                    Threads { count: 1, .. } => Box::new(Uct::<G, _, _>::with_knowledge(
                        config, reward, knowledge, seed,
                    )),
                    Threads {
                        count,
                        parallel: Parallel::Root,
                    } => Box::new(RootParallel::<G, _, _>::with_knowledge(
                        count, config, reward, knowledge, seed,
                    )),
                    Threads {
                        count,
                        parallel: Parallel::Tree,
                    } => Box::new(TreeParallel::<G, _, _>::with_knowledge(
                        count, config, reward, knowledge, seed,
                    )),
                };
                match book {
                    Some(book) => Box::new(BookAgent::new(book, search)),
                    None => search,
                }
            }
            Algorithm::Reference(plain, depth) => {
                Box::new(Reference::<G, E>::new(plain, depth, evaluator))
            }
            Algorithm::AlphaBeta(config) => {
                Box::new(AlphaBeta::<G, E>::with_config(config, evaluator))
            }
            Algorithm::Own => {
                return Err(SpecError::Unsupported {
                    spec: spec.text.clone(),
                    what: format!(
                        "{} is the game's own agent: the game builds it",
                        spec.name()
                    ),
                });
            }
            Algorithm::Solver { .. } => unreachable!("built above"),
        })
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

/// An agent spec's name: the algorithm with its defaults, and every key it takes.
struct Entry<'a> {
    name: &'a str,
    algorithm: Algorithm,
    keys: Vec<&'static str>,
}

/// The keys of a Monte-Carlo agent's budget, seed and reward.
const MONTE_CARLO: [&[&str]; 3] = [Budget::KEYS, &["seed"], REWARD_KEYS];
/// The keys of the reward (`WinDrawLoss`).
const REWARD_KEYS: &[&str] = &["win", "draw", "loss"];
/// The exploration constant `c` of `rave:` and `grave:` specs.
const RAVE_EXPLORATION: f64 = 0.02;
/// UCT's keys that only its RAVE variants take.
const RAVE_ONLY: &[&str] = &["k", "ref", "bias", "skip_rave"];

impl Entry<'_> {
    /// The entry for the agent called `name`, if there is one.
    fn named(name: &str) -> Option<Entry<'static>> {
        let monte_carlo = MONTE_CARLO.concat();
        let uct_keys = |extra: &[&'static str]| {
            let uct = UctConfig::KEYS.iter().filter(|k| !RAVE_ONLY.contains(k));
            let mut keys = monte_carlo.clone();
            keys.extend(uct.chain(Threads::KEYS).chain(Hooks::KEYS).chain(extra));
            keys
        };
        // RAVE explores mostly by its AMAF statistics: a small exploration term by default
        // (docs/experiments.md, section 6: `c=0` is stronger on Hex, much weaker on Othello).
        let uct = |rave: f64, grave: u32| {
            let mut config = UctConfig {
                rave,
                grave,
                ..UctConfig::default()
            };
            if rave > 0.0 {
                config.exploration = RAVE_EXPLORATION;
            }
            Algorithm::Uct(config, Threads::default(), Hooks::default())
        };
        let (name, algorithm, keys) = match name {
            "random" => ("random", Algorithm::Random, vec!["seed"]),
            // Any key of the UCT family; the game's configuration decides which apply.
            "best" => ("best", Algorithm::Best, uct_keys(RAVE_ONLY)),
            "mc" => ("mc", Algorithm::Flat(Policy::Uniform), monte_carlo.clone()),
            "ucb1" => {
                let keys = [monte_carlo.as_slice(), Policy::KEYS].concat();
                ("ucb1", Algorithm::Flat(Policy::Ucb1 { c: 0.7 }), keys)
            }
            "uct" => ("uct", uct(0.0, 0), uct_keys(&[])),
            "rave" => ("rave", uct(300.0, 0), uct_keys(&["k", "bias", "skip_rave"])),
            "grave" => ("grave", uct(300.0, 50), uct_keys(RAVE_ONLY)),
            "minimax" => (
                "minimax",
                Algorithm::Reference(Plain::Minimax, 4),
                vec!["depth"],
            ),
            "negamax" => (
                "negamax",
                Algorithm::Reference(Plain::NegaMax, 4),
                vec!["depth"],
            ),
            "solver" => {
                let solver = Algorithm::Solver {
                    share: 0.5,
                    fallback: "best",
                };
                let keys = [Budget::KEYS, &["seed", "fallback", "share"]].concat();
                ("solver", solver, keys)
            }
            "alphabeta" => {
                let keys = [AlphaBetaConfig::KEYS, &["time"]].concat();
                let config = AlphaBetaConfig::default();
                ("alphabeta", Algorithm::AlphaBeta(config), keys)
            }
            _ => return None,
        };
        Some(Entry {
            name,
            algorithm,
            keys,
        })
    }
}

impl Algorithm {
    /// Sets one of the algorithm's own keys (not the budget's, seed's or reward's).
    fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        match self {
            Algorithm::Flat(policy) => policy.set(key, value),
            Algorithm::Uct(_, threads, _) if Threads::KEYS.contains(&key) => {
                threads.set(key, value)
            }
            Algorithm::Uct(_, _, hooks) if Hooks::KEYS.contains(&key) => hooks.set(key, value),
            Algorithm::Uct(config, ..) => config.set(key, value),
            Algorithm::Reference(_, depth) if key == "depth" => {
                *depth = Setting::new(key, value).whole(1, 64)?;
                Ok(())
            }
            Algorithm::AlphaBeta(config) => config.set(key, value),
            Algorithm::Random | Algorithm::Reference(..) => {
                Err(Setting::new(key, value).unknown(&[]))
            }
            // The game's own agent keeps its keys for the game ([`AgentSpec::own_agent`]).
            Algorithm::Own => Ok(()),
            // `best` takes its keys when it is resolved.
            Algorithm::Best => Ok(()),
            Algorithm::Solver { share, fallback } => {
                let setting = Setting::new(key, value);
                match key {
                    "share" => {
                        *share = setting
                            .number_where(|v| (0.0..=1.0).contains(&v), "a number from 0 to 1")?;
                    }
                    "fallback" => {
                        let choices: Vec<(&str, &'static str)> =
                            FALLBACKS.iter().map(|&f| (f, f)).collect();
                        *fallback = setting.choice(&choices)?;
                    }
                    _ => return Err(setting.unknown(&["fallback", "share"])),
                }
                Ok(())
            }
        }
    }
}

/// How many threads UCT searches on, and how they share the work.
#[derive(Clone, Copy, Debug)]
struct Threads {
    count: usize,
    parallel: Parallel,
}

impl Default for Threads {
    fn default() -> Self {
        Threads {
            count: 1,
            parallel: Parallel::Root,
        }
    }
}

impl Threads {
    const KEYS: &[&str] = &["threads", "parallel"];

    fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            // 0 and `auto`: every core, as the machine reports them when the agent is built.
            "threads" if value == "auto" => self.count = 0,
            "threads" => {
                self.count = setting.whole(0, 1024).map_err(|_| {
                    Setting::new(key, value).bad("a whole number from 0 to 1024, or auto")
                })? as usize;
            }
            "parallel" => {
                self.parallel =
                    setting.choice(&[("root", Parallel::Root), ("tree", Parallel::Tree)])?;
            }
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }
}

/// Which parts of the game's knowledge a UCT agent uses (its evaluator comes with `cutoff`).
#[derive(Clone, Copy, Debug, Default)]
struct Hooks {
    /// `prior=game`: the game's prior in selection (PUCT).
    prior: bool,
    /// `playout=game`: the game's playout policy in simulations.
    playout: bool,
    /// `book=true`: the game's opening book ([`Prior::opening`]) before any search.
    book: bool,
}

impl Hooks {
    const KEYS: &[&str] = &["prior", "playout", "book"];

    fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            "prior" => self.prior = setting.choice(&[("game", true), ("none", false)])?,
            "playout" => self.playout = setting.choice(&[("game", true), ("random", false)])?,
            "book" => self.book = setting.flag()?,
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }
}

/// Sets one of the reward's keys (`win`, `draw`, `loss`).
fn set_reward(reward: &mut WinDrawLoss, key: &str, value: &str) -> Result<(), SettingError> {
    let setting = Setting::new(key, value);
    let slot = match key {
        "win" => &mut reward.win,
        "draw" => &mut reward.draw,
        "loss" => &mut reward.loss,
        _ => return Err(setting.unknown(REWARD_KEYS)),
    };
    *slot = setting.number()?;
    Ok(())
}

/// The built-in agents' names, as an error lists them.
const NAMES: &str =
    "best, solver, random, mc, ucb1, uct, rave, grave, minimax, negamax or alphabeta";

impl FromStr for AgentSpec {
    type Err = SpecError;

    /// A spec of the built-in agents ([`parse_with`](AgentSpec::parse_with) reads a game's
    /// own agents too).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse(text, &[])
    }
}

/// Split (the name, then `key=value` parts), dispatch (each key to the part of the agent that
/// owns it), defaults (the budget of an agent given none).
fn parse(text: &str, own: &[&str]) -> Result<AgentSpec, SpecError> {
    let text = text.trim();
    let spec = || text.to_owned();
    let (name, rest) = text.split_once(':').unwrap_or((text, ""));
    let name = name.trim().to_ascii_lowercase();
    let own_name = own.iter().find(|o| o.eq_ignore_ascii_case(&name));
    let Some(Entry {
        name,
        mut algorithm,
        keys,
    }) = Entry::named(&name).or_else(|| {
        own_name.map(|&o| Entry {
            name: o,
            algorithm: Algorithm::Own,
            keys: Vec::new(),
        })
    })
    else {
        let expected = if own.is_empty() {
            NAMES.to_owned()
        } else {
            format!(
                "{}, or the game's own {}",
                NAMES.replace(" or ", ", "),
                own.join(", ")
            )
        };
        return Err(SpecError::UnknownAgent {
            spec: spec(),
            name,
            expected,
        });
    };
    let own_agent = matches!(algorithm, Algorithm::Own);
    let mut settings = Vec::new();
    let mut budget = Budget::default();
    let mut seed = None;
    let mut reward = WinDrawLoss::default();
    let mut seen: Vec<String> = Vec::new();
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
        let unknown = || SpecError::UnknownKey {
            spec: spec(),
            agent: name.to_owned(),
            key: key.clone(),
            expected: keys.join(", "),
        };
        let shared = Budget::KEYS.contains(&key.as_str()) || key == "seed";
        if own_agent && !shared {
            if settings.iter().any(|(k, _)| *k == key) {
                return Err(syntax("the key is given twice"));
            }
            settings.push((key, value.to_owned()));
            continue;
        }
        if !own_agent && !keys.contains(&key.as_str()) {
            return Err(unknown());
        }
        let canonical = if key == "playouts" {
            "iterations"
        } else {
            &key
        };
        if seen.iter().any(|k| k == canonical) {
            return Err(syntax("the key is given twice"));
        }
        seen.push(canonical.to_owned());
        let set = if Budget::KEYS.contains(&key.as_str()) {
            budget.set(&key, value)
        } else if key == "seed" {
            Setting::new(&key, value).count().map(|s| seed = Some(s))
        } else if REWARD_KEYS.contains(&key.as_str()) {
            set_reward(&mut reward, &key, value)
        } else {
            algorithm.set(&key, value)
        };
        set.map_err(|error| match error {
            SettingError::UnknownKey { .. } => unknown(),
            SettingError::BadValue {
                key,
                value,
                expected,
            } => SpecError::BadValue {
                spec: spec(),
                key,
                value,
                expected,
            },
        })?;
    }
    let counted = budget.iterations.is_some() || budget.time.is_some();
    match &mut algorithm {
        Algorithm::AlphaBeta(config) if !seen.iter().any(|k| k == "depth") && !counted => {
            config.max_depth = 8;
        }
        Algorithm::Flat(_) if !counted => budget.iterations = Some(1_000),
        Algorithm::Uct(..) if !counted => budget.iterations = Some(10_000),
        Algorithm::Solver { .. } if budget.time.is_none() => {
            budget.time = Some(crate::exact::DEFAULT_TIME);
        }
        _ => {}
    }
    Ok(AgentSpec {
        text: text.to_owned(),
        algorithm,
        budget,
        seed,
        reward,
        settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A value that fits `key`.
    fn sample(key: &str) -> &'static str {
        match key {
            "iterations" | "playouts" | "nodes" | "expand_after" | "ref" | "seed" | "examine"
            | "skip_rave" => "7",
            "time" => "5ms",
            "win" | "draw" | "loss" | "c" | "k" => "0.5",
            "reuse" | "solver" | "ordering" | "pvs" | "book" => "false",
            "final" => "mean",
            "expand" => "all",
            "decay" => "0.9",
            "threads" | "depth" | "table" | "cutoff" => "2",
            "puct" | "bias" | "reply" | "extend" => "1.5",
            "prior" => "none",
            "playout" => "random",
            "parallel" => "tree",
            "fallback" => "uct",
            "share" | "fpu" => "0.25",
            _ => panic!("no sample value for {key}"),
        }
    }

    #[test]
    fn every_key_an_agent_lists_reaches_a_setter() {
        let names = [
            "random",
            "mc",
            "ucb1",
            "uct",
            "rave",
            "grave",
            "minimax",
            "negamax",
            "alphabeta",
            "solver",
        ];
        for name in names {
            let entry = Entry::named(name).expect("a known agent");
            for key in entry.keys {
                let text = format!("{name}:{key}={}", sample(key));
                let parsed = text.parse::<AgentSpec>();
                assert!(parsed.is_ok(), "{text}: {}", parsed.unwrap_err());
            }
        }
    }

    #[test]
    fn only_the_rave_agents_take_rave_keys() {
        assert!("uct:k=100".parse::<AgentSpec>().is_err());
        assert!("rave:ref=10".parse::<AgentSpec>().is_err());
        let grave: AgentSpec = "grave:ref=10,k=100".parse().unwrap();
        let Algorithm::Uct(config, ..) = grave.algorithm else {
            panic!("grave is UCT");
        };
        assert_eq!((config.grave, config.rave), (10, 100.0));
        assert!("uct:skip_rave=30".parse::<AgentSpec>().is_err());
        let rave: AgentSpec = "rave:skip_rave=30".parse().unwrap();
        let Algorithm::Uct(config, ..) = rave.algorithm else {
            panic!("rave is UCT");
        };
        assert_eq!(config.skip_rave, 30);
        assert!("rave:skip_rave=-1".parse::<AgentSpec>().is_err());
    }

    #[test]
    fn rave_explores_by_its_statistics_unless_told_otherwise() {
        let exploration = |text: &str| match text.parse::<AgentSpec>().unwrap().algorithm {
            Algorithm::Uct(config, ..) => config.exploration,
            _ => panic!("{text} is UCT"),
        };
        assert_eq!(exploration("uct"), 0.4);
        assert_eq!(exploration("rave"), 0.02);
        assert_eq!(exploration("grave"), 0.02);
        assert_eq!(exploration("rave:c=0.3"), 0.3);
    }

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
            ("uct:threads=many", "bad value \"many\" for threads"),
            ("uct:threads=2000", "from 0 to 1024, or auto"),
            ("uct:book=maybe", "bad value \"maybe\" for book"),
            ("mc:book=true", "unknown key \"book\" for mc"),
        ];
        for (text, expected) in cases {
            let message = text.parse::<AgentSpec>().unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
    }

    #[test]
    fn a_book_needs_the_games_opening_knowledge() {
        let spec: AgentSpec = "uct:book=true,iterations=10".parse().unwrap();
        let error = spec
            .build::<game_core::testing::TicTacToe>(1)
            .err()
            .expect("tic-tac-toe has no knowledge here");
        assert!(
            error.to_string().contains("no opening knowledge"),
            "{error}"
        );
    }

    #[test]
    fn threads_auto_and_0_mean_every_core() {
        for text in ["uct:threads=auto", "uct:threads=0,parallel=tree"] {
            let spec: AgentSpec = text.parse().unwrap();
            let Algorithm::Uct(_, threads, _) = spec.algorithm else {
                panic!("{text} is UCT");
            };
            assert_eq!(threads.count, 0, "{text}");
        }
        let mut agent = "uct:threads=auto,iterations=2000"
            .parse::<AgentSpec>()
            .unwrap()
            .build::<game_core::testing::TicTacToe>(1)
            .unwrap();
        let start = game_core::testing::TicTacToe::new();
        assert!(agent.choose(&start, &Budget::iterations(2_000)).is_some());
        assert_eq!(agent.report().unwrap().iterations, 2_000);
    }
}
