//! The builder: the agent a spec describes, for one game, with the parts of the game's
//! knowledge the spec asks for.

use game_core::{
    Evaluator, Game,
    knowledge::{Knowledge, PlayoutPolicy, Prior},
    solve::Solve,
};

use super::registry::{Parallel, Threads};
use super::{AgentSpec, Algorithm, SpecError};
use crate::book::BookAgent;
use crate::{
    Agent, AlphaBeta, Flat, Prover, Random, Reference, RootParallel, SolverAgent, TreeParallel, Uct,
};

impl AgentSpec {
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
        let &Algorithm::Solver { share, .. } = &self.algorithm else {
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
    /// use game_core::{testing::TicTacToe, knowledge::Knowledge};
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
                    // One thread is the serial tree, unless the spec asks for the shared one
                    // (`threads=1,parallel=tree`: what the shared tree costs without sharing).
                    Threads {
                        count: 1,
                        parallel: Parallel::Root,
                        ..
                    }
                    | Threads {
                        count: 1,
                        parallel_given: false,
                        ..
                    } => Box::new(Uct::<G, _, _>::with_knowledge(
                        config, reward, knowledge, seed,
                    )),
                    Threads {
                        count,
                        parallel: Parallel::Root,
                        ..
                    } => Box::new(RootParallel::<G, _, _>::with_knowledge(
                        count, config, reward, knowledge, seed,
                    )),
                    Threads {
                        count,
                        parallel: Parallel::Tree,
                        ..
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
            Algorithm::Own(_) => {
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
