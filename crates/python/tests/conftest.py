import pytest

import gamesearch


@pytest.fixture(params=[
    ("hex", {"size": 5}),
    ("hex", {"size": 11, "swap": True}),
    ("othello", {}),
    ("othello", {"size": 6}),
    ("connect4", {}),
    ("connect4", {"rows": 5, "columns": 6}),
    ("tictactoe", {}),
], ids=lambda p: p[0] + "".join(f"-{k}{v}" for k, v in p[1].items()))
def any_game(request):
    name, parameters = request.param
    return gamesearch.load_game(name, **parameters)
