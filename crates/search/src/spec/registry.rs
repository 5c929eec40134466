//! The registry of agent specs: each built-in agent's name, its algorithm with the defaults,
//! the keys it takes, and the setters that give those keys their values.

use game_core::WinDrawLoss;

use super::{AgentSpec, Algorithm};
use crate::setting::{Setting, SettingError};
use crate::{AlphaBetaConfig, Budget, Plain, Policy, RaveConfig, UctConfig};

/// The built-in agents' names, in the order an error lists them. A `solver` may fall back on
/// any of them but itself.
pub(super) const BUILT_IN: &[&str] = &[
    "best",
    "solver",
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

/// An agent spec's name: the algorithm with its defaults, and every key it takes.
pub(super) struct Entry<'a> {
    pub(super) name: &'a str,
    pub(super) algorithm: Algorithm,
    pub(super) keys: Vec<&'static str>,
}

/// The keys of a Monte-Carlo agent's budget, seed and reward.
const MONTE_CARLO: [&[&str]; 3] = [Budget::KEYS, &["seed"], REWARD_KEYS];
/// The keys of the reward (`WinDrawLoss`).
pub(super) const REWARD_KEYS: &[&str] = &["win", "draw", "loss"];
/// The exploration constant `c` of `rave:` and `grave:` specs.
const RAVE_EXPLORATION: f64 = 0.02;
/// UCT's keys that only its RAVE variants take.
const RAVE_ONLY: &[&str] = &["k", "ref", "bias", "skip_rave"];

impl Entry<'_> {
    /// The entry for the agent called `name`, if there is one.
    pub(super) fn named(name: &str) -> Option<Entry<'static>> {
        let monte_carlo = MONTE_CARLO.concat();
        let uct_keys = |extra: &[&'static str]| {
            let uct = UctConfig::KEYS.iter().filter(|k| !RAVE_ONLY.contains(k));
            let mut keys = monte_carlo.clone();
            keys.extend(uct.chain(Threads::KEYS).chain(Hooks::KEYS).chain(extra));
            keys
        };
        // RAVE explores mostly by its AMAF statistics: a small exploration term by default
        // (docs/experiments.md, section 6: `c=0` is stronger on Hex, much weaker on Othello).
        let uct = |rave: Option<RaveConfig>| {
            let config = UctConfig {
                rave,
                exploration: if rave.is_some() {
                    RAVE_EXPLORATION
                } else {
                    UctConfig::default().exploration
                },
                ..UctConfig::default()
            };
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
            "uct" => ("uct", uct(None), uct_keys(&[])),
            "rave" => (
                "rave",
                uct(Some(RaveConfig::RAVE)),
                uct_keys(&["k", "bias", "skip_rave"]),
            ),
            "grave" => ("grave", uct(Some(RaveConfig::GRAVE)), uct_keys(RAVE_ONLY)),
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
                    fallback: Box::new(AgentSpec::best()),
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
    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
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
            Algorithm::Own(_) => Ok(()),
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
                        let choices: Vec<(&str, &'static str)> = BUILT_IN
                            .iter()
                            .filter(|&&f| f != "solver")
                            .map(|&f| (f, f))
                            .collect();
                        let name = setting.choice(&choices)?;
                        // A built-in name alone, which parses; the solver's budget and seed
                        // are given to it when it is built.
                        **fallback = name.parse().map_err(|_| setting.bad(name))?;
                    }
                    _ => return Err(setting.unknown(&["fallback", "share"])),
                }
                Ok(())
            }
        }
    }
}

/// How UCT shares out its work over several threads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Parallel {
    /// A tree per thread, merged at the root ([`RootParallel`]).
    Root,
    /// One tree, with virtual loss ([`TreeParallel`]).
    Tree,
}

/// How many threads UCT searches on, and how they share the work.
#[derive(Clone, Copy, Debug)]
pub(super) struct Threads {
    pub(super) count: usize,
    pub(super) parallel: Parallel,
    /// Whether the spec gave `threads`, and `parallel`: a tool's default for playing
    /// ([`AgentSpec::on_cores`](super::AgentSpec::on_cores)) changes only what it did not.
    pub(super) count_given: bool,
    pub(super) parallel_given: bool,
}

impl Default for Threads {
    fn default() -> Self {
        Threads {
            count: 1,
            parallel: Parallel::Root,
            count_given: false,
            parallel_given: false,
        }
    }
}

impl Threads {
    pub(super) const KEYS: &[&str] = &["threads", "parallel"];

    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            // 0 and `auto`: every core, as the machine reports them when the agent is built.
            "threads" if value == "auto" => {
                self.count = 0;
                self.count_given = true;
            }
            "threads" => {
                self.count = setting.whole(0, 1024).map_err(|_| {
                    Setting::new(key, value).bad("a whole number from 0 to 1024, or auto")
                })? as usize;
                self.count_given = true;
            }
            "parallel" => {
                self.parallel =
                    setting.choice(&[("root", Parallel::Root), ("tree", Parallel::Tree)])?;
                self.parallel_given = true;
            }
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }
}

/// Which parts of the game's knowledge a UCT agent uses (its evaluator comes with `cutoff`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Hooks {
    /// `prior=game`: the game's prior in selection (PUCT).
    pub(super) prior: bool,
    /// `playout=game`: the game's playout policy in simulations.
    pub(super) playout: bool,
    /// `book=true`: the game's opening book ([`Prior::opening`]) before any search.
    pub(super) book: bool,
}

impl Hooks {
    pub(super) const KEYS: &[&str] = &["prior", "playout", "book"];

    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
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
pub(super) fn set_reward(
    reward: &mut WinDrawLoss,
    key: &str,
    value: &str,
) -> Result<(), SettingError> {
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

/// The built-in agents' names, as an error lists them: `best, solver, ... negamax or
/// alphabeta`, the last joined by `last` (`" or "`, or `", "` when more names follow).
pub(super) fn names(last: &str) -> String {
    match BUILT_IN.split_last() {
        Some((final_name, rest)) => format!("{}{last}{final_name}", rest.join(", ")),
        None => String::new(),
    }
}
