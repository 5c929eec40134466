"""Agents from spec strings, the solvers and matches."""

import pytest

import gamesearch


@pytest.mark.parametrize("spec", ["random", "best:iterations=200", "uct:iterations=100",
                                  "alphabeta:depth=2"])
def test_agents_play_legal_moves_to_the_end(any_game, spec):
    agents = [gamesearch.Agent(any_game, spec, seed=1), gamesearch.Agent(any_game, "random", seed=2)]
    state = any_game.new_initial_state()
    while not state.is_terminal():
        action = agents[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    with pytest.raises(ValueError, match="over"):
        agents[0].step(state)


@pytest.mark.parametrize("moves", [
    "2 2 3 3",  # x makes two threats on the bottom row (1 or 4; 5 lets o block)
    "4 4 5 5 3 1",  # x wins at once at 2 or 6
    "4 1 3 1",  # quieter: x must build on the bottom row
])
def test_best_finds_the_winning_move_in_connect_four(moves):
    game = gamesearch.load_game("connect4")
    state = game.new_state_from(moves)
    assert gamesearch.solve(state, time=30).result == "win"
    action = gamesearch.Agent(game, "best:iterations=20000", seed=3).step(state)
    after = state.clone()
    after.apply_action(action)
    assert after.is_terminal() or gamesearch.solve(after, time=30).result == "loss"


def test_report_and_tree_reuse():
    game = gamesearch.load_game("hex", size=7)
    agent = gamesearch.Agent(game, "uct:iterations=3000", seed=5)
    state = game.new_initial_state()
    report = agent.analyse(state)
    assert report.iterations == 3000 and report.root_visits >= 3000
    assert report.moves[0].visits >= report.moves[-1].visits
    assert report.principal_variation[0] == report.action
    assert 0.0 <= report.moves[0].win_rate <= 1.0
    assert agent.last_report.action == report.action
    state.apply_action(report.action)
    reply = report.principal_variation[1]
    state.apply_action(reply)
    again = agent.analyse(state)
    # The subtree under the expected line was kept.
    assert again.root_visits > again.iterations


def test_a_proven_result_is_reported():
    game = gamesearch.load_game("tictactoe")
    state = game.new_state_from("a1 b1 b2 c3")  # x wins: a3 or a2 make two threats
    report = gamesearch.Agent(game, "uct:iterations=5000,prove=true", seed=1).analyse(state)
    assert report.proven is not None and report.proven.result == "win"


def test_solvers():
    c4 = gamesearch.load_game("connect4").new_state_from("4 4 3 3 2")
    solution = gamesearch.solve(c4, time=10)
    assert solution.result == "loss" and solution.plies == 2
    othello = gamesearch.load_game("othello", size=6).new_initial_state()
    assert gamesearch.solve(othello, time=0.001) is None  # too little time
    tic = gamesearch.solve(gamesearch.load_game("tictactoe").new_initial_state(), time=10)
    assert tic.result == "draw"
    hex_state = gamesearch.load_game("hex", size=3).new_initial_state()
    solved = gamesearch.solve(hex_state, time=10)
    assert solved.result == "win"
    hex_state.apply_action(solved.action)
    assert gamesearch.solve(hex_state, time=10).result == "loss"
    with pytest.raises(ValueError, match="seconds"):
        gamesearch.solve(hex_state, time=-1)


def test_bad_specs_get_clear_errors():
    game = gamesearch.load_game("tictactoe")
    with pytest.raises(gamesearch.SpecError, match="unknown agent"):
        gamesearch.Agent(game, "alphazero")
    with pytest.raises(gamesearch.SpecError, match="lots"):
        gamesearch.Agent(game, "uct:c=lots")
    with pytest.raises(gamesearch.SpecError):
        gamesearch.Agent(game, "uct:prior=game")  # tic-tac-toe has no prior
    other = gamesearch.load_game("connect4").new_initial_state()
    with pytest.raises(TypeError, match="connect4"):
        gamesearch.Agent(game, "random").step(other)


def test_play_match_returns_plain_data():
    game = gamesearch.load_game("connect4")
    seen = []
    result = gamesearch.play_match(game, ["uct:iterations=300", "random"], games=6, seed=2,
                                   threads=2, on_game=seen.append)
    assert result["agents"] == ["uct:iterations=300", "random"]
    assert len(result["games"]) == 6 and len(seen) == 6 and result["complete"]
    assert [g["black"] for g in result["games"]] == [0, 1, 0, 1, 0, 1]
    uct = result["scores"][0]
    assert uct["games"] == 6 and uct["wins"] >= 5
    low, high = uct["interval95"]
    assert 0 <= low <= uct["rate"] <= high <= 1
    assert result["table"][0][1] == uct["rate"] and result["table"][0][0] is None
    # The same seed plays the same games.
    again = gamesearch.play_match(game, ["uct:iterations=300", "random"], games=6, seed=2)
    assert [g["plies"] for g in again["games"]] == [g["plies"] for g in result["games"]]
    openings = gamesearch.play_match(game, ["random", "random"], games=4,
                                     openings=["4 4", [2, 3]])
    assert [g["opening"] for g in openings["games"]] == [0, 0, 1, 1]
    with pytest.raises(gamesearch.SpecError):
        gamesearch.play_match(game, ["random", "nonsense"])
    with pytest.raises(ValueError, match="two agents"):
        gamesearch.play_match(game, ["random"])


def interrupt_after(seconds):
    import os
    import signal
    import threading

    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("work", ["step", "solve", "match"])
def test_ctrl_c_stops_a_long_search_at_once(work):
    import time

    game = gamesearch.load_game("hex", size=11)
    state = game.new_initial_state()
    agent = gamesearch.Agent(game, "uct:time=60s", seed=1)
    calls = {
        "step": lambda: agent.step(state),
        "solve": lambda: gamesearch.solve(state, time=60),
        "match": lambda: gamesearch.play_match(game, ["uct:time=60s", "uct:time=60s"]),
    }
    start = time.perf_counter()
    timer = interrupt_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            calls[work]()
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 5
    # Nothing is broken: searches run again.
    quick = gamesearch.Agent(game, "uct:iterations=200", seed=1)
    assert quick.step(state) in state.legal_actions()
