//! Playing one game between two agents.

use std::time::{Duration, Instant};

use game_core::{Game, Outcome, Player, Status};
use search::{Agent, Budget, Report};

use crate::resign::{Resign, Resignation, Resigner};

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
#[derive(Clone, PartialEq, Debug)]
pub struct GameRecord<G: Game> {
    /// The moves, in order.
    pub moves: Vec<G::Action>,
    /// The final position: the game's end, or the position where a player resigned.
    pub end: G,
    /// How it ended: the game's outcome, or a win for the opponent of a player who resigned.
    pub outcome: Outcome,
    /// The player who resigned and why ([`play_game_resigning`]); `None` when the game was
    /// played to its end.
    pub resigned: Option<(Player, Resignation)>,
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
    on_move: impl FnMut(MoveEvent<'_, G>),
) -> GameRecord<G> {
    play_game_resigning(start, agents, budgets, [Resign::NEVER; 2], on_move)
}

/// [`play_game`], where Black resigns by `rules[0]` and White by `rules[1]`
/// ([`Resign`]): the game ends when one does, before the move its search chose (which
/// `on_move` does not see), and the record says who and why.
///
/// # Panics
///
/// As [`play_game`].
pub fn play_game_resigning<G: Game>(
    start: &G,
    agents: [&mut dyn Agent<G>; 2],
    budgets: [&Budget; 2],
    rules: [Resign; 2],
    mut on_move: impl FnMut(MoveEvent<'_, G>),
) -> GameRecord<G> {
    let [black, white] = agents;
    let mut agents = [black, white];
    let mut resigners = rules.map(Resigner::new);
    let mut position = start.clone();
    let mut moves = Vec::new();
    loop {
        if let Status::Over(outcome) = position.status() {
            return GameRecord {
                moves,
                end: position,
                outcome,
                resigned: None,
            };
        }
        let player = position.to_move();
        let clock = Instant::now();
        let action = agents[player.index()]
            .choose(&position, budgets[player.index()])
            .expect("an agent answers an ongoing game");
        let elapsed = clock.elapsed();
        if let Some(why) = resigners[player.index()].consider(agents[player.index()].report()) {
            return GameRecord {
                moves,
                end: position,
                outcome: Outcome::Win(player.opponent()),
                resigned: Some((player, why)),
            };
        }
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
