#!/usr/bin/env python3
"""Our agent against OpenSpiel's MCTSBot at equal time, both driven from Python.

OpenSpiel's bot is its C++ ``pyspiel.MCTSBot`` (random rollouts, the MCTS-Solver on, ``uct_c``
2 as in OpenSpiel's examples) with a wall-clock limit per move; ours is ``gamesearch.Agent``
with the same time. One game at a time, colours alternating, every move checked by both
libraries (each plays the other's move on its own state). Each finished game is appended to a
CSV journal, and a run that is stopped and started again goes on from there.

    pip install open_spiel==2.0.2 ./crates/python
    python scripts/python/vs_openspiel.py --game hex --games 100          # about 17 minutes
    python scripts/python/vs_openspiel.py --game othello --games 100      # about 10 minutes
    python scripts/python/vs_openspiel.py --game connect4 --games 100     # about 6 minutes
"""

import argparse
import csv
import math
import os
import sys
import time

import gamesearch
import pyspiel

# Our game and OpenSpiel's.
GAMES = {
    "hex": (("hex", {"size": 11}), ("hex", {"board_size": 11})),
    "othello": (("othello", {}), ("othello", {})),
    "connect4": (("connect4", {}), ("connect_four", {})),
    "tictactoe": (("tictactoe", {}), ("tic_tac_toe", {})),
}

FIELDS = ["game", "ours_player", "ours_score", "plies", "ours_seconds", "theirs_seconds",
          "ours_moves", "theirs_moves", "moves"]


def wilson(score, n, z=1.96):
    """The 95% Wilson interval of a score of `score` out of `n`."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(number, args, ours_game, theirs_game):
    """Game `number`: ours is player 0 in even games, player 1 in odd ones."""
    ours_player = number % 2
    # One thread each, as OpenSpiel's bot searches.
    agent = gamesearch.Agent(ours_game, f"{args.spec}:time={args.time}s,threads=1",
                             seed=args.seed + number)
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed + number)
    bot = pyspiel.MCTSBot(theirs_game, evaluator, args.uct_c, 10**9, args.memory_mb, True,
                          args.seed + number, False, max_wall_clock_time=args.time)
    ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
    clock = [0.0, 0.0]
    moves = [0, 0]
    line = []
    while not ours.is_terminal():
        mover = ours.current_player()
        start = time.perf_counter()
        if mover == ours_player:
            action = agent.step(ours)
            side = 0
        else:
            action = bot.step(theirs)
            side = 1
        clock[side] += time.perf_counter() - start
        moves[side] += 1
        if action not in ours.legal_actions() or action not in theirs.legal_actions():
            sys.exit(f"game {number}: {action} is not legal in both libraries after {line}")
        ours.apply_action(action)
        theirs.apply_action(action)
        line.append(action)
    if not theirs.is_terminal() or list(theirs.returns()) != ours.returns():
        sys.exit(f"game {number}: the libraries disagree on the end after {line}")
    score = (ours.returns()[ours_player] + 1) / 2
    return {
        "game": number, "ours_player": ours_player, "ours_score": score, "plies": len(line),
        "ours_seconds": round(clock[0], 3), "theirs_seconds": round(clock[1], 3),
        "ours_moves": moves[0], "theirs_moves": moves[1],
        "moves": " ".join(map(str, line)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move, both sides")
    parser.add_argument("--spec", default="best", help="our agent, without its time")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--memory-mb", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", help="CSV of finished games (default runs/python-vs-openspiel/GAME.csv)")
    args = parser.parse_args()
    if args.games < 1 or not (0 < args.time <= 600):
        parser.error("--games must be at least 1 and --time between 0 and 600 seconds")
    (name, params), (os_name, os_params) = GAMES[args.game]
    ours_game = gamesearch.load_game(name, **params)
    theirs_game = pyspiel.load_game(os_name, os_params)
    journal = args.journal or os.path.join("runs", "python-vs-openspiel", f"{args.game}.csv")
    os.makedirs(os.path.dirname(journal) or ".", exist_ok=True)
    done = []
    if os.path.exists(journal):
        with open(journal, newline="") as f:
            done = list(csv.DictReader(f))
        print(f"{journal}: {len(done)} games already played; going on from there")
    with open(journal, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        if not done:
            writer.writeheader()
        for number in range(len(done), args.games):
            row = play(number, args, ours_game, theirs_game)
            writer.writerow(row)
            f.flush()
            done.append(row)
            score = sum(float(r["ours_score"]) for r in done)
            print(f"game {number + 1}/{args.games}: ours as player {row['ours_player']} "
                  f"scored {row['ours_score']} in {row['plies']} plies; "
                  f"total {score:g}/{len(done)}", flush=True)
    rows = done[: args.games]
    n = len(rows)
    score = sum(float(r["ours_score"]) for r in rows)
    low, high = wilson(score, n)
    ours_time = sum(float(r["ours_seconds"]) for r in rows) / max(1, sum(int(r["ours_moves"]) for r in rows))
    theirs_time = sum(float(r["theirs_seconds"]) for r in rows) / max(1, sum(int(r["theirs_moves"]) for r in rows))
    by_colour = [sum(float(r["ours_score"]) for r in rows if int(r["ours_player"]) == p) for p in (0, 1)]
    print(f"{args.game}: gamesearch {args.spec} against OpenSpiel MCTSBot (uct_c {args.uct_c}, "
          f"random rollouts, solver) at {args.time} s a move")
    print(f"  score {score:g}/{n} = {100 * score / n:.1f}% (95% Wilson {100 * low:.1f}-{100 * high:.1f}%)")
    print(f"  as player 0: {by_colour[0]:g}/{(n + 1) // 2}, as player 1: {by_colour[1]:g}/{n // 2}")
    print(f"  mean time a move: ours {1000 * ours_time:.1f} ms, OpenSpiel's {1000 * theirs_time:.1f} ms")


if __name__ == "__main__":
    main()
