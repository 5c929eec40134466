"""gamesearch: fast bitboard games and game-tree search, from Python.

The games (Hex up to 19x19 with the swap rule, Othello 8x8 and 6x6, Connect Four of any size
up to 128 cells, tic-tac-toe), the agents of the Rust library from the same spec strings as
its tools, its exact solvers, and its tournaments, with an OpenSpiel-style API::

    import gamesearch

    game = gamesearch.load_game("hex", size=11, swap=True)
    state = game.new_initial_state()
    agent = gamesearch.Agent(game, "best:time=1s", seed=1)
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    print(state, state.returns())

See ``docs/python.md`` in the repository for the numbering of actions, the evaluator
protocol, and measurements.
"""

from ._native import (
    TERMINAL,
    Agent,
    Game,
    GameError,
    IllegalActionError,
    MoveStats,
    Proof,
    Report,
    Solution,
    SpecError,
    State,
    __version__,
    load_game,
    play_match,
    solve,
)

__all__ = [
    "TERMINAL",
    "Agent",
    "Game",
    "GameError",
    "IllegalActionError",
    "MoveStats",
    "Proof",
    "Report",
    "Solution",
    "SpecError",
    "State",
    "__version__",
    "load_game",
    "play_match",
    "random_game",
    "solve",
]


def random_game(game, seed=None):
    """Plays one game of uniformly random moves from the start and returns its final state."""
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state
