//! The batched search ([`BatchedUct`]) against the search it batches: with batches of one it
//! must make [`Uct`]'s choices with the same knowledge as prior and leaf evaluation, visit for
//! visit, on every game; with larger batches it must still count every iteration, call the
//! evaluator less often, and find what a search finds.

use std::fmt::Debug;

use game_core::testing::TicTacToe;
use game_core::{
    Game, WinDrawLoss,
    knowledge::{Batch, BatchEvaluator, Guide, Knowledge, NoPrior},
};
use games_connect4::Connect4;
use games_hex::Hex;
use games_othello::Othello;
use search::{Agent, BatchedUct, Budget, Report, Uct, UctConfig};

/// What a report says about the search, without its timing.
fn summary<A: Copy + Debug>(report: &Report<A>) -> String {
    format!(
        "{:?} {} {} {:?} {:?}",
        report.chosen,
        report.iterations,
        report.root_visits,
        report
            .actions
            .iter()
            .map(|a| (a.action, a.visits, a.mean))
            .collect::<Vec<_>>(),
        report.principal_variation
    )
}

/// Plays a few moves of `start` with both searches side by side (tree reuse on), checking at
/// every move that they choose the same and report the same statistics.
fn same_search<G, K>(start: G, knowledge: K, iterations: u64, moves: usize)
where
    G: Game,
    G::Action: Debug,
    K: Guide<G> + BatchEvaluator<G> + Clone,
{
    let config = UctConfig {
        cutoff: Some(0),
        ..UctConfig::default()
    };
    let mut plain = Uct::with_knowledge(config, WinDrawLoss::default(), knowledge.clone(), 7);
    let mut batched = BatchedUct::new(config, knowledge, 1, 7);
    let budget = Budget::iterations(iterations);
    let mut position = start;
    for _ in 0..moves {
        if position.status().is_over() {
            break;
        }
        let a = plain.choose(&position, &budget);
        let b = batched.choose(&position, &budget);
        assert_eq!(a, b);
        assert_eq!(
            summary(plain.report().unwrap()),
            summary(batched.report().unwrap())
        );
        // One call per leaf (a finished game needs none), and one for a fresh root.
        assert!(batched.evaluator_calls() <= iterations + 1);
        let action = a.unwrap();
        plain.played(&position, action);
        batched.played(&position, action);
        position.play(action);
    }
}

#[test]
fn batches_of_one_search_as_the_plain_search_with_the_same_knowledge() {
    same_search(
        TicTacToe::new(),
        Knowledge::NONE.with_prior(NoPrior),
        300,
        9,
    );
    same_search(Othello::new(), games_othello::knowledge(), 2_000, 6);
    same_search(Connect4::new(), games_connect4::knowledge(), 2_000, 6);
    same_search(
        Hex::new(7).unwrap(),
        Knowledge::NONE.with_prior(NoPrior),
        2_000,
        6,
    );
}

/// An evaluator that finds every position even and every move as likely, counting the
/// positions it is shown and the largest batch.
#[derive(Default)]
struct Even {
    positions: u64,
    largest: usize,
}

impl<G: Game> BatchEvaluator<G> for Even {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        self.positions += batch.len() as u64;
        self.largest = self.largest.max(batch.len());
        for i in 0..batch.len() {
            batch.priors_mut(i).fill(1.0);
            batch.set_value(i, 0.5);
        }
    }
}

#[test]
fn virtual_losses_are_taken_back_once_the_batch_is_evaluated() {
    // On 9x9 Hex no game ends within a few hundred iterations, so every value backed up is
    // the evaluator's 0.5: a virtual loss left behind would pull a mean below it.
    let mut agent = BatchedUct::new(UctConfig::default(), Even::default(), 16, 1);
    let position = Hex::new(9).unwrap();
    agent.choose(&position, &Budget::iterations(3_000));
    let report = agent.report().unwrap();
    assert_eq!(report.iterations, 3_000);
    assert_eq!(report.root_visits, 3_000);
    assert_eq!(report.actions.iter().map(|a| a.visits).sum::<u64>(), 3_000);
    for action in &report.actions {
        assert!((action.mean - 0.5).abs() < 1e-6, "{action:?}");
    }
    // Batches of up to 16, so far fewer calls than positions.
    let evaluator = agent.evaluator_mut();
    assert_eq!(evaluator.positions, 3_000 + 1);
    assert_eq!(evaluator.largest, 16);
    assert!(
        agent.evaluator_calls() < 3_000 / 4,
        "{}",
        agent.evaluator_calls()
    );
}

#[test]
fn batched_searches_find_what_a_search_finds() {
    // o to move must block x's row at c1, with a batch of 8 and an evaluator that knows
    // nothing (no prior, no value).
    let mut agent = BatchedUct::new(UctConfig::default(), Even::default(), 8, 3);
    let position: TicTacToe = "xx.\n.o.\n...".parse().unwrap();
    let block = "c1".parse().unwrap();
    assert_eq!(
        agent.choose(&position, &Budget::iterations(3_000)),
        Some(block)
    );
    // Connect Four: Black wins at once in column 3 or 7 (and loses the race elsewhere).
    let position: Connect4 = "445566".parse::<Connect4>().unwrap();
    let mut agent = BatchedUct::new(UctConfig::default(), games_connect4::knowledge(), 16, 3);
    let chosen = agent.choose(&position, &Budget::iterations(2_000)).unwrap();
    assert!(position.after(chosen).status().is_over(), "{chosen}");
    // With the solver, tic-tac-toe is proven a draw.
    let config = UctConfig {
        prove: true,
        ..UctConfig::default()
    };
    let mut agent = BatchedUct::new(config, Even::default(), 8, 3);
    agent.choose(&TicTacToe::new(), &Budget::iterations(200_000));
    assert_eq!(
        agent.report().unwrap().proven.map(|p| p.outcome),
        Some(game_core::Wdl::Draw)
    );
}

#[test]
fn a_time_budget_ends_a_batched_search() {
    let mut agent = BatchedUct::new(UctConfig::default(), games_othello::knowledge(), 32, 1);
    let budget = Budget::time(std::time::Duration::from_millis(50));
    let clock = std::time::Instant::now();
    assert!(agent.choose(&Othello::new(), &budget).is_some());
    assert!(agent.report().unwrap().iterations > 0);
    // Generous: the clock is read every 16 iterations, and a batch is at most 32.
    assert!(clock.elapsed() < std::time::Duration::from_secs(5));
}
