"""Games and states: the OpenSpiel-style API, perft against the Rust counts, bad input."""

import copy
import random

import numpy as np
import pytest

import gamesearch


def perft(state, depth):
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("name, parameters, depth, count", [
    # The counts the Rust crates' perft tests assert (published ones where there are).
    ("othello", {}, 5, 1396),
    ("othello", {}, 6, 8200),
    ("othello", {"size": 6}, 4, 244),
    ("connect4", {}, 6, 117649),
    ("tictactoe", {}, 9, 255168),
    ("hex", {"size": 4}, 3, 16 * 15 * 14),
    ("hex", {"size": 3, "swap": True}, 2, 9 * 9),
])
def test_perft_counts_equal_the_rust_ones(name, parameters, depth, count):
    game = gamesearch.load_game(name, **parameters)
    assert perft(game.new_initial_state(), depth) == count


def test_random_games_keep_the_rules(any_game):
    rng = random.Random(7)
    for _ in range(20):
        state = any_game.new_initial_state()
        seen = []
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            assert all(0 <= a < any_game.num_distinct_actions() for a in legal)
            assert state.current_player() == state.move_number() % 2
            action = rng.choice(legal)
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
            assert state.action_to_string(state.current_player(), action) == text
            before = state.clone()
            state.apply_action(action)
            seen.append(action)
            assert state.history() == seen
            undone = state.clone()
            undone.undo_action()
            assert str(undone) == str(before) and undone.history() == before.history()
        assert state.current_player() == gamesearch.TERMINAL
        assert state.legal_actions() == []
        returns = state.returns()
        assert returns[0] == -returns[1] and returns[0] in (-1.0, 0.0, 1.0)


def test_states_are_independent_copies():
    game = gamesearch.load_game("connect4")
    state = game.new_initial_state()
    other = state.clone()
    deep = copy.deepcopy(state)
    state.apply_action(3)
    assert other.history() == [] and deep.history() == []
    assert state.history_str() == ["4"]


def test_observation_tensor_holds_the_board():
    game = gamesearch.load_game("tictactoe")
    state = game.new_state_from("b2 a1")
    tensor = state.observation_tensor()
    assert tensor.dtype == np.float32 and tensor.shape == (3, 3, 3)
    assert list(tensor.shape) == game.observation_tensor_shape()
    # Player 0 (x) to move: plane 0 its mark at b2, plane 1 o's at a1, plane 2 the rest.
    assert tensor[0, 1, 1] == 1 and tensor[1, 0, 0] == 1 and tensor[2].sum() == 7
    assert (state.observation_tensor(1)[0] == tensor[1]).all()
    assert (tensor.sum(axis=0) == 1).all()


def test_numbering_and_notation():
    hex_game = gamesearch.load_game("hex", size=11, swap=True)
    state = hex_game.new_initial_state()
    assert state.string_to_action("a1") == 0
    assert state.string_to_action("k1") == 10
    assert state.string_to_action("a2") == 11
    state.apply_action("f6")
    assert 121 in state.legal_actions()  # the swap
    assert state.action_to_string(121) == "swap-pieces"
    othello = gamesearch.load_game("othello").new_initial_state()
    assert othello.legal_actions() == [19, 26, 37, 44]
    assert othello.action_to_string(64) == "pass"
    assert gamesearch.load_game("connect4").new_initial_state().legal_actions() == list(range(7))


def test_bad_input_gets_clear_errors():
    with pytest.raises(gamesearch.GameError, match="unknown game"):
        gamesearch.load_game("chess")
    with pytest.raises(gamesearch.GameError, match="unknown parameter"):
        gamesearch.load_game("othello", rows=3)
    with pytest.raises(gamesearch.GameError, match="8 or 6"):
        gamesearch.load_game("othello", size=7)
    with pytest.raises(gamesearch.GameError):
        gamesearch.load_game("hex", size=40)
    state = gamesearch.load_game("connect4", rows=2, columns=4).new_initial_state()
    state.apply_action(0)
    state.apply_action(0)
    with pytest.raises(gamesearch.IllegalActionError, match="not legal"):
        state.apply_action(0)  # the column is full
    with pytest.raises(gamesearch.IllegalActionError, match="full"):
        state.apply_action("1")
    with pytest.raises(gamesearch.IllegalActionError, match="not an action"):
        state.apply_action(99)
    with pytest.raises(gamesearch.IllegalActionError):
        state.apply_action("banana")
    with pytest.raises(TypeError):
        state.apply_action(1.5)
    assert state.history() == [0, 0]  # nothing was changed by the refusals
    empty = gamesearch.load_game("tictactoe").new_initial_state()
    with pytest.raises(ValueError, match="no move"):
        empty.undo_action()
    with pytest.raises(gamesearch.IllegalActionError, match="move 2"):
        gamesearch.load_game("tictactoe").new_state_from(["b2", "b2"])
