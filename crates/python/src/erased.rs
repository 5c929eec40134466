//! Every game behind one object-safe face: [`AnyGame`] and [`AnyState`] are what Python's
//! `Game` and `State` classes (`game.rs`) hold, implemented once, generically, by [`GameOf`]
//! and [`StateOf`] for every [`TextGame`]; with the numbering of actions, the observation
//! planes and the players' numbers they share.

use std::any::Any;
use std::sync::Arc;

use arena::TextGame;
use game_core::{Game, Outcome, Player, Status};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::IllegalActionError;
use crate::agent::AnyAgent;

/// OpenSpiel's `current_player()` of a finished game (`pyspiel.PlayerId.TERMINAL`).
pub(crate) const TERMINAL: i32 = -4;

/// A game as Python holds it: its empty board, and what can be made from it.
pub(crate) trait AnyGame: Send + Sync + 'static {
    /// `hex(size=11, swap=True)`: the game and its parameters, as `load_game` takes them.
    fn describe(&self) -> String;
    /// `hex`, `othello`, `connect4`, `tictactoe`.
    fn name(&self) -> &'static str;
    /// The board's size as the tools write it: `11x11`, `7x6`.
    fn size_text(&self) -> String;
    /// How many action numbers there are (OpenSpiel's `num_distinct_actions`).
    fn num_distinct_actions(&self) -> usize;
    /// The shape of an observation: planes, rows, columns.
    fn observation_shape(&self) -> [usize; 3];
    /// The initial state.
    fn new_state(&self) -> Box<dyn AnyState>;
    /// A state from a list of moves in the game's notation or as numbers.
    fn state_from(&self, moves: &[ActionRef]) -> PyResult<Box<dyn AnyState>>;
    /// An agent of this game from a spec (see `agent.rs`).
    fn agent(
        &self,
        spec: &str,
        seed: u64,
        evaluator: Option<crate::evaluator::EvaluatorSpec>,
    ) -> PyResult<Box<dyn AnyAgent>>;
    /// `solve(state, time)` on this game (see `exact.rs`).
    fn solve(&self, py: Python<'_>, state: &dyn AnyState, seconds: f64) -> PyResult<Py<PyAny>>;
    /// `play_match` on this game (see `matches.rs`).
    fn play_match(&self, py: Python<'_>, request: crate::matches::Request) -> PyResult<Py<PyAny>>;
}

/// A move given by Python: a number, or text in the game's notation.
#[derive(Debug)]
pub(crate) enum ActionRef {
    /// An action number.
    Number(i64),
    /// A move's text.
    Text(String),
}

impl<'py> FromPyObject<'_, 'py> for ActionRef {
    type Error = PyErr;

    fn extract(object: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(number) = object.extract::<i64>() {
            Ok(ActionRef::Number(number))
        } else if let Ok(text) = object.extract::<String>() {
            Ok(ActionRef::Text(text))
        } else {
            Err(PyTypeError::new_err(format!(
                "a move is an action number or its text, not {}",
                object.get_type().name()?
            )))
        }
    }
}

/// A state as Python holds it.
pub(crate) trait AnyState: Send + Sync + 'static {
    fn boxed_clone(&self) -> Box<dyn AnyState>;
    fn as_any(&self) -> &dyn Any;
    fn game(&self) -> Arc<dyn AnyGame>;
    fn legal_actions(&self) -> Vec<usize>;
    fn apply(&mut self, action: &ActionRef) -> PyResult<()>;
    fn undo(&mut self) -> PyResult<usize>;
    fn is_terminal(&self) -> bool;
    fn returns(&self) -> [f64; 2];
    fn current_player(&self) -> i32;
    fn action_to_string(&self, action: i64) -> PyResult<String>;
    fn string_to_action(&self, text: &str) -> PyResult<usize>;
    fn text(&self) -> String;
    fn observation(&self, player: Player) -> Vec<f32>;
    fn history(&self) -> Vec<usize>;
    fn moves_text(&self) -> Vec<String>;
}

/// Any game of the library, behind [`AnyGame`].
pub(crate) struct GameOf<G: TextGame> {
    start: G,
    describe: String,
}

/// A state of a `GameOf<G>`: the position, and the moves from the start that led to it (for
/// `undo_action`, `history` and the agents' tree reuse).
pub(crate) struct StateOf<G: TextGame> {
    pub(crate) game: Arc<GameOf<G>>,
    pub(crate) position: G,
    pub(crate) moves: Vec<G::Action>,
}

impl<G: TextGame> GameOf<G> {
    /// The game of `start`, described to Python as `describe`.
    pub(crate) fn new(start: G, describe: String) -> Self {
        GameOf { start, describe }
    }

    pub(crate) fn start(&self) -> &G {
        &self.start
    }
}

/// The number of `action` in the positions of the game that starts at `start`.
pub(crate) fn number<G: Game>(start: &G, action: G::Action) -> usize {
    start.action_index(action)
}

/// The action numbered `number` in the game of `position`, with an error that says why none is.
pub(crate) fn action_numbered<G: TextGame>(position: &G, number: i64) -> PyResult<G::Action> {
    usize::try_from(number)
        .ok()
        .and_then(|n| position.action_from_index(n))
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "{number} is not an action of {} {}: actions are 0 to {}",
                G::NAME,
                position.size_text(),
                position.action_space().unwrap_or(0).saturating_sub(1)
            ))
        })
}

/// The observation of `position` for `player`: three planes of rows x columns, the player's
/// stones, the opponent's, and the empty cells, as 0.0 or 1.0, rows from the top.
pub(crate) fn observation<G: TextGame>(position: &G, player: Player, out: &mut Vec<f32>) {
    let cells = position.cells();
    let mut planes = [Vec::new(), Vec::new(), Vec::new()];
    for row in &cells {
        for cell in row {
            let plane = match cell {
                Some(p) if *p == player => 0,
                Some(_) => 1,
                None => 2,
            };
            for (i, values) in planes.iter_mut().enumerate() {
                values.push(if i == plane { 1.0 } else { 0.0 });
            }
        }
    }
    for values in planes {
        out.extend(values);
    }
}

fn shape_of<G: TextGame>(start: &G) -> [usize; 3] {
    let cells = start.cells();
    [3, cells.len(), cells.first().map_or(0, Vec::len)]
}

impl<G: TextGame> StateOf<G> {
    fn parse(&self, action: &ActionRef) -> PyResult<G::Action> {
        let illegal = |why: String| IllegalActionError::new_err(why);
        let chosen = match action {
            ActionRef::Number(n) => action_numbered(&self.position, *n)?,
            ActionRef::Text(text) => self
                .position
                .parse_move(text)
                .map_err(|e| illegal(format!("{text:?}: {e}")))?,
        };
        if self.position.status().is_over() {
            return Err(illegal(format!(
                "{chosen} cannot be played: the game is over"
            )));
        }
        if !self.position.is_legal(chosen) {
            return Err(illegal(format!(
                "{chosen} (action {}) is not legal here",
                number(&self.position, chosen)
            )));
        }
        Ok(chosen)
    }
}

impl<G: TextGame> AnyGame for GameOf<G> {
    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn size_text(&self) -> String {
        self.start.size_text()
    }

    fn num_distinct_actions(&self) -> usize {
        self.start.action_space().unwrap_or(0)
    }

    fn observation_shape(&self) -> [usize; 3] {
        shape_of(&self.start)
    }

    fn new_state(&self) -> Box<dyn AnyState> {
        Box::new(StateOf {
            game: Arc::new(self.clone_game()),
            position: self.start.clone(),
            moves: Vec::new(),
        })
    }

    fn state_from(&self, moves: &[ActionRef]) -> PyResult<Box<dyn AnyState>> {
        let mut state = self.new_state();
        for (i, action) in moves.iter().enumerate() {
            state
                .apply(action)
                .map_err(|e| IllegalActionError::new_err(format!("move {}: {e}", i + 1)))?;
        }
        Ok(state)
    }

    fn agent(
        &self,
        spec: &str,
        seed: u64,
        evaluator: Option<crate::evaluator::EvaluatorSpec>,
    ) -> PyResult<Box<dyn AnyAgent>> {
        crate::agent::build::<G>(Arc::new(self.clone_game()), spec, seed, evaluator)
    }

    fn solve(&self, py: Python<'_>, state: &dyn AnyState, seconds: f64) -> PyResult<Py<PyAny>> {
        let state = downcast::<G>(state, self)?;
        crate::exact::solve(py, &state.position, seconds)
    }

    fn play_match(&self, py: Python<'_>, request: crate::matches::Request) -> PyResult<Py<PyAny>> {
        crate::matches::play(py, &self.clone_game(), request)
    }
}

impl<G: TextGame> GameOf<G> {
    fn clone_game(&self) -> GameOf<G> {
        GameOf {
            start: self.start.clone(),
            describe: self.describe.clone(),
        }
    }
}

/// `state` as a state of `game`'s type, or a `TypeError` that names both games.
pub(crate) fn downcast<'a, G: TextGame>(
    state: &'a dyn AnyState,
    game: &GameOf<G>,
) -> PyResult<&'a StateOf<G>> {
    match state.as_any().downcast_ref::<StateOf<G>>() {
        Some(state) if state.game.describe == game.describe => Ok(state),
        _ => Err(PyTypeError::new_err(format!(
            "this is for {}; the state is of {}",
            game.describe,
            state.game().describe()
        ))),
    }
}

impl<G: TextGame> AnyState for StateOf<G> {
    fn boxed_clone(&self) -> Box<dyn AnyState> {
        Box::new(StateOf {
            game: Arc::clone(&self.game),
            position: self.position.clone(),
            moves: self.moves.clone(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn game(&self) -> Arc<dyn AnyGame> {
        Arc::clone(&self.game) as Arc<dyn AnyGame>
    }

    fn legal_actions(&self) -> Vec<usize> {
        /// The legal actions' numbers, written as the game lists its actions.
        struct Numbers<'a, G: Game>(&'a G, Vec<usize>);
        impl<G: Game> Extend<G::Action> for Numbers<'_, G> {
            fn extend<I: IntoIterator<Item = G::Action>>(&mut self, actions: I) {
                let position = self.0;
                self.1
                    .extend(actions.into_iter().map(|a| number(position, a)));
            }
        }
        let mut numbers = Numbers(
            &self.position,
            Vec::with_capacity(self.position.num_legal_actions()),
        );
        self.position.legal_actions(&mut numbers);
        let mut numbers = numbers.1;
        if !numbers.is_sorted() {
            numbers.sort_unstable();
        }
        numbers
    }

    fn apply(&mut self, action: &ActionRef) -> PyResult<()> {
        let action = self.parse(action)?;
        self.position.play(action);
        self.moves.push(action);
        Ok(())
    }

    fn undo(&mut self) -> PyResult<usize> {
        let Some(last) = self.moves.pop() else {
            return Err(PyValueError::new_err(
                "undo_action: no move has been played",
            ));
        };
        let mut position = self.game.start.clone();
        for &action in &self.moves {
            position.play(action);
        }
        self.position = position;
        Ok(number(&self.position, last))
    }

    fn is_terminal(&self) -> bool {
        self.position.status().is_over()
    }

    fn returns(&self) -> [f64; 2] {
        match self.position.status() {
            Status::Ongoing | Status::Over(Outcome::Draw) => [0.0, 0.0],
            Status::Over(Outcome::Win(Player::Black)) => [1.0, -1.0],
            Status::Over(Outcome::Win(Player::White)) => [-1.0, 1.0],
        }
    }

    fn current_player(&self) -> i32 {
        if self.is_terminal() {
            TERMINAL
        } else {
            player_id(self.position.to_move())
        }
    }

    fn action_to_string(&self, action: i64) -> PyResult<String> {
        Ok(action_numbered(&self.position, action)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let action = self.parse(&ActionRef::Text(text.to_owned()))?;
        Ok(number(&self.position, action))
    }

    fn text(&self) -> String {
        self.position.to_string()
    }

    fn observation(&self, player: Player) -> Vec<f32> {
        let mut out = Vec::new();
        observation(&self.position, player, &mut out);
        out
    }

    fn history(&self) -> Vec<usize> {
        let mut position = self.game.start.clone();
        self.moves
            .iter()
            .map(|&action| {
                let n = number(&position, action);
                position.play(action);
                n
            })
            .collect()
    }

    fn moves_text(&self) -> Vec<String> {
        self.moves.iter().map(ToString::to_string).collect()
    }
}

/// OpenSpiel's number of a player: 0 for Black (who moves first), 1 for White.
pub(crate) fn player_id(player: Player) -> i32 {
    match player {
        Player::Black => 0,
        Player::White => 1,
    }
}

/// The player OpenSpiel numbers `id`.
pub(crate) fn player_of(id: i64) -> PyResult<Player> {
    match id {
        0 => Ok(Player::Black),
        1 => Ok(Player::White),
        _ => Err(PyValueError::new_err(format!(
            "player {id}: players are 0 (first to move) and 1"
        ))),
    }
}
