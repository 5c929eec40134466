//! A full tree frees its least-visited subtrees (`UctConfig::prune`) on every game, with the
//! tree reused between moves: the cap holds, the root keeps every iteration, the moves are
//! legal. (The books of the pruned tree are checked node by node in `search`'s unit tests.)

use arena::{GAMES, GameChoice, TextGame, WithGame};
use search::Budget;

/// Plays eight moves from the empty board with `spec` (a capped tree of 3,000 nodes) and
/// checks each search's report.
struct CappedGame(&'static str);

impl WithGame for CappedGame {
    type Output = ();

    fn run<G: TextGame>(self, start: G) {
        let spec = G::parse_agent(self.0).unwrap();
        // Tic-tac-toe has no prior or playout policy of its own: it runs plain RAVE.
        let mut agent = match G::agent(&spec, 5) {
            Ok(agent) => agent,
            Err(search::SpecError::Unsupported { .. }) if G::NAME == "tictactoe" => {
                G::agent(&G::parse_agent("rave:nodes=3000").unwrap(), 5).unwrap()
            }
            Err(e) => panic!("{} {}: {e}", G::NAME, self.0),
        };
        let budget = Budget::iterations(4000);
        let mut position = start;
        let mut biggest = 0;
        let mut proved = false;
        for _ in 0..8 {
            if position.status().is_over() {
                break;
            }
            let action = agent.choose(&position, &budget).unwrap();
            let report = agent.report().unwrap();
            assert!(
                report.nodes <= 3000,
                "{} {}: {} nodes",
                G::NAME,
                self.0,
                report.nodes
            );
            // Reuse keeps the subtree's visits, pruning keeps the root's: the root's children
            // hold no more than went through the root. A search that proves the root's result
            // stops there (tic-tac-toe's draw is proven in fewer iterations).
            proved |= report.proven.is_some();
            assert!(
                report.root_visits >= 4000 || proved,
                "{} {}",
                G::NAME,
                self.0
            );
            let below: u64 = report.actions.iter().map(|a| a.visits).sum();
            assert!(below <= report.root_visits, "{} {}", G::NAME, self.0);
            biggest = biggest.max(report.root_visits);
            assert!(position.is_legal(action));
            agent.played(&position, action);
            position.play(action);
        }
        // Over eight moves the searches ran 32,000 iterations into a tree of at most 3,000
        // nodes: the trees kept by reuse grew past what a capped tree would have held.
        assert!(
            biggest > 4000 || proved,
            "{} {}: no tree was reused",
            G::NAME,
            self.0
        );
    }
}

#[test]
fn capped_trees_prune_on_every_game_with_reuse() {
    for game in GAMES {
        let choice = GameChoice::new(game, None, false).unwrap();
        for spec in [
            "uct:nodes=3000,prove=true",
            "rave:nodes=3000,prior=game,playout=game",
        ] {
            choice.run(CappedGame(spec));
        }
    }
}
