"""A Python evaluator driving the batched search."""

import numpy as np
import pytest

import gamesearch


def uniform(observations, legal):
    assert observations.dtype == np.float32 and legal.dtype == np.bool_
    assert observations.shape[0] == legal.shape[0]
    return legal.astype(np.float32), np.zeros(len(legal))


def test_an_evaluator_drives_the_search():
    game = gamesearch.load_game("tictactoe")
    calls = []

    def counting(observations, legal):
        calls.append(len(legal))
        return uniform(observations, legal)

    agent = gamesearch.Agent(game, "uct:iterations=2000", seed=1, evaluator=counting, batch=8)
    state = game.new_state_from("a1 b2 b1")  # o must block at c1
    report = agent.analyse(state)
    assert report.text == "c1"
    assert calls and max(calls) <= 8 and sum(calls) <= 2000


def test_the_evaluator_sees_the_position_and_its_moves():
    game = gamesearch.load_game("connect4")
    state = game.new_state_from("1 1 1 1 1 1")  # column 1 is full
    seen = {}

    def look(observations, legal):
        seen.setdefault("first", (observations[0].copy(), legal[0].copy()))
        return uniform(observations, legal)

    gamesearch.Agent(game, "uct:iterations=1", evaluator=look, batch=1).step(state)
    observation, legal = seen["first"]
    assert (observation == state.observation_tensor()).all()
    assert list(np.flatnonzero(legal)) == state.legal_actions()


def test_a_value_network_guides_it():
    game = gamesearch.load_game("tictactoe")
    # A value that says o is lost whenever x holds the centre.
    def centre(observations, legal):
        # Lost for the player to move when the opponent (plane 1) holds b2.
        values = np.where(observations[:, 1, 1, 1] == 1, -1.0, 0.0)
        return legal.astype(np.float32), values
    agent = gamesearch.Agent(game, "uct:iterations=50", evaluator=centre, batch=1)
    assert agent.step(game.new_initial_state()) == 4  # b2


@pytest.mark.parametrize("bad, message", [
    (lambda o, l: (np.ones((len(l), 3)), np.zeros(len(l))), "shape"),
    (lambda o, l: (l.astype(float), np.full(len(l), np.nan)), "value NaN"),
    (lambda o, l: (np.where(l, np.nan, 0.0), np.zeros(len(l))), "prior NaN"),
    (lambda o, l: (-l.astype(float), np.zeros(len(l))), "at least 0"),
    (lambda o, l: (l.astype(float), np.full(len(l), 3.0)), "-1 to 1"),
    (lambda o, l: "nonsense", "return"),
])
def test_a_bad_evaluator_gets_a_clear_error_and_breaks_nothing(bad, message):
    game = gamesearch.load_game("tictactoe")
    state = game.new_initial_state()
    broken = {"on": True}

    def evaluator(observations, legal):
        if broken["on"]:
            return bad(observations, legal)
        return uniform(observations, legal)

    agent = gamesearch.Agent(game, "uct:iterations=500", evaluator=evaluator)
    with pytest.raises((ValueError, TypeError), match=message):
        agent.step(state)
    assert state.history() == []
    broken["on"] = False
    assert agent.step(state) in state.legal_actions()  # the agent works again


def test_an_exception_in_the_evaluator_reaches_the_caller():
    game = gamesearch.load_game("connect4")

    def failing(observations, legal):
        raise KeyError("the network is not loaded")

    agent = gamesearch.Agent(game, "uct:iterations=100", evaluator=failing)
    with pytest.raises(KeyError, match="not loaded"):
        agent.step(game.new_initial_state())


def test_an_evaluator_needs_a_plain_uct_spec():
    game = gamesearch.load_game("tictactoe")
    with pytest.raises(gamesearch.SpecError, match="evaluator"):
        gamesearch.Agent(game, "alphabeta", evaluator=uniform)
    with pytest.raises(TypeError, match="callable"):
        gamesearch.Agent(game, "uct", evaluator=42)
    with pytest.raises(ValueError, match="uniform"):
        gamesearch.Agent(game, "uct", evaluator="uniformly")


@pytest.mark.parametrize("name", ["connect4", "othello", "hex"])
def test_a_python_uniform_evaluator_searches_as_the_rust_one(name):
    # The same priors and values through Python and from Rust: the same search, visit for visit.
    game = gamesearch.load_game(name)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[len(state.history()) % len(state.legal_actions())])
    reports = []
    for evaluator in [uniform, "uniform"]:
        agent = gamesearch.Agent(game, "uct:iterations=600", seed=7, evaluator=evaluator, batch=8)
        reports.append(agent.analyse(state))
    python, rust = reports
    assert [(m.action, m.visits) for m in python.moves] == [(m.action, m.visits) for m in rust.moves]
    assert python.action == rust.action
