//! Playing one game between two agents.

use std::time::{Duration, Instant};

use game_core::{Game, Outcome, Player, Status};
use search::{Agent, Budget, Report};

/// One move as it was played, for whoever watches the game.
#[derive(Debug)]
pub struct MoveEvent<'a, G: Game> {
    /// The position before the move.
    pub before: &'a G,
    /// The move.
    pub action: G::Action,
    /// Who played it.
    pub player: Player,
    /// How long the agent thought.
    pub elapsed: Duration,
    /// What the agent's search found, if it searches.
    pub report: Option<&'a Report<G::Action>>,
}

/// A finished game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord<G: Game> {
    /// The moves, in order.
    pub moves: Vec<G::Action>,
    /// The final position.
    pub end: G,
    /// How it ended.
    pub outcome: Outcome,
}

/// Plays `start` to the end, Black's moves from `agents[0]` with `budgets[0]`, White's from
/// `agents[1]` with `budgets[1]`. Both agents are told every move. `on_move` sees each move as
/// it is played.
///
/// # Panics
///
/// If an agent answers an ongoing game with no action or with an illegal one: a bug in the
/// agent, not something a caller can recover from.
pub fn play_game<G: Game>(
    start: &G,
    agents: [&mut dyn Agent<G>; 2],
    budgets: [&Budget; 2],
    mut on_move: impl FnMut(MoveEvent<'_, G>),
) -> GameRecord<G> {
    let [black, white] = agents;
    let mut agents = [black, white];
    let mut position = start.clone();
    let mut moves = Vec::new();
    loop {
        if let Status::Over(outcome) = position.status() {
            return GameRecord {
                moves,
                end: position,
                outcome,
            };
        }
        let player = position.to_move();
        let clock = Instant::now();
        let action = agents[player.index()]
            .choose(&position, budgets[player.index()])
            .expect("an agent answers an ongoing game");
        let elapsed = clock.elapsed();
        assert!(
            position.is_legal(action),
            "the agent for {player} chose the illegal {action}"
        );
        on_move(MoveEvent {
            before: &position,
            action,
            player,
            elapsed,
            report: agents[player.index()].report(),
        });
        for agent in &mut agents {
            agent.played(&position, action);
        }
        position.play(action);
        moves.push(action);
    }
}
