#!/usr/bin/env python3
"""Speed of the Python package, measured in one process with alternating runs (docs/python.md):

1. random games driven move by move through the Python API, gamesearch against OpenSpiel
   (``pip install open_spiel==2.0.2``), as a ratio;
2. the binding's overhead on ``agent.step`` at a fixed number of iterations: the wall time of
   the call from Python against the search's own time, measured inside Rust;
3. the cost of a call of a Python evaluator: the batched search with a numpy evaluator of
   uniform priors and even values, against the same search with the Rust evaluator that gives
   the same answers (``evaluator="uniform"``).

    python scripts/python/speed.py            # about two minutes
    python scripts/python/speed.py --quick    # a few seconds, to see that it runs
"""

import argparse
import random
import statistics
import time

import numpy as np

import gamesearch

try:
    import pyspiel
except ImportError:  # the playout comparison is skipped
    pyspiel = None

# Our game, OpenSpiel's.
GAMES = [
    ("hex 11x11", ("hex", {"size": 11}), ("hex", {"board_size": 11})),
    ("othello 8x8", ("othello", {}), ("othello", {})),
    ("connect4 7x6", ("connect4", {}), ("connect_four", {})),
    ("tictactoe", ("tictactoe", {}), ("tic_tac_toe", {})),
]


def random_games(game, seconds, seed):
    """Random games from the start for `seconds`, move by move from Python: games per second."""
    rng = random.Random(seed)
    choice = rng.choice
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - start)


def playouts(rounds, seconds):
    print("## Random games through the Python API (games per second, median of rounds)")
    print()
    print("| game | gamesearch | OpenSpiel 2.0.2 | ratio |")
    print("|---|---:|---:|---:|")
    for label, (name, params), (os_name, os_params) in GAMES:
        ours_game = gamesearch.load_game(name, **params)
        theirs_game = pyspiel.load_game(os_name, os_params)
        ours, theirs = [], []
        for r in range(rounds):
            ours.append(random_games(ours_game, seconds, r))
            theirs.append(random_games(theirs_game, seconds, r))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"| {label} | {a:,.0f} | {b:,.0f} | {a / b:.2f}x |")
    print()


def overhead(rounds, budgets):
    print("## agent.step at fixed iterations: wall time from Python against the search's time "
          "inside Rust")
    print()
    print("| game | spec | search (ms) | step from Python (ms) | overhead |")
    print("|---|---|---:|---:|---:|")
    for label, (name, params), _ in GAMES[:3]:
        game = gamesearch.load_game(name, **params)
        state = game.new_initial_state()
        # One thread: the same search as from Rust, reproducible.
        specs = [f"uct:iterations={n},threads=1" for n in budgets]
        specs.append(f"best:iterations={budgets[-2]},threads=1")
        for spec in specs:
            walls, inside = [], []
            for r in range(rounds):
                agent = gamesearch.Agent(game, spec, seed=r)
                start = time.perf_counter()
                agent.step(state)
                walls.append(time.perf_counter() - start)
                inside.append(agent.last_report.seconds)
            wall, search = sum(walls), sum(inside)
            print(f"| {label} | `{spec}` | {1000 * search / rounds:.2f} | "
                  f"{1000 * wall / rounds:.2f} | {100 * (wall / search - 1):+.1f}% |")
    print()


def evaluator_cost(rounds, iterations, batch):
    print(f"## A Python evaluator's call ({iterations:,} iterations, batches of {batch})")
    print()
    print("| game | Rust evaluator (ms) | numpy evaluator (ms) | calls | cost per call (µs) |"
          " per position (µs) |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, (name, params), _ in GAMES[:3]:
        game = gamesearch.load_game(name, **params)
        state = game.new_initial_state()
        calls = [0, 0]

        def uniform(observations, legal):
            calls[0] += 1
            calls[1] += len(legal)
            return legal.astype(np.float32), np.zeros(len(legal), dtype=np.float32)

        spec = f"uct:iterations={iterations}"
        times = {"rust": 0.0, "python": 0.0}
        for r in range(rounds):
            for kind, evaluator in [("rust", "uniform"), ("python", uniform)]:
                agent = gamesearch.Agent(game, spec, seed=r, evaluator=evaluator, batch=batch)
                start = time.perf_counter()
                agent.step(state)
                times[kind] += time.perf_counter() - start
        per_call = (times["python"] - times["rust"]) / calls[0]
        per_position = (times["python"] - times["rust"]) / calls[1]
        print(f"| {label} | {1000 * times['rust'] / rounds:.1f} | "
              f"{1000 * times['python'] / rounds:.1f} | {calls[0] // rounds:,} | "
              f"{1e6 * per_call:.1f} | {1e6 * per_position:.2f} |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny budgets, to check it runs")
    args = parser.parse_args()
    rounds, seconds = (1, 0.2) if args.quick else (5, 2.0)
    budgets = [100, 1000] if args.quick else [1000, 10_000, 100_000]
    print(f"gamesearch {gamesearch.__version__}"
          + (f", OpenSpiel {pyspiel.__version__}" if pyspiel and hasattr(pyspiel, "__version__")
             else ""))
    print()
    if pyspiel is None:
        print("(OpenSpiel is not installed: `pip install open_spiel==2.0.2` for the playouts)")
    else:
        playouts(rounds, seconds)
    overhead(rounds, budgets)
    evaluator_cost(rounds, budgets[-2], 16)


if __name__ == "__main__":
    main()
