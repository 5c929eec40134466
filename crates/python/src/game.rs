//! Games and their states, OpenSpiel-style: `load_game`, `Game` and `State`, the Python
//! classes over the erased games of `erased.rs`.

use std::sync::Arc;

use arena::{GameChoice, TextGame, WithGame};
use game_core::Player;
use numpy::{IntoPyArray, PyArray3, ndarray::Array3};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::GameError;

pub(crate) use crate::erased::*;

struct Make(String);

impl WithGame for Make {
    type Output = Arc<dyn AnyGame>;
    fn run<G: TextGame>(self, start: G) -> Arc<dyn AnyGame> {
        Arc::new(GameOf::new(start, self.0))
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
