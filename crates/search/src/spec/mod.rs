//! Agents described by text: `uct:iterations=10000,c=0.4`.
//!
//! Where each part lives: this file is [`AgentSpec`] and what it tells of itself;
//! `grammar.rs` reads the text (the name, then `key=value` parts, each to the part of the
//! agent that owns it); `registry.rs` the agents' names, their defaults and the setters of
//! their keys; `build.rs` the agent a spec describes, with the game's knowledge; `error.rs`
//! what can be wrong.

mod build;
mod error;
mod grammar;
mod registry;
#[cfg(test)]
mod tests;

pub use error::SpecError;

use game_core::{Game, WinDrawLoss};
use std::fmt;
use std::str::FromStr;

use crate::{AlphaBetaConfig, Budget, Plain, Policy, RaveConfig, UctConfig};
use grammar::parse;
use registry::{Hooks, Threads};

/// An agent and its budget, as text: `NAME` or `NAME:KEY=VALUE,KEY=VALUE,...`.
///
/// | name | keys (defaults) |
/// |---|---|
/// | `best` | the game's strongest configuration ([`resolve_best`](AgentSpec::resolve_best); the tools use each game's own), and any key of `uct`, `rave` and `grave` |
/// | `random` | `seed` |
/// | `mc` | `playouts` (1000), `time`, `seed`, `win`/`draw`/`loss` (1 / 0.5 / 0) |
/// | `ucb1` | as `mc`, and `c` (0.7) |
/// | `uct` | `iterations` (10000), `time`, `seed`, `c` (0.4), `reuse` (true), `final` (`visits`, `mean` or `wins`), `expand` (`one` or `all`), `expand_after` (1), `decay` (1), `nodes` (4000000), `prune` (true: a tree three quarters full loses its least-visited subtrees), `prove` (false: MCTS-Solver, proofs in the tree), `threads` (1, and every core in the tools that play, [`on_cores`](AgentSpec::on_cores); 0 or `auto`: every core), `parallel` (`root`: a tree per thread, merged at the root, or `tree`: one lock-free tree; `tree` where a tool chose the threads), `win`/`draw`/`loss`; the game's knowledge: `prior` (`game` or `none`), `playout` (`game` or `random`), `cutoff` (none: plies before the game's evaluator scores a simulation), `puct` (1.0), `examine` (0: off; visits after which a node asks the game what is proven about its moves), `reply` (1: the prior an advised reply gains; 0 ignores the advice), `extend` (1: off; with `time`, how many times the time an unstable search may take), `book` (false: play the game's opening book where it has the position, [`BookAgent`](crate::BookAgent)) |
/// | `rave` | as `uct`, but `c` (0.02), and `k` (300): RAVE's equivalence parameter, `bias` (0: off; with `prior=game`, the weight of a progressive bias `bias·P/sqrt(n+1)` that replaces PUCT, [`UctConfig`]) |
/// | `grave` | as `rave`, and `ref` (50): the visits of the ancestor whose AMAF statistics are used |
/// | `minimax`, `negamax` | `depth` (4) |
/// | `alphabeta` | `depth` (64 with `time`, else 8), `time`, `table` (MiB, 16; 0 for none), `ordering` (true), `pvs` (true) |
/// | `solver` | `time` (1s), `iterations`, `seed`, `fallback` (`best`; any built-in name but `solver`), `share` (0.5): the game's exact solver gets `share` of each move's time, the fallback agent the rest where the solver cannot finish ([`SolverAgent`](crate::SolverAgent)) |
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
    /// `best`: the threads [`on_cores`](AgentSpec::on_cores) asked for, applied once the game's
    /// configuration is known.
    cores: Option<usize>,
}

/// The agent a spec names, with its settings.
#[derive(Clone, Debug)]
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
    /// An agent of the game's own, named in [`AgentSpec::parse_with`] (its name as the game
    /// spells it): the game builds it.
    Own(String),
    /// `solver`: the game's exact solver for `share` of the time, then the `fallback` agent.
    Solver {
        share: f64,
        /// The agent for what the solver cannot finish, as a spec of its own (its budget and
        /// seed are the solver's: [`AgentSpec::fallback`]).
        fallback: Box<AgentSpec>,
    },
}

impl AgentSpec {
    /// `best` with no keys: a `solver`'s fallback unless it names another.
    fn best() -> AgentSpec {
        AgentSpec {
            text: "best".to_owned(),
            algorithm: Algorithm::Best,
            budget: Budget::default(),
            seed: None,
            reward: WinDrawLoss::default(),
            settings: Vec::new(),
            cores: None,
        }
    }

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
            Algorithm::Own(ref name) => name,
            Algorithm::Best => "best",
            Algorithm::Solver { .. } => "solver",
            Algorithm::Random => "random",
            Algorithm::Flat(Policy::Uniform) => "mc",
            Algorithm::Flat(Policy::Ucb1 { .. }) => "ucb1",
            Algorithm::Uct(config, ..) => match config.rave {
                Some(RaveConfig { grave: Some(_), .. }) => "grave",
                Some(_) => "rave",
                None => "uct",
            },
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
        let Algorithm::Own(name) = &self.algorithm else {
            return None;
        };
        Some((name, &self.settings))
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
            Algorithm::Uct(config, ..)
                if config.rave.is_some() && start.action_space().is_none() =>
            {
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
        self.resolve_best_with(config, &[])
    }

    /// As [`resolve_best`](AgentSpec::resolve_best), for a game whose strongest configuration
    /// may be one of its own agents, `own` ([`parse_with`](AgentSpec::parse_with)): Othello's
    /// `best` is its `pvs`. `threads` and `parallel` given to `best` are dropped when the
    /// configuration is not a tree search (so `best:threads=1` works on every game).
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let best: AgentSpec = "best:time=1s,threads=2".parse()?;
    /// let resolved = best.resolve_best_with("mine:depth=3", &["mine"])?;
    /// assert_eq!(resolved.own_agent().map(|(name, _)| name), Some("mine"));
    /// assert_eq!(resolved.budget().time, Some(std::time::Duration::from_secs(1)));
    /// // Threads are for tree searches: an agent without them runs on one.
    /// assert_eq!(resolved.threads(), None);
    /// # Ok::<(), search::SpecError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When `config` with the keys given to `best` is not a valid spec.
    pub fn resolve_best_with(&self, config: &str, own: &[&str]) -> Result<AgentSpec, SpecError> {
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
        // `threads` and `parallel` ask for threads where the game's best is a tree search;
        // an agent without threads (Othello's `pvs`) runs on one.
        let threaded = AgentSpec::parse_with(config, own)
            .is_ok_and(|c| matches!(c.algorithm, Algorithm::Uct(..)));
        let parts: Vec<&str> = base
            .split(',')
            .filter(|part| !part.trim().is_empty() && !given.contains(&key_of(part)))
            .chain(keys.split(',').filter(|part| {
                !part.trim().is_empty()
                    && (threaded || !Threads::KEYS.contains(&key_of(part).as_str()))
            }))
            .collect();
        let combined = format!("{name}:{}", parts.join(","));
        let mut resolved = AgentSpec::parse_with(&combined, own).map_err(|error| match error {
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
        Ok(match self.cores {
            Some(cores) => resolved.on_cores(cores),
            None => resolved,
        })
    }

    /// The spec as the tools that play (rather than measure) run it: a Monte-Carlo tree
    /// search whose spec does not say `threads` searches on `cores` threads (0: every core
    /// the machine reports) sharing one lock-free tree (`parallel=tree`, unless the spec says
    /// `parallel`: on Hex 11x11 at 100 ms a move, `best` on two threads sharing one tree
    /// scored 56% against one thread, with a tree per thread 50%). `best` takes it once the
    /// game's configuration is resolved, and `solver` gives it to its fallback; other agents
    /// are unchanged, and `cores` 1 changes nothing.
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let spec: AgentSpec = "uct:time=1s".parse()?;
    /// assert_eq!(spec.on_cores(4).threads(), Some(4));
    /// let one: AgentSpec = "uct:time=1s,threads=1".parse()?;
    /// assert_eq!(one.on_cores(4).threads(), Some(1)); // the spec's own choice stands
    /// let best = "best".parse::<AgentSpec>()?.on_cores(2).resolve_best("rave:c=0")?;
    /// assert_eq!(best.threads(), Some(2));
    /// assert_eq!("alphabeta".parse::<AgentSpec>()?.on_cores(4).threads(), None);
    /// # Ok::<(), search::SpecError>(())
    /// ```
    #[must_use]
    pub fn on_cores(&self, cores: usize) -> AgentSpec {
        let mut spec = self.clone();
        match &mut spec.algorithm {
            Algorithm::Best => spec.cores = Some(cores),
            Algorithm::Solver { fallback, .. } => **fallback = fallback.on_cores(cores),
            Algorithm::Uct(_, threads, _) if !threads.count_given && cores != 1 => {
                threads.count = cores;
                if !threads.parallel_given {
                    threads.parallel = registry::Parallel::Tree;
                }
            }
            _ => {}
        }
        spec
    }

    /// The threads a Monte-Carlo tree search of this spec runs on (every core the machine
    /// reports for `threads=auto`); `None` for other agents, and for `best` before it is
    /// resolved.
    #[must_use]
    pub fn threads(&self) -> Option<usize> {
        match &self.algorithm {
            Algorithm::Uct(_, threads, _) => Some(match threads.count {
                0 => std::thread::available_parallelism().map_or(1, usize::from),
                n => n,
            }),
            _ => None,
        }
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
        let Algorithm::Solver { fallback, .. } = &self.algorithm else {
            return None;
        };
        let mut spec = AgentSpec::clone(fallback);
        spec.budget = self.budget.clone();
        spec.seed = self.seed;
        Some(spec)
    }

    /// The settings of a `uct`, `rave` or `grave` spec, for a search whose priors and values
    /// come from elsewhere: [`BatchedUct`](crate::BatchedUct) with a network, as the Python
    /// package's evaluators drive it. `None` for other agents, and for a spec that asks for
    /// what such a search does not have: the game's knowledge (`prior=game`, `playout=game`,
    /// `book=true`, `cutoff`) or more than one thread.
    ///
    /// ```
    /// use search::AgentSpec;
    ///
    /// let spec: AgentSpec = "uct:iterations=800,c=1.5".parse()?;
    /// assert_eq!(spec.batched_config().map(|c| c.exploration), Some(1.5));
    /// assert!("uct:prior=game".parse::<AgentSpec>()?.batched_config().is_none());
    /// assert!("alphabeta".parse::<AgentSpec>()?.batched_config().is_none());
    /// # Ok::<(), search::SpecError>(())
    /// ```
    #[must_use]
    pub fn batched_config(&self) -> Option<UctConfig> {
        match self.algorithm {
            Algorithm::Uct(config, threads, hooks)
                if threads.count == 1
                    && !hooks.prior
                    && !hooks.playout
                    && !hooks.book
                    && config.cutoff.is_none() =>
            {
                Some(config)
            }
            _ => None,
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The text the spec was parsed from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    /// A spec of the built-in agents ([`parse_with`](AgentSpec::parse_with) reads a game's
    /// own agents too).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse(text, &[])
    }
}
