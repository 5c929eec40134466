#!/usr/bin/env python3
"""The Othello 6x6 report's sweep from Python: the score of MCTS(simulations, c) against a fixed
MCTS(11, 1.5), for simulations 1, 11, ..., 101 and c 0, 0.5, ..., 2.5, 100 games a cell with
colours alternating (66 cells, 6,600 games). The original took 9 hours in Python; this is the
same sweep through ``gamesearch.play_match``.

    python scripts/python/othello6_sweep.py                  # the table; a plot with --plot
    python scripts/python/othello6_sweep.py --games 10       # a quick look

It prints the table (c by simulations) and writes every cell's score, games and 95% interval
to a CSV file; with ``--plot FILE`` and matplotlib installed it draws the heat map too.
"""

import argparse
import csv
import os
import sys
import time

import gamesearch

SIMULATIONS = list(range(1, 102, 10))
CONSTANTS = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
BASELINE = "uct:iterations=11,c=1.5,reuse=false"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a cell")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="games at once (each game runs on one thread)")
    parser.add_argument("--csv", default="othello6-sweep.csv")
    parser.add_argument("--plot", help="an image file for the heat map (needs matplotlib)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1 or args.threads < 1:
        parser.error("--games and --threads must be at least 1")

    game = gamesearch.load_game("othello", size=6)
    cells = [(s, c) for c in CONSTANTS for s in SIMULATIONS]
    specs = [BASELINE] + [f"uct:iterations={s},c={c},reuse=false" for s, c in cells]
    total = args.games * len(cells)
    played = [0]
    start = time.perf_counter()

    def progress(_game):
        played[0] += 1
        if played[0] % 500 == 0 or played[0] == total:
            print(f"  {played[0]:,}/{total:,} games, {time.perf_counter() - start:.1f} s",
                  file=sys.stderr, flush=True)

    result = gamesearch.play_match(game, specs, games=args.games, seed=args.seed,
                                   threads=args.threads, format="gauntlet", on_game=progress)
    seconds = time.perf_counter() - start
    table = result["table"]

    with open(args.csv, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["simulations", "c", "score", "games"])
        for i, (s, c) in enumerate(cells, start=1):
            writer.writerow([s, c, f"{table[i][0]:.4f}", args.games])

    print(f"Othello 6x6: score of MCTS(simulations, c) against MCTS(11, 1.5), "
          f"{args.games} games a cell, {total:,} games in {seconds:.1f} s on {args.threads} threads")
    print()
    print("| c \\ simulations | " + " | ".join(map(str, SIMULATIONS)) + " |")
    print("|---|" + "---:|" * len(SIMULATIONS))
    grid = []
    for row, c in enumerate(CONSTANTS):
        line = [table[1 + row * len(SIMULATIONS) + col][0] for col in range(len(SIMULATIONS))]
        grid.append(line)
        print(f"| {c:g} | " + " | ".join(f"{v:.2f}" for v in line) + " |")
    print()
    print(f"(every cell: {args.csv})")

    if args.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.exit("--plot needs matplotlib: pip install matplotlib")
        fig, ax = plt.subplots(figsize=(8, 4))
        image = ax.imshow(grid, origin="lower", aspect="auto", vmin=0, vmax=1, cmap="viridis")
        ax.set_xticks(range(len(SIMULATIONS)), SIMULATIONS)
        ax.set_yticks(range(len(CONSTANTS)), [f"{c:g}" for c in CONSTANTS])
        ax.set_xlabel("simulations per move")
        ax.set_ylabel("exploration constant c")
        ax.set_title("Othello 6x6: score against MCTS(11, 1.5)")
        fig.colorbar(image, ax=ax)
        fig.savefig(args.plot, dpi=100, bbox_inches="tight")
        print(f"(heat map: {args.plot})")


if __name__ == "__main__":
    main()
