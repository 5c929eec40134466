//! Games and their states, OpenSpiel-style: `load_game`, `Game` and `State`.
//!
//! Python sees one `Game` and one `State` class for every game; behind them, [`AnyGame`] and
//! [`AnyState`] are the object-safe faces of the generic [`GameOf`] and [`StateOf`], written
//! once for every [`TextGame`].

use std::any::Any;
use std::sync::Arc;

use arena::{GameChoice, TextGame, WithGame};
use game_core::{Game, Outcome, Player, Status};
use numpy::{IntoPyArray, PyArray3, ndarray::Array3};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::agent::AnyAgent;
use crate::{GameError, IllegalActionError};

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

struct Make(String);

impl WithGame for Make {
    type Output = Arc<dyn AnyGame>;
    fn run<G: TextGame>(self, start: G) -> Arc<dyn AnyGame> {
        Arc::new(GameOf {
            start,
            describe: self.0,
        })
    }
}

/// A game, as `load_game` returns it: its rules and sizes, and a factory of states.
///
/// ```python
/// game = gamesearch.load_game("hex", size=11, swap=True)
/// state = game.new_initial_state()
/// ```
#[pyclass(name = "Game", module = "gamesearch", frozen)]
pub(crate) struct PyGame {
    pub(crate) inner: Arc<dyn AnyGame>,
}

#[pymethods]
impl PyGame {
    /// The empty board, the first player (0) to move.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: self.inner.new_state(),
        }
    }

    /// The state after `moves` from the start: action numbers or moves in the game's
    /// notation (`["e6", "f4"]`), or one string of moves separated by spaces.
    fn new_state_from(&self, moves: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let moves: Vec<ActionRef> = if let Ok(text) = moves.extract::<String>() {
            text.split_whitespace()
                .map(|m| ActionRef::Text(m.to_owned()))
                .collect()
        } else {
            moves.extract()?
        };
        Ok(PyState {
            inner: self.inner.state_from(&moves)?,
        })
    }

    /// How many action numbers the game has: actions are `0` to this minus one.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// The shape of `State.observation_tensor()`: `[3, rows, columns]`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape().to_vec()
    }

    /// Always 2.
    fn num_players(&self) -> usize {
        2
    }

    /// The game's name: `hex`, `othello`, `connect4` or `tictactoe`.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The board's size as the tools write it: `11x11`, `8x8`, `7x6` (columns x rows), `3x3`.
    #[getter]
    fn size(&self) -> String {
        self.inner.size_text()
    }

    fn __repr__(&self) -> String {
        format!("gamesearch.load_game{}", self.inner.describe())
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.get().inner.describe() == self.inner.describe())
    }

    fn __hash__(&self) -> u64 {
        game_core::mix64(
            self.inner
                .describe()
                .bytes()
                .fold(0, |h, b| h.wrapping_mul(31) ^ u64::from(b)),
        )
    }
}

/// A position of a game and the moves that led to it, OpenSpiel-style.
///
/// Actions are integers (`Game.num_distinct_actions()` of them); `action_to_string` and
/// `string_to_action` translate them to and from the game's notation.
#[pyclass(name = "State", module = "gamesearch")]
pub(crate) struct PyState {
    pub(crate) inner: Box<dyn AnyState>,
}

#[pymethods]
impl PyState {
    /// The legal actions' numbers, in increasing order; empty when the game is over (or, given
    /// `player`, when it is not that player's turn).
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<usize>> {
        if let Some(player) = player {
            player_of(player)?;
            if i64::from(self.inner.current_player()) != player {
                return Ok(Vec::new());
            }
        }
        Ok(self.inner.legal_actions())
    }

    /// Plays `action` (its number, or its text in the game's notation). Raises
    /// `IllegalActionError` for an action that is not legal here, leaving the state as it was.
    #[allow(clippy::needless_pass_by_value)] // PyO3 hands arguments over by value
    fn apply_action(&mut self, action: ActionRef) -> PyResult<()> {
        self.inner.apply(&action)
    }

    /// Takes back the last move. OpenSpiel's form `undo_action(player, action)` is accepted
    /// too, and checked against the last move.
    #[pyo3(signature = (player=None, action=None))]
    fn undo_action(&mut self, player: Option<i64>, action: Option<i64>) -> PyResult<()> {
        let history = self.inner.history();
        let Some(&last) = history.last() else {
            return Err(PyValueError::new_err(
                "undo_action: no move has been played",
            ));
        };
        if let Some(action) = action
            && usize::try_from(action).ok() != Some(last)
        {
            return Err(PyValueError::new_err(format!(
                "undo_action: the last action was {last}, not {action}"
            )));
        }
        if let Some(player) = player {
            let mover = (history.len() as i64 - 1) % 2;
            if player != mover {
                return Err(PyValueError::new_err(format!(
                    "undo_action: the last move was player {mover}'s, not player {player}'s"
                )));
            }
        }
        self.inner.undo().map(|_| ())
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        PyState {
            inner: self.inner.boxed_clone(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Always `False`: these games have no chance.
    fn is_chance_node(&self) -> bool {
        false
    }

    /// Each player's result: `[1.0, -1.0]` when player 0 has won, `[-1.0, 1.0]` when player
    /// 1 has, `[0.0, 0.0]` for a draw or a game that goes on.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// Player `player`'s result (see `returns`).
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let p = player_of(player)?;
        Ok(self.inner.returns()[p.index()])
    }

    /// 0 or 1, the player to move; -4 (OpenSpiel's terminal id) when the game is over.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// The action's text in the game's notation (`f5`, `swap`, `pass`, `4`). OpenSpiel's form
    /// `action_to_string(player, action)` is accepted too.
    #[pyo3(signature = (first, second=None))]
    fn action_to_string(&self, first: i64, second: Option<i64>) -> PyResult<String> {
        match second {
            None => self.inner.action_to_string(first),
            Some(action) => {
                player_of(first)?;
                self.inner.action_to_string(action)
            }
        }
    }

    /// The number of a legal move given in the game's notation. OpenSpiel's form
    /// `string_to_action(player, text)` is accepted too.
    #[pyo3(signature = (first, second=None))]
    fn string_to_action(
        &self,
        first: &Bound<'_, PyAny>,
        second: Option<String>,
    ) -> PyResult<usize> {
        match second {
            None => self.inner.string_to_action(&first.extract::<String>()?),
            Some(text) => {
                player_of(first.extract()?)?;
                self.inner.string_to_action(&text)
            }
        }
    }

    /// The actions played from the start, as numbers.
    fn history(&self) -> Vec<usize> {
        self.inner.history()
    }

    /// The moves played from the start, in the game's notation.
    fn history_str(&self) -> Vec<String> {
        self.inner.moves_text()
    }

    /// How many moves have been played.
    fn move_number(&self) -> usize {
        self.inner.history().len()
    }

    /// The game this state belongs to.
    fn get_game(&self) -> PyGame {
        PyGame {
            inner: self.inner.game(),
        }
    }

    /// The board as a float32 array of shape `[3, rows, columns]`, rows from the top: plane 0
    /// holds `player`'s stones (by default the player to move, or player 0 once the game is
    /// over), plane 1 the opponent's, plane 2 the empty cells.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let player = match player {
            Some(p) => player_of(p)?,
            None => match self.inner.current_player() {
                1 => Player::White,
                _ => Player::Black,
            },
        };
        let [planes, rows, columns] = self.inner.game().observation_shape();
        let values = self.inner.observation(player);
        let array = Array3::from_shape_vec((planes, rows, columns), values)
            .map_err(|e| GameError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    fn __str__(&self) -> String {
        self.inner.text()
    }

    fn __repr__(&self) -> String {
        let game = self.inner.game();
        let to_move = match self.inner.current_player() {
            0 => "player 0 to move".to_owned(),
            1 => "player 1 to move".to_owned(),
            _ => format!("over, returns {:?}", self.inner.returns()),
        };
        format!(
            "<gamesearch.State of {}: {} moves, {to_move}>",
            game.describe(),
            self.inner.history().len()
        )
    }
}

/// `load_game(name, **parameters)`: the game `name` (`hex`, `othello`, `connect4`,
/// `tictactoe`, or OpenSpiel's `connect_four` and `tic_tac_toe`) with its parameters.
pub(crate) fn load(name: &str, parameters: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    let canonical = match name.to_ascii_lowercase().as_str() {
        "hex" => "hex",
        "othello" => "othello",
        "connect4" | "connect_four" | "connect-four" => "connect4",
        "tictactoe" | "tic_tac_toe" | "tic-tac-toe" => "tictactoe",
        _ => {
            return Err(GameError::new_err(format!(
                "unknown game {name:?}: expected hex, othello, connect4 (connect_four) or \
                 tictactoe (tic_tac_toe)"
            )));
        }
    };
    let allowed: &[&str] = match canonical {
        "hex" => &["size", "board_size", "swap"],
        "othello" => &["size"],
        "connect4" => &["rows", "columns", "size"],
        _ => &[],
    };
    let mut size: Option<String> = None;
    let mut swap = false;
    let (mut rows, mut columns) = (None::<u32>, None::<u32>);
    if let Some(parameters) = parameters {
        for (key, value) in parameters.iter() {
            let key: String = key.extract()?;
            if !allowed.contains(&key.as_str()) {
                return Err(GameError::new_err(format!(
                    "unknown parameter {key:?} for {canonical}: expected {}",
                    if allowed.is_empty() {
                        "none".to_owned()
                    } else {
                        allowed.join(", ")
                    }
                )));
            }
            let bad =
                |what: &str| GameError::new_err(format!("{key} for {canonical}: expected {what}"));
            match key.as_str() {
                "swap" => swap = value.extract().map_err(|_| bad("True or False"))?,
                "rows" => rows = Some(value.extract().map_err(|_| bad("a whole number"))?),
                "columns" => columns = Some(value.extract().map_err(|_| bad("a whole number"))?),
                _ => {
                    size = Some(match value.extract::<u32>() {
                        Ok(n) => n.to_string(),
                        Err(_) => value
                            .extract::<String>()
                            .map_err(|_| bad("a whole number or a size such as \"7x6\""))?,
                    });
                }
            }
        }
    }
    if rows.is_some() || columns.is_some() {
        if size.is_some() {
            return Err(GameError::new_err(
                "connect4: give rows and columns, or size, not both",
            ));
        }
        size = Some(format!("{}x{}", columns.unwrap_or(7), rows.unwrap_or(6)));
    }
    let choice = GameChoice::new(canonical, size.as_deref(), swap).map_err(GameError::new_err)?;
    let describe = match choice {
        GameChoice::Hex { size, swap } => format!("(\"hex\", size={size}, swap={})", py_bool(swap)),
        GameChoice::Othello { size } => format!("(\"othello\", size={size})"),
        GameChoice::Connect4 { width, height } => {
            format!("(\"connect4\", rows={height}, columns={width})")
        }
        GameChoice::TicTacToe => "(\"tictactoe\")".to_owned(),
    };
    Ok(PyGame {
        inner: choice.run(Make(describe)),
    })
}

fn py_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}
