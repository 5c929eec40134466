"""Agreement with OpenSpiel (``pip install open_spiel==2.0.2``): the same random move
sequences, played in both libraries, give the same legal actions at every ply, the same boards,
the same player to move, the same end and the same returns.

Skipped when ``pyspiel`` is not installed. The number of games per configuration comes from
``GAMESEARCH_AGREEMENT_GAMES`` (default 40; the measurement in ``docs/python.md`` uses 1000).
"""

import os
import random

import numpy as np
import pytest

import gamesearch

pyspiel = pytest.importorskip("pyspiel")

GAMES = int(os.environ.get("GAMESEARCH_AGREEMENT_GAMES", "40"))


# Each configuration: our game, OpenSpiel's, and how OpenSpiel's observation of player 0 is
# made from ours (our planes are player 0's stones, player 1's stones, empty, rows from the top).
CONFIGS = {
    "hex5-swap": (("hex", {"size": 5, "swap": True}),
                  ("hex", {"board_size": 5, "swap": True, "plain_obs_tensor": True}),
                  lambda ours: ours),
    "hex7": (("hex", {"size": 7}),
             ("hex", {"board_size": 7, "plain_obs_tensor": True}),
             lambda ours: ours),
    "hex11": (("hex", {"size": 11}),
              ("hex", {"board_size": 11, "plain_obs_tensor": True}),
              lambda ours: ours),
    "hex11-swap": (("hex", {"size": 11, "swap": True}),
                   ("hex", {"board_size": 11, "swap": True, "plain_obs_tensor": True}),
                   lambda ours: ours),
    # OpenSpiel's Othello planes are empty, the observer's, the opponent's.
    "othello": (("othello", {}), ("othello", {}), lambda ours: ours[[2, 0, 1]]),
    # OpenSpiel's Connect Four planes are x, o, empty with row 0 at the bottom.
    "connect4": (("connect4", {}), ("connect_four", {}), lambda ours: ours[:, ::-1, :]),
    "connect4-5x6": (("connect4", {"rows": 5, "columns": 6}),
                     ("connect_four", {"rows": 5, "columns": 6}),
                     lambda ours: ours[:, ::-1, :]),
    # OpenSpiel's tic-tac-toe planes are empty, o, x.
    "tictactoe": (("tictactoe", {}), ("tic_tac_toe", {}), lambda ours: ours[[2, 1, 0]]),
}


def agree(ours, theirs, to_theirs, where):
    assert ours.is_terminal() == theirs.is_terminal(), where
    assert ours.current_player() == theirs.current_player(), where
    assert ours.legal_actions() == sorted(theirs.legal_actions()), where
    board = to_theirs(ours.observation_tensor(0))
    expected = np.asarray(theirs.observation_tensor(0), dtype=np.float32).reshape(board.shape)
    assert np.array_equal(board, expected), f"{where}\n{ours}\n{theirs}"


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_random_games_agree_with_openspiel(config):
    (name, params), (os_name, os_params), to_theirs = CONFIGS[config]
    game = gamesearch.load_game(name, **params)
    os_game = pyspiel.load_game(os_name, os_params)
    rng = random.Random(config)
    ends = {}
    for number in range(GAMES):
        ours, theirs = game.new_initial_state(), os_game.new_initial_state()
        line = []
        while True:
            agree(ours, theirs, to_theirs, f"{config} game {number} after {line}")
            if ours.is_terminal():
                break
            action = rng.choice(ours.legal_actions())
            line.append(action)
            ours.apply_action(action)
            theirs.apply_action(action)
        assert ours.returns() == list(theirs.returns()), f"{config} game {number}: {line}"
        key = tuple(ours.returns())
        ends[key] = ends.get(key, 0) + 1
    # The sample reaches both players' wins (and draws, where the game has them often).
    assert len(ends) >= 2 or GAMES < 10, ends
