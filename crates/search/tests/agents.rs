//! Every Monte-Carlo agent on positions with one right answer, and at the edges of its budget.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game_core::testing::TicTacToe;
use game_core::{Game, Outcome, Player, Status, WinDrawLoss};
use games_connect4::Connect4;
use games_hex::Hex;
use search::{Agent, AgentSpec, Budget, Flat, Random, Uct, UctConfig};

/// The Monte-Carlo agents under test, by spec.
const SPECS: [&str; 8] = [
    "mc:playouts=3000",
    "ucb1:playouts=3000",
    "uct:iterations=3000",
    "uct:iterations=3000,expand=all",
    "uct:iterations=3000,prove=true",
    "uct:iterations=3000,threads=2",
    "uct:iterations=3000,threads=2,parallel=tree",
    "uct:iterations=3000,threads=2,parallel=tree,expand=all",
];

fn choose<G: Game + Send + Sync + 'static>(
    spec: &str,
    position: &G,
    seed: u64,
) -> Option<G::Action> {
    let spec: AgentSpec = spec.parse().unwrap();
    spec.build::<G>(seed)
        .unwrap()
        .choose(position, &spec.budget())
}

#[test]
fn every_agent_takes_an_immediate_win() {
    for spec in SPECS {
        for seed in 0..3 {
            // Connect Four: Black has three stacked in column 4.
            let c4: Connect4 = "414141".parse().unwrap();
            assert_eq!(
                choose(spec, &c4, seed),
                Some("4".parse().unwrap()),
                "{spec}"
            );
            // Tic-tac-toe: x completes the top row (o would complete the middle one).
            let ttt: TicTacToe = "xx.\noo.\n...".parse().unwrap();
            assert_eq!(
                choose(spec, &ttt, seed),
                Some("c1".parse().unwrap()),
                "{spec}"
            );
        }
    }
}

#[test]
fn every_agent_blocks_an_immediate_loss() {
    for spec in SPECS {
        for seed in 0..3 {
            // Connect Four: White has three stacked in column 1; Black cannot win at once.
            let c4: Connect4 = "213161".parse().unwrap();
            assert_eq!(
                choose(spec, &c4, seed),
                Some("1".parse().unwrap()),
                "{spec}"
            );
            // Tic-tac-toe: o must take c1, or x completes the top row. ("xx./o../..." would be
            // no test: x wins there whatever o does, by b2 and a double threat.)
            let ttt: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
            assert_eq!(
                choose(spec, &ttt, seed),
                Some("c1".parse().unwrap()),
                "{spec}"
            );
        }
    }
}

/// Perfect tic-tac-toe by exhaustive NegaMax, choosing at random among the best moves.
struct Perfect {
    values: HashMap<u64, i32>,
    rng: Random,
}

impl Perfect {
    fn value(&mut self, position: &TicTacToe) -> i32 {
        if let Some(&v) = self.values.get(&position.position_hash()) {
            return v;
        }
        let v = match position.status() {
            Status::Over(Outcome::Draw) => 0,
            Status::Over(_) => -1, // the player to move has lost
            Status::Ongoing => position
                .legal_actions_vec()
                .iter()
                .map(|&a| -self.value(&position.after(a)))
                .max()
                .unwrap(),
        };
        self.values.insert(position.position_hash(), v);
        v
    }

    fn choose(&mut self, position: &TicTacToe) -> game_core::testing::Cell {
        let actions = position.legal_actions_vec();
        let best = actions
            .iter()
            .map(|&a| -self.value(&position.after(a)))
            .max()
            .unwrap();
        let best_actions: Vec<_> = actions
            .into_iter()
            .filter(|&a| -self.value(&position.after(a)) == best)
            .collect();
        let pick = Agent::<TicTacToe>::choose(&mut self.rng, position, &Budget::default()).unwrap();
        // A random best action: map the random legal action's index onto the best ones.
        let index = position
            .legal_actions_vec()
            .iter()
            .position(|&a| a == pick)
            .unwrap();
        best_actions[index % best_actions.len()]
    }
}

#[test]
fn uct_never_loses_tic_tac_toe_to_a_perfect_player() {
    for seed in 0..12 {
        for uct_plays in Player::BOTH {
            let mut uct = Uct::new(seed);
            let mut perfect = Perfect {
                values: HashMap::new(),
                rng: Random::new(seed),
            };
            let mut game = TicTacToe::new();
            while game.status() == Status::Ongoing {
                let action = if game.to_move() == uct_plays {
                    uct.choose(&game, &Budget::iterations(20_000)).unwrap()
                } else {
                    perfect.choose(&game)
                };
                uct.played(&game, action);
                game.play(action);
            }
            assert_ne!(
                game.status(),
                Status::Over(Outcome::Win(uct_plays.opponent())),
                "seed {seed}, UCT as {uct_plays}:\n{game}"
            );
        }
    }
}

#[test]
fn budgets_at_the_edges_still_give_a_legal_answer() {
    let start = Connect4::new();
    let stop = Arc::new(AtomicBool::new(true));
    let budgets = [
        Budget::iterations(0),
        Budget::time(Duration::ZERO),
        Budget::default(),
        Budget::iterations(1_000_000).with_stop(stop),
        Budget::iterations(1),
    ];
    for budget in &budgets {
        let mut agents: Vec<Box<dyn Agent<Connect4>>> = vec![
            Box::new(Random::new(1)),
            Box::new(Flat::monte_carlo(1)),
            Box::new(Flat::ucb1(0.7, 1)),
            Box::new(Uct::new(1)),
        ];
        for agent in &mut agents {
            let action = agent
                .choose(&start, budget)
                .expect("an ongoing game has an answer");
            assert!(start.is_legal(action), "{budget:?}");
            if let Some(report) = agent.report() {
                assert!(
                    report.iterations <= 16,
                    "{budget:?}: {} iterations",
                    report.iterations
                );
            }
        }
    }
}

#[test]
fn finished_games_and_single_moves() {
    let over: Connect4 = "4141414".parse().unwrap();
    assert!(over.status().is_over());
    // One legal move left: column 7 of an otherwise full, undecided board.
    let single: Connect4 = "44276122537725234254556347417537166663131".parse().unwrap();
    assert_eq!(single.num_legal_actions(), 1);
    let only = single.legal_actions_vec()[0];
    for spec in SPECS.iter().chain(&["random"]) {
        assert_eq!(choose(spec, &over, 1), None, "{spec}");
        assert_eq!(choose(spec, &single, 1), Some(only), "{spec}");
    }
}

#[test]
fn a_seed_gives_the_same_search_every_time() {
    let position: Connect4 = "4453".parse().unwrap();
    // Threads sharing a tree take its lock in an order no seed fixes: not reproducible.
    for spec in SPECS.iter().filter(|s| !s.contains("parallel=tree")) {
        let spec: AgentSpec = spec.parse().unwrap();
        let run = || {
            let mut agent = spec.build::<Connect4>(42).unwrap();
            let action = agent.choose(&position, &spec.budget());
            (action, agent.report().unwrap().actions.clone())
        };
        assert_eq!(run(), run(), "{spec}");
    }
}

#[test]
fn uct_stays_under_its_node_cap_and_still_finds_the_win() {
    let config = UctConfig {
        max_nodes: 1000,
        ..UctConfig::default()
    };
    let mut uct = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 5);
    let position: Connect4 = "414141".parse().unwrap();
    assert_eq!(
        uct.choose(&position, &Budget::iterations(100_000)),
        Some("4".parse().unwrap())
    );
    let report = uct.report().unwrap();
    assert!(report.nodes <= 1000, "{} nodes", report.nodes);
    assert_eq!(report.iterations, 100_000);
    assert_eq!(report.root_visits, 100_000);
}

#[test]
fn uct_stays_under_its_node_cap_on_a_wide_board() {
    // 121 actions a node: most expansions do not fit under the smaller caps.
    for cap in [200, 1000, 5000] {
        let config = UctConfig {
            max_nodes: cap,
            ..UctConfig::default()
        };
        let mut uct = Uct::<Hex>::with_config(config, WinDrawLoss::default(), 5);
        let position = Hex::new(11).unwrap();
        let action = uct.choose(&position, &Budget::iterations(20_000)).unwrap();
        assert!(position.is_legal(action));
        let report = uct.report().unwrap();
        assert!(
            report.nodes <= cap,
            "{} nodes under a cap of {cap}",
            report.nodes
        );
        assert_eq!(report.root_visits, 20_000);
        assert_eq!(report.actions.len(), 121, "every root action is reported");
    }
}

#[test]
fn a_filling_tree_keeps_growing_more_slowly_instead_of_stopping_at_its_cap() {
    // Seven children an expansion, at most one expansion an iteration. Without pruning,
    // which would free room at three quarters of the cap (its own tests are in the tree's).
    let grown = |iterations: u64| {
        let config = UctConfig {
            max_nodes: 5000,
            prune: false,
            ..UctConfig::default()
        };
        let mut uct = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 3);
        uct.choose(&Connect4::new(), &Budget::iterations(iterations));
        uct.report().unwrap().nodes
    };
    // (Without the slowing down, the cap is reached after about 2,600 iterations, and the
    // tree then stops.)
    let (early, late) = (grown(4_000), grown(8_000));
    assert!(
        early > 2500,
        "{early} nodes: the first half of the cap fills as before"
    );
    assert!(early + 7 < late, "{early} then {late} nodes: still growing");
    assert!(late <= 5000, "{late} nodes under a cap of 5000");
}

#[test]
fn uct_expands_a_leaf_only_after_expand_after_visits() {
    let search = |expand_after: u32, iterations: u64| {
        let config = UctConfig {
            expand_after,
            ..UctConfig::default()
        };
        let mut uct = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 9);
        let action = uct.choose(&Connect4::new(), &Budget::iterations(iterations));
        let report = uct.report().unwrap().clone();
        (action, report)
    };
    // The root always gains its children; no leaf reaches a million visits.
    let (action, report) = search(1_000_000, 5_000);
    assert!(action.is_some());
    assert_eq!(report.nodes, 1 + 7);
    assert_eq!(report.root_visits, 5_000);
    assert_eq!(report.actions.iter().map(|a| a.visits).sum::<u64>(), 5_000);
    // Waiting for eight visits grows a much smaller tree from the same iterations.
    let (_, eager) = search(1, 20_000);
    let (_, patient) = search(8, 20_000);
    assert!(
        patient.nodes * 4 < eager.nodes,
        "{} nodes against {}",
        patient.nodes,
        eager.nodes
    );
    // And still finds the immediate win.
    let config = UctConfig {
        expand_after: 8,
        ..UctConfig::default()
    };
    let mut uct = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 5);
    let position: Connect4 = "414141".parse().unwrap();
    assert_eq!(
        uct.choose(&position, &Budget::iterations(20_000)),
        Some("4".parse().unwrap())
    );
}

#[test]
fn tree_reuse_keeps_the_statistics_of_the_moves_played() {
    let mut uct = Uct::<Connect4>::new(3);
    let start = Connect4::new();
    let mine = uct.choose(&start, &Budget::iterations(20_000)).unwrap();
    let visits_of = |report: &search::Report<_>, action| {
        report
            .actions
            .iter()
            .find(|s| s.action == action)
            .unwrap()
            .visits
    };
    let mine_visits = visits_of(uct.report().unwrap(), mine);
    uct.played(&start, mine);
    let after_mine = start.after(mine);
    // With no budget, the new root is the old child, statistics intact.
    uct.choose(&after_mine, &Budget::iterations(0));
    let report = uct.report().unwrap().clone();
    assert_eq!(report.root_visits, mine_visits);
    // The opponent's reply: its subtree, the grandchild of the first root, becomes the root.
    let reply = report.actions[0].action;
    uct.played(&after_mine, reply);
    let after_reply = after_mine.after(reply);
    uct.choose(&after_reply, &Budget::iterations(0));
    assert_eq!(uct.report().unwrap().root_visits, visits_of(&report, reply));
    // A position the tree does not lead to: a fresh tree.
    uct.choose(&"1".parse::<Connect4>().unwrap(), &Budget::iterations(0));
    assert_eq!(uct.report().unwrap().root_visits, 0);
}

#[test]
fn tree_reuse_gives_each_move_more_to_go_on() {
    let visits_over_a_game = |reuse: bool| {
        let config = UctConfig {
            reuse,
            ..UctConfig::default()
        };
        let mut black = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 1);
        let mut white = Uct::<Connect4>::with_config(config, WinDrawLoss::default(), 2);
        let mut game = Connect4::new();
        let mut root_visits = 0;
        while game.status() == Status::Ongoing {
            let agent = if game.to_move() == Player::Black {
                &mut black
            } else {
                &mut white
            };
            let action = agent.choose(&game, &Budget::iterations(2_000)).unwrap();
            root_visits += agent.report().unwrap().root_visits;
            black.played(&game, action);
            white.played(&game, action);
            game.play(action);
        }
        (root_visits, game.plies())
    };
    let (with, moves_with) = visits_over_a_game(true);
    let (without, moves_without) = visits_over_a_game(false);
    assert_eq!(without, 2_000 * u64::from(moves_without));
    // Connect Four keeps about a fifth of the tree from one move to the next.
    assert!(
        with as f64 / f64::from(moves_with) > 1.15 * 2_000.0,
        "{with} visits over {moves_with} moves"
    );
}

/// A game of one move: ten actions, every one a draw. Nothing tells the actions apart.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
struct TenEqualMoves {
    played: Option<u8>,
}

impl std::fmt::Display for TenEqualMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.played)
    }
}

impl Game for TenEqualMoves {
    type Action = u8;

    fn to_move(&self) -> Player {
        if self.played.is_some() {
            Player::White
        } else {
            Player::Black
        }
    }

    fn status(&self) -> Status {
        if self.played.is_some() {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn legal_actions<E: Extend<u8>>(&self, out: &mut E) {
        if self.played.is_none() {
            out.extend(0..10);
        }
    }

    fn play_unchecked(&mut self, action: u8) {
        self.played = Some(action);
    }

    fn position_hash(&self) -> u64 {
        self.played.map_or(0, |a| u64::from(a) + 1)
    }
}

#[test]
fn equal_actions_are_chosen_at_random() {
    // RAVE on a game without numbered actions is plain UCT: it must still choose at random.
    for spec in [
        "mc:playouts=25",
        "ucb1:playouts=25",
        "uct:iterations=25",
        "rave:iterations=25",
        // The lock-free tree: two threads (each its own AMAF column) and three (sharing them).
        "rave:iterations=25,threads=2,parallel=tree",
        "grave:iterations=25,threads=3,parallel=tree",
    ] {
        let mut counts = [0u32; 10];
        for seed in 0..300 {
            let action = choose(spec, &TenEqualMoves::default(), seed).unwrap();
            counts[usize::from(action)] += 1;
        }
        // 30 expected each; a fixed tie-break would put all 300 on one action.
        assert!(
            counts.iter().all(|&n| (10..=60).contains(&n)),
            "{spec}: {counts:?}"
        );
    }
}

#[test]
fn rave_is_refused_on_a_game_without_numbered_actions() {
    let start = TenEqualMoves::default();
    for text in ["rave:iterations=25", "grave:iterations=25"] {
        let spec: AgentSpec = text.parse().unwrap();
        let error = spec.check_for(&start).unwrap_err().to_string();
        assert!(error.contains("numbers its actions"), "{error}");
    }
    let uct: AgentSpec = "uct:iterations=25".parse().unwrap();
    assert!(uct.check_for(&start).is_ok());
    assert!(uct.check_for(&Connect4::new()).is_ok());
}

#[test]
fn parallel_uct_spends_the_budget_exactly_and_reuses_its_trees() {
    let start = Connect4::new();
    for parallel in ["root", "tree"] {
        let text = format!("uct:iterations=20001,threads=3,parallel={parallel}");
        let spec: AgentSpec = text.parse().unwrap();
        let mut agent = spec.build::<Connect4>(5).unwrap();
        agent.choose(&start, &spec.budget()).unwrap();
        let report = agent.report().unwrap().clone();
        assert_eq!(report.iterations, 20_001, "{text}");
        assert_eq!(
            report.actions.iter().map(|a| a.visits).sum::<u64>(),
            20_001,
            "{text}"
        );
        assert_eq!(report.actions.len(), 7, "{text}");
        assert_eq!(report.chosen, Some(report.actions[0].action), "{text}");
        // Every mean is a mean of rewards in [0, 1]: with a shared tree, every virtual loss
        // was replaced by a real result. The centre is the best first move, and the columns
        // next to it the next best: threads that interleave differently (a busy machine) can
        // leave one of those ahead at this budget, as about one run in forty does on the tree.
        for stats in &report.actions {
            assert!((0.0..=1.0).contains(&stats.mean), "{text}: {stats:?}");
        }
        let central = ["3", "4", "5"].map(|c| Some(c.parse().unwrap()));
        assert!(
            central.contains(&report.chosen),
            "{text}: {:?}",
            report.chosen
        );
        if parallel == "tree" {
            // One tree: its root counts every iteration of every thread, once.
            assert_eq!(report.root_visits, 20_001);
        }
        // One thread repeats itself with a seed: with a tree per thread it is plain UCT; on
        // the shared tree it is that tree's own code (what it costs with nothing shared).
        let one: AgentSpec = format!("uct:iterations=5000,threads=1,parallel={parallel}")
            .parse()
            .unwrap();
        let plain: AgentSpec = "uct:iterations=5000".parse().unwrap();
        let search = |spec: &AgentSpec| {
            let mut agent = spec.build::<Connect4>(9).unwrap();
            agent.choose(&start, &spec.budget());
            agent.report().unwrap().actions.clone()
        };
        assert_eq!(search(&one), search(&one), "{parallel}");
        if parallel == "root" {
            assert_eq!(search(&one), search(&plain));
        }
        // Trees are reused: after two moves the root keeps its visits.
        agent.played(&start, report.chosen.unwrap());
        let after = start.after(report.chosen.unwrap());
        agent.played(&after, "1".parse().unwrap());
        let next = after.after("1".parse().unwrap());
        agent.choose(&next, &spec.budget()).unwrap();
        assert!(agent.report().unwrap().root_visits > 20_001, "{text}");
    }
}

#[test]
fn parallel_specs_are_checked() {
    let error = "uct:threads=1025"
        .parse::<AgentSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("a whole number from 0 to 1024, or auto"),
        "{error}"
    );
    let error = "uct:parallel=leaf"
        .parse::<AgentSpec>()
        .unwrap_err()
        .to_string();
    assert!(error.contains("root or tree"), "{error}");
    for text in [
        "uct:threads=2,parallel=root,prove=true",
        "grave:threads=4,parallel=tree",
    ] {
        assert!(text.parse::<AgentSpec>().is_ok(), "{text}");
    }
}

#[test]
fn a_won_move_keeps_its_value_under_virtual_loss() {
    // Black wins at once in column 4. Every iteration through that child ends in a win, so its
    // mean must come out 1 exactly as on one thread, however many virtual losses the other
    // threads saw on it meanwhile.
    let position: Connect4 = "414141".parse().unwrap();
    for threads in [2, 4] {
        let text = format!("uct:iterations=20000,threads={threads},parallel=tree");
        let spec: AgentSpec = text.parse().unwrap();
        let mut agent = spec.build::<Connect4>(1).unwrap();
        assert_eq!(
            agent.choose(&position, &spec.budget()),
            Some("4".parse().unwrap())
        );
        let report = agent.report().unwrap();
        let win = &report.actions[0];
        assert_eq!(win.action, "4".parse().unwrap());
        assert!((win.mean - 1.0).abs() < 1e-4, "{text}: {win:?}");
        assert!(win.visits > 10_000, "{text}: {win:?}");
    }
}

#[test]
fn tree_parallel_uct_stops_on_time_and_on_the_flag() {
    let start = Connect4::new();
    let mut agent = search::TreeParallel::new(2, UctConfig::default(), WinDrawLoss::default(), 1);
    // Margins for a loaded machine: a thread that waits 200 ms for a core before its first
    // iteration would still pass, and one that ignored its budget would run far beyond 5 s.
    let budget = Budget::time(Duration::from_millis(200));
    assert!(start.is_legal(agent.choose(&start, &budget).unwrap()));
    let report = agent.report().unwrap();
    assert!(report.iterations > 0);
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );
    let stop = Arc::new(AtomicBool::new(true));
    for budget in [
        Budget::iterations(1_000_000).with_stop(stop),
        Budget::default(),
        Budget::iterations(0),
    ] {
        assert!(start.is_legal(agent.choose(&start, &budget).unwrap()));
        let iterations = agent.report().unwrap().iterations;
        assert!(iterations <= 2 * 16, "{budget:?}: {iterations}");
    }
}
