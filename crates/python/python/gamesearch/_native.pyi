"""Type stubs of gamesearch's native module (re-exported by ``gamesearch``)."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
TERMINAL: int
"""``current_player()`` of a finished game: -4, as OpenSpiel's ``PlayerId.TERMINAL``."""

class GameError(ValueError):
    """A game or parameters that this library cannot make."""

class IllegalActionError(ValueError):
    """An action that is not legal in the state, or not an action of the game."""

class SpecError(ValueError):
    """An agent spec that does not parse, or asks for what the game does not have."""

Move = Union[int, str]
"""An action number, or the move's text in the game's notation."""

class Game:
    """A game with its parameters, as ``load_game`` returns it."""

    name: str
    """``"hex"``, ``"othello"``, ``"connect4"`` or ``"tictactoe"``."""
    size: str
    """The board's size as the tools write it: ``"11x11"``, ``"7x6"`` (columns x rows)."""
    def new_initial_state(self) -> State:
        """The empty board, player 0 to move."""
    def new_state_from(self, moves: Union[str, Sequence[Move]]) -> State:
        """The state after ``moves`` from the start (numbers, texts, or one string of moves)."""
    def num_distinct_actions(self) -> int:
        """How many action numbers there are; actions are 0 to this minus one."""
    def observation_tensor_shape(self) -> List[int]:
        """``[3, rows, columns]``."""
    def num_players(self) -> int:
        """Always 2."""

class State:
    """A position and the moves that led to it."""

    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions' numbers, increasing; empty when over (or not ``player``'s turn)."""
    def apply_action(self, action: Move) -> None:
        """Plays ``action``; raises ``IllegalActionError`` (leaving the state) if illegal."""
    def undo_action(self, player: Optional[int] = None, action: Optional[int] = None) -> None:
        """Takes back the last move (OpenSpiel's arguments, if given, are checked)."""
    def clone(self) -> State:
        """An independent copy."""
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool:
        """Always ``False``."""
    def returns(self) -> List[float]:
        """``[1.0, -1.0]`` if player 0 won, ``[-1.0, 1.0]`` if player 1 did, else zeros."""
    def player_return(self, player: int) -> float: ...
    def current_player(self) -> int:
        """0 or 1, or ``TERMINAL`` (-4) when the game is over."""
    def action_to_string(self, first: int, second: Optional[int] = None) -> str:
        """``action_to_string(action)`` or OpenSpiel's ``action_to_string(player, action)``."""
    def string_to_action(self, first: Union[int, str], second: Optional[str] = None) -> int:
        """``string_to_action(text)`` or ``string_to_action(player, text)``: a legal move's number."""
    def history(self) -> List[int]:
        """The actions played from the start."""
    def history_str(self) -> List[str]:
        """The moves played from the start, in the game's notation."""
    def move_number(self) -> int: ...
    def get_game(self) -> Game: ...
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """``[3, rows, columns]``: ``player``'s stones, the opponent's, the empty cells."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

class Proof:
    """A result proven with best play, for the player to move."""

    result: str
    """``"win"``, ``"draw"`` or ``"loss"``."""
    plies: Optional[int]
    margin: Optional[int]

class MoveStats:
    """One root move after a search."""

    action: int
    text: str
    visits: int
    win_rate: Optional[float]
    """Mean result for the player to move, 0 to 1 (``None`` unvisited, or for alpha-beta)."""
    proven: Optional[str]

class Report:
    """What a search found."""

    action: Optional[int]
    text: Optional[str]
    iterations: int
    seconds: float
    iterations_per_second: float
    root_visits: int
    moves: List[MoveStats]
    """Most visited first."""
    principal_variation: List[int]
    principal_variation_text: List[str]
    nodes: int
    depth: int
    score: Optional[int]
    proven: Optional[Proof]
    book: bool
    threads: int
    """The threads the search ran on (every core by default, unless the spec says ``threads``)."""
    locked: bool
    """Whether they shared one tree under a lock (RAVE under PUCT, ``expand=all``)."""

Evaluator = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_]],
    Tuple[npt.ArrayLike, npt.ArrayLike],
]
"""``evaluator(observations[B,3,R,C], legal[B,A]) -> (priors[B,A] >= 0, values[B] in -1..1)``."""

class Agent:
    """An agent from a spec string: ``best:time=1s``, ``uct:iterations=10000,c=0.7``, ...

    With ``evaluator`` (a callable, see ``Evaluator``), a ``uct``, ``rave`` or ``grave`` spec
    runs the batched search on its priors and values, ``batch`` positions per call;
    ``evaluator="uniform"`` runs the same search with the Rust evaluator of uniform priors and
    even values, the baseline to measure a network against.
    """

    spec: str
    last_report: Optional[Report]
    def __init__(
        self,
        game: Game,
        spec: str = "best",
        seed: int = 0,
        evaluator: Optional[Union[Evaluator, str]] = None,
        batch: int = 16,
    ) -> None: ...
    def step(self, state: State) -> int:
        """A move for the player to move (the state is not changed)."""
    def analyse(self, state: State) -> Report:
        """Searches as ``step`` does and returns the report."""

class Solution:
    """An exactly solved position."""

    result: str
    action: Optional[int]
    text: Optional[str]
    plies: Optional[int]
    margin: Optional[int]
    nodes: int
    seconds: float

def load_game(name: str, **parameters: Any) -> Game:
    """``hex`` (size, swap), ``othello`` (size 8 or 6), ``connect4`` (rows, columns), ``tictactoe``."""

def solve(state: State, time: float = 10.0) -> Optional[Solution]:
    """The exact result and a best move, or ``None`` if ``time`` seconds are not enough."""

def play_match(
    game: Game,
    agents: Sequence[str],
    games: int = 2,
    seed: int = 1,
    threads: int = 1,
    openings: Optional[Sequence[Union[str, Sequence[Move]]]] = None,
    format: str = "round-robin",
    on_game: Optional[Callable[[Dict[str, Any]], Any]] = None,
) -> Dict[str, Any]:
    """``games`` games per pair, colours alternating; returns agents, games, scores, table."""
