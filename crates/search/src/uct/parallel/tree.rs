//! [`TreeParallel`]: UCT on several threads sharing one tree.

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::time::Instant;

use game_core::{
    Game, Outcome, Player, Reward,
    knowledge::{Guide, Knowledge},
    mix64,
};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::locked::Locked;
use super::shared_tree::{Local, Shared, SharedRave, SharedTree};
use crate::{Agent, Budget, Expansion, Report, UctConfig};

/// UCT on several threads sharing one tree, lock-free (Enzenberger and Müller 2009, as in
/// Fuego and MoHex): every thread selects, expands and backs up in the same tree at the same
/// time, with atomic statistics and no lock, so every playout of every thread lands in the
/// one tree and deep lines get the statistics of all threads.
///
/// - **Virtual loss**: while a thread's iteration is under way, every node on its path counts
///   it as one more visit valued as a loss for the player who moved there (the reward's value
///   of a loss: 0 for win/draw/loss rewards). Threads selecting meanwhile see that path as
///   worse and spread out instead of all playing out the same line; backpropagation replaces
///   the loss by the result, so the statistics end up exactly those of the iterations played.
/// - **Expansion**: the first thread to reach a leaf claims it and builds its children; a
///   thread reaching a leaf being expanded plays out from the leaf instead of waiting.
/// - **Untried children** are handed out in order by an atomic counter: shuffled at expansion
///   (without a prior) or best prior first (with one), where one thread takes a random one.
///
/// Every [`UctConfig`] option works: PUCT with the game's prior, playout policies, cut-offs,
/// the solver (a proof found under contention is a proof), tree reuse, the node cap (which
/// holds under contention), `expand_after` and `examine` (the first thread to pass a node's
/// `examine`-th visit asks the prior what is proven there while the others go on), and RAVE
/// and GRAVE (AMAF statistics in columns beside each block of children, one column a writer:
/// none is lost), with or without a prior as their progressive bias; on a game that does not
/// number its actions ([`Game::action_space`](game_core::Game::action_space)) they have no
/// statistics to keep, and select as UCT does. Two do not run lock-free and fall back to one
/// shared tree under a lock (Chaslot et al. 2008), which scales much worse: RAVE under PUCT
/// (a prior without `bias`: its selection reorders the untried children by their AMAF means,
/// which a published block of children cannot follow) and `expand=all`.
/// [`lock_free`](Self::lock_free) says which one a search runs.
///
/// With one thread this is the shared tree's code on one thread: reproducible (the same seed
/// gives the same game) and what the shared tree costs before anything is shared (the
/// `threads` bench's `threads=1,parallel=tree` row; [`Uct`](crate::Uct) is the serial tree).
/// With more, the threads' interleaving varies from run to run, so results are not
/// reproducible. An iteration budget is the total over the threads; a time budget applies to
/// each.
///
/// ```
/// use game_core::testing::TicTacToe;
/// use search::{Agent, Budget, TreeParallel, UctConfig};
///
/// let mut agent = TreeParallel::new(2, UctConfig::default(), game_core::WinDrawLoss::default(), 1);
/// let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
/// assert_eq!(agent.choose(&position, &Budget::iterations(4_000)), Some("c1".parse().unwrap()));
/// assert_eq!(agent.report().unwrap().root_visits, 4_000);
/// ```
#[derive(Debug)]
pub struct TreeParallel<G: Game, R, K = Knowledge> {
    engine: Engine<G, R, K>,
}

/// How a [`TreeParallel`] searches: lock-free, or under a lock (the options that need one).
#[derive(Debug)]
enum Engine<G: Game, R, K> {
    LockFree(Box<LockFree<G, R, K>>),
    Locked(Box<Locked<G, R, K>>),
}

impl<G, R> TreeParallel<G, R>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send + Sync,
{
    /// UCT on `threads` threads (at least one) sharing one tree, with these settings and
    /// reward; seeded with `seed` (each thread with a seed derived from it).
    #[must_use]
    pub fn new(threads: usize, config: UctConfig, reward: R, seed: u64) -> Self {
        TreeParallel::with_knowledge(threads, config, reward, Knowledge::NONE, seed)
    }
}

impl<G, R, K> TreeParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send + Sync,
    K: Guide<G> + Clone + Send + Sync,
{
    /// [`new`](TreeParallel::new) with what the game knows (see
    /// [`Uct::with_knowledge`](crate::Uct::with_knowledge)).
    #[must_use]
    pub fn with_knowledge(
        threads: usize,
        config: UctConfig,
        reward: R,
        knowledge: K,
        seed: u64,
    ) -> Self {
        let threads = threads.max(1);
        // RAVE under PUCT (a prior without a progressive bias) reorders untried children by
        // their AMAF means, which the lock-free tree's published order cannot follow.
        let puct_rave = config.rave.is_some_and(|r| r.bias.is_none()) && knowledge.has_prior();
        let locked = puct_rave || config.expansion == Expansion::All;
        let engine = if locked {
            Engine::Locked(Box::new(Locked::with_knowledge(
                threads, config, reward, knowledge, seed,
            )))
        } else {
            Engine::LockFree(Box::new(LockFree::new(
                threads, config, reward, knowledge, seed,
            )))
        };
        TreeParallel { engine }
    }

    /// The number of threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        match &self.engine {
            Engine::LockFree(search) => search.workers.len(),
            Engine::Locked(search) => search.threads(),
        }
    }

    /// Whether the threads share the tree without a lock (see the type's documentation for
    /// the options that need one).
    #[must_use]
    pub fn lock_free(&self) -> bool {
        matches!(self.engine, Engine::LockFree(_))
    }
}

impl<G, R, K> Agent<G> for TreeParallel<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send + Sync,
    K: Guide<G> + Clone + Send + Sync,
{
    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        match &mut self.engine {
            Engine::LockFree(search) => search.choose(position, budget),
            Engine::Locked(search) => search.choose(position, budget),
        }
    }

    fn played(&mut self, position: &G, action: G::Action) {
        match &mut self.engine {
            Engine::LockFree(search) => search.played(position, action),
            Engine::Locked(search) => search.played(position, action),
        }
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        match &self.engine {
            Engine::LockFree(search) => search.report(),
            Engine::Locked(search) => search.report(),
        }
    }
}

/// The lock-free search: the shared tree, what the threads share besides it, and what each
/// keeps to itself.
#[derive(Debug)]
struct LockFree<G: Game, R, K> {
    config: UctConfig,
    /// RAVE's settings, if it is on.
    rave: Option<SharedRave>,
    reward: R,
    knowledge: K,
    tree: Option<SharedTree<G::Action>>,
    workers: Vec<Local<G::Action, Xoshiro256PlusPlus>>,
    /// For a move when no child was tried.
    rng: Xoshiro256PlusPlus,
    /// The position at the root of the tree, and the moves played since.
    root: Option<G>,
    played: Vec<G::Action>,
    report: Option<Report<G::Action>>,
}

impl<G, R, K> LockFree<G, R, K>
where
    G: Game + Send + Sync,
    R: Reward<G> + Send + Sync,
    K: Guide<G> + Send + Sync,
{
    fn new(threads: usize, config: UctConfig, reward: R, knowledge: K, seed: u64) -> Self {
        LockFree {
            rave: config.rave.map(SharedRave::new),
            config,
            reward,
            knowledge,
            tree: None,
            workers: (1..=threads as u64)
                .map(|k| {
                    let rng = Xoshiro256PlusPlus::seed_from_u64(mix64(seed ^ mix64(k)));
                    Local::for_thread(rng, k as usize - 1, threads)
                })
                .collect(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            root: None,
            played: Vec::new(),
            report: None,
        }
    }

    /// The tree for a search from `position`: the subtree the moves played since the last
    /// search lead to, if reuse is on and they do; a fresh tree otherwise.
    fn set_root(&mut self, position: &G) -> &SharedTree<G::Action> {
        let mut kept = None;
        if let Some(mut tree) = self.tree.take() {
            let leads_here = self.root.as_ref().is_some_and(|old| {
                let mut at = old.clone();
                let legal = self.played.iter().all(|&action| {
                    let legal = !at.status().is_over() && at.is_legal(action);
                    if legal {
                        at.play(action);
                    }
                    legal
                });
                legal && at == *position
            });
            if self.config.reuse && leads_here && tree.retain(&self.played, &mut self.workers) {
                kept = Some(tree);
            } else {
                tree.recycle(&mut self.workers);
            }
        }
        self.root = Some(position.clone());
        self.played.clear();
        self.tree
            .insert(kept.unwrap_or_else(|| SharedTree::new(position)))
    }

    fn choose(&mut self, position: &G, budget: &Budget) -> Option<G::Action> {
        if position.status().is_over() {
            self.report = None;
            return None;
        }
        let started = Instant::now();
        let losses =
            Player::BOTH.map(|p| self.reward.reward(position, Outcome::Win(p.opponent()), p));
        let prior = self.knowledge.has_prior();
        self.set_root(position);
        let LockFree {
            config,
            rave,
            reward,
            knowledge,
            tree,
            workers,
            ..
        } = self;
        let tree = tree.as_ref().expect("set_root made the tree");
        let shared = Shared {
            config,
            reward,
            knowledge,
            prior,
            losses,
            // A game that does not number its actions has no AMAF statistics: UCT's selection.
            rave: rave.as_ref().filter(|_| position.action_space().is_some()),
        };
        let left = AtomicI64::new(
            budget
                .iterations
                .map_or(i64::MAX, |n| i64::try_from(n).unwrap_or(i64::MAX)),
        );
        let done: u64 = std::thread::scope(|scope| {
            let threads: Vec<_> = workers
                .iter_mut()
                .map(|local| {
                    let (shared, left) = (&shared, &left);
                    scope.spawn(move || work(tree, shared, local, position, budget, left))
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().expect("a search thread panicked"))
                .sum()
        });
        let chosen = tree
            .final_choice(&self.config)
            .or_else(|| position.random_action(&mut self.rng));
        let mut report = tree.report(chosen, done, started.elapsed());
        report.threads = workers.len();
        self.report = Some(report);
        chosen
    }

    fn played(&mut self, _position: &G, action: G::Action) {
        if self.root.is_some() {
            self.played.push(action);
        }
    }

    fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }
}

/// The search of one thread: iterations until the budget is spent (the iteration count is
/// shared, in `left`; the clock and the stop flag each thread reads itself) or the solver has
/// decided the root; returns how many.
fn work<G, R, K>(
    tree: &SharedTree<G::Action>,
    shared: &Shared<'_, R, K>,
    local: &mut Local<G::Action, Xoshiro256PlusPlus>,
    position: &G,
    budget: &Budget,
    left: &AtomicI64,
) -> u64
where
    G: Game,
    R: Reward<G>,
    K: Guide<G>,
{
    let Some((clock, timed)) = super::thread_clock(budget) else {
        return 0;
    };
    let mut meter = clock.start();
    let mut path = Vec::new();
    loop {
        if (timed && !meter.more())
            || (budget.iterations.is_some() && left.fetch_sub(1, Relaxed) <= 0)
            || (shared.config.prove && tree.root_decided())
        {
            break;
        }
        tree.iterate(position, shared, local, &mut path);
        meter.count(1);
    }
    tree.release(local);
    meter.done()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use game_core::testing::TicTacToe;
    use game_core::{Game, Status, Wdl, WinDrawLoss};
    use games_connect4::Connect4;
    use games_hex::Hex;
    use games_othello::Othello;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::{Engine, TreeParallel};
    use crate::{Agent, Budget, UctConfig};

    /// The lock-free search inside `agent`.
    fn tree<G: Game, K>(agent: &TreeParallel<G, WinDrawLoss, K>) -> &super::SharedTree<G::Action> {
        match &agent.engine {
            Engine::LockFree(search) => search.tree.as_ref().expect("it has searched"),
            Engine::Locked(_) => panic!("the search should be lock-free"),
        }
    }

    /// Searches from `start` and then from the position after its choice (tree reuse), on
    /// several thread counts, many times: no visit is lost or counted twice anywhere.
    fn check_bookkeeping<G: Game + Send + Sync>(start: &G, iterations: u64, config: UctConfig) {
        for threads in [1, 2, 3, 4] {
            for seed in 0..6 {
                let mut agent = TreeParallel::new(threads, config, WinDrawLoss::default(), seed);
                assert!(agent.lock_free());
                let action = agent
                    .choose(start, &Budget::iterations(iterations))
                    .expect("the game is on");
                assert!(start.is_legal(action));
                let report = agent.report().expect("a report");
                assert_eq!(report.iterations, iterations);
                assert_eq!(
                    tree(&agent).audit(-1e-4..=1.0 + 1e-4, config.expand_after),
                    iterations as u32
                );
                assert!(report.nodes <= config.max_nodes);
                // Tree reuse: the chosen child's visits carry over to the next search.
                let reused = report
                    .actions
                    .iter()
                    .find(|s| s.action == action)
                    .map_or(0, |s| s.visits);
                agent.played(start, action);
                let next = start.after(action);
                if next.status().is_over() {
                    continue;
                }
                agent.choose(&next, &Budget::iterations(iterations));
                let root = tree(&agent).audit(-1e-4..=1.0 + 1e-4, config.expand_after);
                assert_eq!(u64::from(root), iterations + reused);
            }
        }
    }

    #[test]
    fn no_visit_is_lost_or_doubled_on_any_game() {
        let config = UctConfig::default();
        check_bookkeeping(&TicTacToe::new(), 3_000, config);
        check_bookkeeping(&Connect4::new(), 5_000, config);
        check_bookkeeping(&Hex::new(7).unwrap(), 5_000, config);
        check_bookkeeping(&Othello::new(), 2_000, config);
        let solver = UctConfig {
            prove: true,
            ..config
        };
        check_bookkeeping(&Connect4::new(), 5_000, solver);
        let later = UctConfig {
            expand_after: 4,
            ..config
        };
        check_bookkeeping(&Hex::new(5).unwrap(), 5_000, later);
    }

    /// Searches from `start` with RAVE's (or GRAVE's) `config` (and `knowledge`) on several
    /// thread counts, many times: no visit and no AMAF update is lost or counted twice, and
    /// the AMAF statistics keep their bounds, also in the tree kept for the next move.
    fn check_amaf<G, K>(start: &G, iterations: u64, config: UctConfig, knowledge: &K)
    where
        G: Game + Send + Sync,
        K: game_core::knowledge::Guide<G> + Clone + Send + Sync,
    {
        for threads in [1, 2, 3, 4] {
            for seed in 0..4 {
                let reward = WinDrawLoss::default();
                let mut agent =
                    TreeParallel::with_knowledge(threads, config, reward, knowledge.clone(), seed);
                assert!(agent.lock_free());
                let action = agent
                    .choose(start, &Budget::iterations(iterations))
                    .unwrap();
                let books = tree(&agent).audit(-1e-4..=1.0 + 1e-4, config.expand_after);
                assert_eq!(u64::from(books), iterations);
                let (amaf, hits) = tree(&agent).audit_amaf(start);
                assert_eq!(amaf, hits, "AMAF updates lost or doubled");
                assert!(
                    amaf >= iterations,
                    "{amaf} AMAF visits in {iterations} iterations"
                );
                agent.played(start, action);
                let next = start.after(action);
                if !next.status().is_over() {
                    agent.choose(&next, &Budget::iterations(iterations));
                    tree(&agent).audit_amaf(&next);
                }
            }
        }
    }

    #[test]
    fn no_amaf_update_is_lost_or_doubled_on_any_game() {
        let none = game_core::knowledge::Knowledge::NONE;
        for rave in [crate::RaveConfig::RAVE, crate::RaveConfig::GRAVE] {
            let config = UctConfig {
                rave: Some(rave),
                ..UctConfig::default()
            };
            check_amaf(&TicTacToe::new(), 2_000, config, &none);
            check_amaf(&Connect4::new(), 4_000, config, &none);
            check_amaf(&Hex::new(7).unwrap(), 4_000, config, &none);
            check_amaf(&Othello::new(), 1_500, config, &none);
        }
        // Every skip-th selection blind, and the solver.
        let skipping = UctConfig {
            rave: Some(crate::RaveConfig {
                skip: Some(3),
                ..crate::RaveConfig::RAVE
            }),
            prove: true,
            ..UctConfig::default()
        };
        check_amaf(&Connect4::new(), 4_000, skipping, &none);
        // `best` on Hex: a prior as the progressive bias, its playouts, `examine`.
        let best = UctConfig {
            rave: Some(crate::RaveConfig {
                bias: Some(5.0),
                ..crate::RaveConfig::RAVE
            }),
            exploration: 0.0,
            examine: Some(200),
            ..UctConfig::default()
        };
        check_amaf(&Hex::new(7).unwrap(), 6_000, best, &games_hex::knowledge());
    }

    #[test]
    fn new_trees_built_in_the_blocks_of_old_ones_keep_their_books() {
        // Without reuse, each search builds a new tree in the blocks the last one left.
        let config = UctConfig {
            reuse: false,
            ..UctConfig::default()
        };
        let range = -1e-4..=1.0 + 1e-4;
        let mut agent = TreeParallel::new(3, config, WinDrawLoss::default(), 4);
        let mut position = Hex::new(6).unwrap();
        for _ in 0..6 {
            let action = agent.choose(&position, &Budget::iterations(4_000)).unwrap();
            assert_eq!(tree(&agent).audit(range.clone(), 1), 4_000);
            agent.played(&position, action);
            position.play(action);
        }
        // With the game's prior too (children sorted by prior in recycled blocks).
        let knowledge = games_hex::knowledge();
        let reward = WinDrawLoss::default();
        let mut agent = TreeParallel::with_knowledge(2, config, reward, knowledge, 5);
        for _ in 0..3 {
            let start = Hex::new(6).unwrap();
            let action = agent.choose(&start, &Budget::iterations(3_000)).unwrap();
            assert!(start.is_legal(action));
            assert_eq!(tree(&agent).audit(range.clone(), 1), 3_000);
        }
        // `best`'s RAVE with its prior as the bias: the AMAF columns of recycled blocks are
        // set anew (indices for the new children, no statistics left from the old ones).
        let best = UctConfig {
            rave: Some(crate::RaveConfig {
                bias: Some(5.0),
                ..crate::RaveConfig::RAVE
            }),
            exploration: 0.0,
            reuse: false,
            ..UctConfig::default()
        };
        for threads in [2, 3] {
            let knowledge = games_hex::knowledge();
            let reward = WinDrawLoss::default();
            let mut agent = TreeParallel::with_knowledge(threads, best, reward, knowledge, 6);
            let mut position = Hex::new(6).unwrap();
            for _ in 0..4 {
                let action = agent.choose(&position, &Budget::iterations(3_000)).unwrap();
                assert_eq!(tree(&agent).audit(range.clone(), 1), 3_000);
                let (amaf, hits) = tree(&agent).audit_amaf(&position);
                assert_eq!(amaf, hits, "AMAF updates lost, doubled or left over");
                agent.played(&position, action);
                position.play(action);
            }
        }
    }

    #[test]
    fn examined_nodes_keep_their_books_under_contention() {
        // Mid-game 7x7 positions, where Hex's virtual connections rule moves out.
        let config = UctConfig {
            examine: Some(20),
            puct: 3.0,
            ..UctConfig::default()
        };
        let range = -1e-4..=1.0 + 1e-4;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut examined, mut reweighed) = (0, 0);
        for seed in 0..6 {
            let mut position = Hex::new(7).unwrap();
            for _ in 0..8 {
                position.play(position.random_action(&mut rng).unwrap());
            }
            if position.status().is_over() {
                continue;
            }
            let threads = 2 + seed as usize % 2;
            let knowledge = games_hex::knowledge();
            let reward = WinDrawLoss::default();
            let mut agent = TreeParallel::with_knowledge(threads, config, reward, knowledge, seed);
            let action = agent
                .choose(&position, &Budget::iterations(20_000))
                .unwrap();
            assert!(position.is_legal(action));
            assert_eq!(tree(&agent).audit(range.clone(), 1), 20_000);
            let (nodes, changed) = tree(&agent).examined();
            examined += nodes;
            reweighed += changed;
        }
        assert!(examined > 50, "{examined} nodes examined");
        assert!(
            reweighed > 0,
            "no move ruled out in {examined} examined nodes"
        );
    }

    #[test]
    fn the_node_cap_holds_under_contention() {
        let config = UctConfig {
            max_nodes: 300,
            ..UctConfig::default()
        };
        for seed in 0..10 {
            let mut agent = TreeParallel::new(4, config, WinDrawLoss::default(), seed);
            let start = Hex::new(5).unwrap();
            agent.choose(&start, &Budget::iterations(20_000));
            let nodes = agent.report().unwrap().nodes;
            assert!(nodes <= 300 && nodes > 250, "{nodes} nodes");
            assert_eq!(
                tree(&agent).audit(-1e-4..=1.0 + 1e-4, config.expand_after),
                20_000
            );
        }
    }

    /// The exact value of a tic-tac-toe position for the player to move.
    fn negamax(position: &TicTacToe) -> Wdl {
        if let Status::Over(outcome) = position.status() {
            return outcome.for_player(position.to_move());
        }
        position
            .legal_actions_vec()
            .into_iter()
            .map(|a| negamax(&position.after(a)).flip())
            .max_by_key(|w| match w {
                Wdl::Loss => 0,
                Wdl::Draw => 1,
                Wdl::Win => 2,
            })
            .expect("an ongoing game has moves")
    }

    #[test]
    fn the_solver_proves_what_negamax_finds_under_contention() {
        let config = UctConfig {
            prove: true,
            ..UctConfig::default()
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut positions = vec![TicTacToe::new()];
        while positions.len() < 40 {
            let mut position = TicTacToe::new();
            for _ in 0..(positions.len() % 5 + 1) {
                if let Some(a) = position.random_action(&mut rng) {
                    position.play(a);
                }
            }
            if !position.status().is_over() {
                positions.push(position);
            }
        }
        let rave = UctConfig {
            rave: Some(crate::RaveConfig::RAVE),
            ..config
        };
        for (i, position) in positions.iter().enumerate() {
            let value = negamax(position);
            // Plain UCT and RAVE in turn, both lock-free.
            let config = if i % 2 == 0 { config } else { rave };
            let mut agent = TreeParallel::new(3, config, WinDrawLoss::default(), i as u64);
            assert!(agent.lock_free());
            let action = agent
                .choose(position, &Budget::iterations(300_000))
                .unwrap();
            let report = agent.report().unwrap();
            assert_eq!(report.proven.map(|p| p.outcome), Some(value), "{position}");
            assert_eq!(negamax(&position.after(action)).flip(), value, "{position}");
            // Proven early: the threads stopped before the budget.
            assert!(report.iterations < 300_000);
        }
    }

    #[test]
    fn the_stop_flag_and_the_clock_stop_every_thread() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::default().with_stop(Arc::clone(&flag));
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            })
        };
        let mut agent = TreeParallel::new(2, UctConfig::default(), WinDrawLoss::default(), 1);
        let start = Hex::new(9).unwrap();
        let action = agent.choose(&start, &budget).unwrap();
        setter.join().unwrap();
        assert!(start.is_legal(action));
        assert!(agent.report().unwrap().iterations > 0);
        // A time limit: the search returns (a generous bound: this is not a speed test).
        let started = Instant::now();
        agent.choose(&start, &Budget::time(Duration::from_millis(30)));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(agent.report().unwrap().iterations > 0);
    }

    #[test]
    fn one_thread_runs_the_shared_tree_and_repeats_itself() {
        let rave = UctConfig {
            rave: Some(crate::RaveConfig::RAVE),
            ..UctConfig::default()
        };
        for config in [UctConfig::default(), rave] {
            let search = |seed| {
                let mut agent = TreeParallel::new(1, config, WinDrawLoss::default(), seed);
                assert!(agent.lock_free());
                let start = Hex::new(7).unwrap();
                let action = agent.choose(&start, &Budget::iterations(3_000));
                let report = agent.report().expect("a report");
                assert_eq!((report.threads, report.locked), (1, false));
                let visits: Vec<_> = report
                    .actions
                    .iter()
                    .map(|s| (s.action, s.visits))
                    .collect();
                let amaf = config.rave.map(|_| tree(&agent).audit_amaf(&start));
                (action, visits, amaf)
            };
            assert_eq!(search(7), search(7), "one thread, one seed: one search");
            assert_ne!(search(7).1, search(8).1, "the seed is used");
        }
    }

    #[test]
    fn rave_under_puct_and_expanding_every_child_fall_back_to_the_lock() {
        let reward = WinDrawLoss::default();
        let rave = UctConfig {
            rave: Some(crate::RaveConfig::RAVE),
            ..UctConfig::default()
        };
        let biased = UctConfig {
            rave: Some(crate::RaveConfig {
                bias: Some(5.0),
                ..crate::RaveConfig::RAVE
            }),
            ..UctConfig::default()
        };
        let all = UctConfig {
            expansion: crate::Expansion::All,
            ..UctConfig::default()
        };
        let knowledge = games_hex::knowledge;
        assert!(TreeParallel::<Hex, _>::new(2, rave, reward, 1).lock_free());
        assert!(
            TreeParallel::<Hex, _, _>::with_knowledge(2, biased, reward, knowledge(), 1)
                .lock_free()
        );
        assert!(
            !TreeParallel::<Hex, _, _>::with_knowledge(2, rave, reward, knowledge(), 1).lock_free()
        );
        assert!(!TreeParallel::<Hex, _>::new(2, all, reward, 1).lock_free());
        assert!(TreeParallel::<Hex, _>::new(2, UctConfig::default(), reward, 1).lock_free());
    }
}
