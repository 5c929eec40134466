#!/usr/bin/env python3
"""Hex against MoHex 2.0: a match that survives MoHex's crashes, where the lost games were lost,
and how often an engine finds the winning moves it missed.

  scripts/hex-mohex.py match  --engine 'target/release/examples/gtp --game hex --size 9 --agent best:time=1s,threads=1' \\
                              --mohex /tmp/benzene/build/src/mohex/mohex --out DIR
  scripts/hex-mohex.py losses --mohex /tmp/benzene/build/src/mohex/mohex DIR
  scripts/hex-mohex.py probe  --engine 'target/release/examples/gtp --game hex --size 9 --agent best:time=1s,threads=1' \\
                              DIR/positions.txt

match: each opening (a single Black stone) is played twice, colours swapped, our engine against
MoHex at --time seconds a move. A game ends when a player connects or resigns, or when MoHex gives
no move: it declines once its fill-in decides the game, and dies in some positions it has proven
lost; its solver (--limit seconds, in a fresh process) then names the winner, and the record says
so ("ended"). A game that fails otherwise is tried again up to --tries times. Each finished opening
is kept in DIR/<cell>.json (as twogtp writes its records), so the same command continues an
interrupted match. Prints the score with a Wilson interval.

losses: for each lost game in DIR, walks back from its end with MoHex's DFPN solver to the last
position where our engine was to move and proven winning: the ply where the game was lost, the
move played, and the winning moves it had. Those positions go to DIR/positions.txt.

probe: plays each position of such a file with --seeds seeds and counts winning moves: a quick
yardstick for a change, on the very positions where the engine lost to MoHex. With --lost FILE,
the positions after the moves it played outside the winning ones go to FILE (in the same format,
no winning moves: wins for the player to move, bar a winning move MoHex's list left out), for
`solvers`.

solvers: MoHex's df-pn solver (`dfpn-solve-state`, a fresh process a position) and ours (the
hex_solve example's --positions mode) on the same positions, each at most --limit seconds a
position: who wins, how fast, and how many each proves:

  scripts/hex-mohex.py solvers --mohex /tmp/benzene/build/src/mohex/mohex --limit 1 \
                               scripts/data/hex-9x9-missed-wins.txt

summary: the records of several matches (runs of the same engine with different seeds) one
line each, then together with a Wilson interval, each opening's score by our engine's colour,
and each side's mean time a move:

  scripts/hex-mohex.py summary /tmp/runs/best-1 /tmp/runs/best-2 /tmp/runs/best-3

vcs: at every position of those games, what our H-search (the hex_proven example) and MoHex's
virtual connection builder prove for the player to move (won, lost, threatened: the opponent
has semi-connections, so a must-play region), and the first ply of each game that each decides:

  scripts/hex-mohex.py vcs --mohex /tmp/benzene/build/src/mohex/mohex /tmp/runs/best-1

games: MoHex against itself from random openings, one line of moves per game as
`hex_patterns train` reads them (appended as each game ends; the same command continues):

  scripts/hex-mohex.py games --mohex /tmp/benzene/build/src/mohex/mohex --games 400 --seed 1 --out mohex-9.txt

Build MoHex with ../shared/tools/mohex/ (see its README).
"""
import argparse, json, math, os, re, shlex, subprocess, sys, time

OPENINGS = {9: "a1 a3 a5 a7 a9 b1 c1 e1 g1 i1", 11: "a1 a3 a6 a9 a11 b1 d1 f1 h1 k1"}


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play(a, cell, ours):
    """One game from Black's stone on `cell`, our engine playing `ours` ('b' or 'w'): a record
    as twogtp writes it. A game ends when a player connects, resigns, or MoHex gives no move:
    it declines once its fill-in decides the game and dies in some positions it has proven
    lost; MoHex's solver, in a fresh process, then says who wins."""
    size = a.size
    us, them = Gtp(a.engine), Gtp(f"{a.mohex} --use-logfile=false")
    try:
        for g in (us, them):
            g.send(f"boardsize {size} {size}")
            g.send("clear_board")
        them.send(f"param_mohex max_time {a.time}")
        them.send("param_mohex perform_pre_search 0")
        moves, stones, won, ended = [], {}, None, "connected"
        # Each side's wall time of each genmove, so that a record shows whether the time was
        # equal. MoHex's includes about 0.4 s a move outside its search (its log: `Elapsed
        # Time` against the search's `Time`), and its search runs past --time when unstable.
        seconds = {"ours": [], "mohex": []}

        def place(colour, move, tell):
            for g in tell:
                g.send(f"play {colour} {move}")
            stones[coord(move)] = colour
            moves.append(f"{colour}:{move}")

        place("b", cell, (us, them))
        while won is None:
            colour = "bw"[len(moves) % 2]
            mover, other = (us, them) if colour == ours else (them, us)
            started = time.monotonic()
            try:
                move = mover.send(f"genmove {colour}").lower()
                seconds["ours" if mover is us else "mohex"].append(round(time.monotonic() - started, 3))
            except RuntimeError:
                if mover is us:
                    raise
                them.close()
                them, move = None, "died"
            if move == "resign":
                won, ended = "bw"[colour == "b"], "resigned"
            elif re.fullmatch(r"[a-z][0-9]+", move):
                place(colour, move, (other,))
                won = winner(size, stones)
            else:
                solved, _, _ = solve(a.mohex, size, moves, colour, a.limit)
                if not solved:
                    raise RuntimeError(f"MoHex gave no move ({move}) and its solver no winner")
                how = "died" if move == "died" else "gave no move"
                won, ended = solved[0], f"MoHex {how}; its solver"
        return {"a_color": ours, "winner": won, "score_a": 1.0 if won == ours else 0.0,
                "plies": len(moves), "ended": ended, "moves": moves, "seconds": seconds}
    finally:
        us.close()
        if them is not None:
            them.close()


def match(a):
    os.makedirs(a.out, exist_ok=True)
    openings = (a.openings or OPENINGS.get(a.size, "")).split()
    if not openings:
        sys.exit(f"hex-mohex: no default openings for size {a.size}: give --openings")
    for cell in openings:
        record = os.path.join(a.out, f"{cell}.json")
        if os.path.exists(record):
            continue
        games = []
        for ours in "bw":
            for attempt in range(1, a.tries + 1):
                try:
                    games.append(play(a, cell, ours))
                    break
                except RuntimeError as e:
                    print(f"{cell}, ours {ours}: attempt {attempt} failed ({e})", file=sys.stderr)
        if len(games) == 2:
            with open(record + ".part", "w") as f:
                json.dump({"args": {"boardsize": f"{a.size} {a.size}", "engine": a.engine,
                                    "time": a.time}, "games": games}, f)
            os.replace(record + ".part", record)
            print(f"{cell}: " + ", ".join(f"as {g['a_color']} {'won' if g['score_a'] == 1 else 'lost'} "
                                          f"in {g['plies']} plies ({g['ended']})" for g in games), flush=True)
    summary(a.out, openings)


def records(directory, openings=None):
    """The games of a match directory, as (opening, game) pairs, and the openings of `openings`
    not finished there; every finished opening when `openings` is None."""
    if openings is None:
        openings = sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".json"))
    found, missing = [], []
    for cell in openings:
        record = os.path.join(directory, f"{cell}.json")
        if not os.path.exists(record):
            missing.append(cell)
            continue
        try:
            with open(record) as f:
                games = json.load(f)["games"]
        except (ValueError, KeyError, TypeError):
            sys.exit(f"hex-mohex: {record}: not a match record")
        found += [(cell, g) for g in games]
    return found, missing


def score_line(games):
    won = sum(g["score_a"] for _, g in games)
    lo, hi = wilson(won, len(games))
    return (f"{won:g}-{len(games) - won:g} in {len(games)} games: {100 * won / max(1, len(games)):.1f}% "
            f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%)")


def print_times(games):
    # Mean wall time of the moves each side searched (MoHex answers decided positions at once).
    spent = {"ours": [], "mohex": []}
    for _, g in games:
        for side, times in g.get("seconds", {}).items():
            spent[side] += [t for t in times if t >= 0.05]
    if spent["ours"] and spent["mohex"]:
        mean = {side: sum(t) / len(t) for side, t in spent.items()}
        print(f"wall time a searched move: our engine {mean['ours']:.2f} s, MoHex {mean['mohex']:.2f} s "
              "(MoHex's includes about 0.4 s a move outside its search)")


def summary(directory, openings):
    games, missing = records(directory, openings)
    print(score_line(games) + (f"; not finished: {' '.join(missing)}" if missing else ""))
    print_times(games)


def pooled(a):
    """`summary`: the runs of several match directories, one line each, then all of them together
    with each opening's score by our engine's colour."""
    everything = []
    for directory in a.dirs:
        if not os.path.isdir(directory):
            print(f"hex-mohex: {directory}: not a directory, left out", file=sys.stderr)
            continue
        games, _ = records(directory)
        print(f"{directory}: {score_line(games)}")
        everything += games
    if not everything:
        sys.exit("hex-mohex: no finished games in those directories")
    print(f"together: {score_line(everything)}")
    cells = {cell for cell, _ in everything}
    # In the order of the board's default openings when they are those, else alphabetical.
    order = next((o.split() for o in OPENINGS.values() if cells <= set(o.split())), sorted(cells))
    cells = [cell for cell in order if cell in cells]
    for colour, name in (("b", "as Black"), ("w", "as White")):
        scores = []
        for cell in cells:
            mine = [g for c, g in everything if c == cell and g["a_color"] == colour]
            scores.append(f"{cell} {sum(g['score_a'] for g in mine):g}/{len(mine)}")
        print(f"{name}: " + ", ".join(scores))
    print_times(everything)


class Gtp:
    def __init__(self, command):
        argv = shlex.split(command)
        # It runs in /tmp (where MoHex writes its files): a program given relative to here
        # is found from here.
        if os.path.exists(argv[0]):
            argv[0] = os.path.abspath(argv[0])
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=open(os.environ.get("GTP_STDERR", os.devnull), "a"), text=True, cwd="/tmp")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError(f"engine died after {line!r}")
            if l.strip() == "":
                if out:
                    break
                continue
            out.append(l.strip())
        return " ".join(out)[1:].strip()

    def close(self):
        self.p.kill()


def solve(mohex, size, moves, colour, limit, init=(), winning=True):
    """The winner MoHex's solver finds ('black', 'white', or '' when out of time), with `colour`
    to move after `moves` and the GTP commands `init` sent first; if it is `colour` and
    `winning`, the winning moves; and the seconds the proof took."""
    g = Gtp(f"{mohex} --use-logfile=false")
    try:
        g.send(f"boardsize {size} {size}")
        g.send(f"param_dfpn timelimit {limit}")
        for command in init:
            g.send(command)
        for m in moves:
            c, x = m.split(":")
            g.send(f"play {c} {x}")
        start = time.time()
        winner = g.send(f"dfpn-solve-state {colour}")
        seconds = time.time() - start
        winner = winner if winner in ("black", "white") else ""
        wins = []
        if winner == colour and winning:
            wins = g.send(f"dfpn-solver-find-winning {colour}").split()
        return winner, wins, seconds
    finally:
        g.close()


def losses(a):
    found = []
    for name in sorted(os.listdir(a.dir)):
        if not name.endswith(".json"):
            continue
        record = json.load(open(os.path.join(a.dir, name)))
        size = int(record["args"]["boardsize"].split()[0])
        for g in record["games"]:
            if g["score_a"] == 1:
                continue
            ours = g["a_color"]
            colour = "black" if ours == "b" else "white"
            moves = g["moves"]
            where = f"{name[:-5]}, our engine {colour}, {len(moves)} plies"
            verdict = "lost from every position solved"
            for k in range(len(moves) - 1, -1, -1):
                if not moves[k].startswith(ours + ":"):
                    continue
                winner, wins, _ = solve(a.mohex, size, moves[:k], colour, a.limit)
                if winner == colour:
                    verdict = f"lost at ply {k + 1}: played {moves[k][2:]}, winning were {' '.join(wins)}"
                    found.append(" ".join(moves[:k]) + " | " + " ".join(wins))
                    break
                if not winner:
                    verdict = f"lost by ply {k + 2} at the latest (ply {k + 1} not solved in {a.limit:g} s)"
                    break
            print(f"{where}: {verdict}", flush=True)
    out = os.path.join(a.dir, "positions.txt")
    with open(out, "w") as f:
        f.write("".join(line + "\n" for line in found))
    print(f"{len(found)} positions where a winning move was missed: {out}")


def probe(a):
    total = hits = 0
    lost = []
    for moves, wins in read_positions(a.positions):
        to_move = "w" if len(moves) % 2 else "b"
        size = int(a.size)
        played = []
        for seed in range(1, a.seeds + 1):
            g = Gtp(f"{a.engine} --seed {seed}")
            try:
                g.send(f"boardsize {size} {size}")
                g.send("clear_board")
                for command in a.init:
                    g.send(command)
                for m in moves:
                    c, x = m.split(":")
                    g.send(f"play {c} {x}")
                move = g.send(f"genmove {to_move}").lower()
            finally:
                g.close()
            played.append(move)
            total += 1
            hits += move in wins
        print(f"after {len(moves)} plies (winning: {' '.join(sorted(wins))}): played {' '.join(played)}", flush=True)
        for move in sorted(set(played) - wins):
            lost.append(f"{' '.join(moves)} {to_move}:{move} |")
    print(f"{hits} of {total} moves winning")
    if a.lost:
        with open(a.lost, "w") as f:
            f.write(f"# Hex {a.size}x{a.size}: the positions after each move `probe` played outside the winning moves\n"
                    f"# of {a.positions}: wins for the player to move, unless the move was a winning one that\n"
                    "# MoHex's solver left off its list (an inferior cell, say). MOVES |\n")
            f.writelines(line + "\n" for line in lost)


def read_positions(path):
    """The positions of a file that `losses` or `probe --lost` wrote: each its moves
    ('b:e5 w:d6 ...') and the set of its winning moves (empty when the file gives none)."""
    found = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            moves, wins = line.split("|")
            found.append((moves.split(), set(wins.split())))
    return found


def solvers(a):
    positions = [moves for moves, _ in read_positions(a.positions)]
    try:
        run = subprocess.run(shlex.split(a.engine) + ["--size", str(a.size), "--positions", "--time", str(a.limit)],
                             input="".join(" ".join(m.split(":")[1] for m in moves) + "\n" for moves in positions),
                             capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"error: {a.engine}: {error} (cargo build --release --example hex_solve)")
    if run.returncode != 0:
        sys.exit(f"error: {a.engine} failed: {run.stderr.strip()}")
    ours = run.stdout.split("\n")
    proved = {"MoHex": 0, "ours": 0}
    print("plies  MoHex's solver       ours")
    for moves, answer in zip(positions, ours):
        colour = "white" if len(moves) % 2 else "black"
        winner, _, seconds = solve(a.mohex, a.size, moves, colour, a.limit, a.init, winning=False)
        theirs = "unknown" if not winner else "win" if winner == colour else "loss"
        result, move, our_seconds, _ = answer.split()
        proved["MoHex"] += theirs != "unknown"
        proved["ours"] += result in ("win", "loss")
        print(f"{len(moves):5}  {theirs:7} {seconds:5.2f} s    {result:7} {float(our_seconds):5.2f} s {move}", flush=True)
    print(f"proved within {a.limit:g} s: MoHex {proved['MoHex']} of {len(positions)}, ours {proved['ours']}")


def coord(move):
    """A cell's (column, row) from 0, for a move such as 'c7'."""
    return ord(move[0]) - 97, int(move[1:]) - 1


def winner(size, stones):
    """'b' or 'w' when that player's stones join its edges (Black rows 1 and `size`, White
    columns a and the last), else None."""
    for colour, start, end in (("b", lambda c, r: r == 0, lambda c, r: r == size - 1),
                               ("w", lambda c, r: c == 0, lambda c, r: c == size - 1)):
        mine = {cell for cell, who in stones.items() if who == colour}
        todo = [cell for cell in mine if start(*cell)]
        seen = set(todo)
        while todo:
            c, r = todo.pop()
            if end(c, r):
                return colour
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                n = (c + dc, r + dr)
                if n in mine and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return None


def games(a):
    import random
    done = sum(1 for _ in open(a.out)) if os.path.exists(a.out) else 0
    cells = [f"{chr(97 + c)}{r + 1}" for c in range(a.size) for r in range(a.size)]
    for k in range(done, a.games):
        rng = random.Random(a.seed * 1_000_003 + k)
        g = Gtp(f"{a.mohex} --use-logfile=false --seed {a.seed * 1_000_003 + k}")
        try:
            g.send(f"boardsize {a.size} {a.size}")
            g.send(f"param_mohex max_games {a.playouts}")
            g.send("param_mohex perform_pre_search 0")
            # Every move a fresh search of --playouts playouts (a kept tree would count its
            # earlier games towards max_games).
            g.send("param_mohex reuse_subtree 0")
            g.send("param_mohex max_memory 100000000")  # enough for these searches, and quick to clear
            stones, moves = {}, []
            while len(moves) < a.size * a.size:
                colour = "bw"[len(moves) % 2]
                if len(moves) < a.random_plies:
                    move = rng.choice([c for c in cells if coord(c) not in stones])
                    g.send(f"play {colour} {move}")
                else:
                    move = g.send(f"genmove {colour}").lower()
                    if not re.fullmatch(r"[a-z][0-9]+", move):
                        break  # resign, or MoHex's fill-in has decided the game
                stones[coord(move)] = colour
                moves.append(move)
                if winner(a.size, stones):
                    break
        except RuntimeError as e:
            # MoHex dies in positions its fill-in has decided (no move left to search): the
            # moves so far stand, and the rest would teach nothing.
            print(f"game {k + 1}: {e}; kept up to there", flush=True)
        finally:
            g.close()
        with open(a.out, "a") as f:
            f.write(" ".join(moves) + "\n")
        print(f"game {k + 1} of {a.games}: {len(moves)} plies", flush=True)


EDGES = {"b": "north south", "w": "east west"}


def vcs(a):
    """`vcs`: at every position of the recorded games, what our H-search (`hex_proven`) and
    MoHex's virtual connections (`vc-build`) prove for the player to move: won (a semi- or full
    connection between its edges), lost (a full one between the opponent's), threatened
    (neither, but the opponent has semi-connections between its edges: a must-play region), or
    none of these; then the first ply of each game that each decides (won or lost)."""
    games = []
    for directory in a.dirs:
        found, _ = records(directory)
        games += [[m.split(":")[1] for m in g["moves"]] for _, g in found]
    if not games:
        sys.exit("hex-mohex: no finished games in those directories")
    ours = subprocess.Popen([os.path.abspath(a.proven), "--size", str(a.size)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    mohex = Gtp(f"{a.mohex} --use-logfile=false")
    mohex.send(f"boardsize {a.size} {a.size}")
    for command in a.init:
        mohex.send(command)
    # neither, ours only, MoHex's only, both
    both = {"won": [0, 0, 0, 0], "lost": [0, 0, 0, 0], "threatened": [0, 0, 0, 0]}
    first = []  # (ours, MoHex's) first deciding ply, for games both decide
    for number, moves in enumerate(games):
        mohex.send("clear_board")
        decided = [None, None]
        for ply in range(len(moves)):
            if ply:
                mohex.send(f"play {'b' if ply % 2 == 1 else 'w'} {moves[ply - 1]}")
            ours.stdin.write(" ".join(moves[:ply]) + "\n")
            ours.stdin.flush()
            verdict = ours.stdout.readline().split()
            if not verdict or verdict[0] == "over":
                break
            mover = "b" if ply % 2 == 0 else "w"
            other = "w" if mover == "b" else "b"
            mohex.send(f"vc-build {mover}")
            theirs = {
                "won": "full" in mohex.send(f"vc-between-cells-full {mover} {EDGES[mover]}")
                       or "semi" in mohex.send(f"vc-between-cells-semi {mover} {EDGES[mover]}"),
                "lost": "full" in mohex.send(f"vc-between-cells-full {other} {EDGES[other]}"),
            }
            # Threatened: neither, but the opponent has semi-connections (a must-play region).
            theirs["threatened"] = not (theirs["won"] or theirs["lost"]) \
                and "semi" in mohex.send(f"vc-between-cells-semi {other} {EDGES[other]}")
            ours_says = "threatened" if verdict[0] == "open" and int(verdict[2]) > 0 else verdict[0]
            for kind in both:
                both[kind][(ours_says == kind) + 2 * theirs[kind]] += 1
            for side, says in enumerate((verdict[0] in ("won", "lost"), theirs["won"] or theirs["lost"])):
                if says and decided[side] is None:
                    decided[side] = ply
        if None not in decided:
            first.append(decided)
        if (number + 1) % 10 == 0:
            print(f"{number + 1} of {len(games)} games", file=sys.stderr)
    mohex.close()
    ours.kill()
    for kind, (neither, mine, theirs_only, agreed) in both.items():
        print(f"{kind} for the player to move: both {agreed}, ours only {mine}, MoHex's only {theirs_only}, "
              f"neither {neither} (positions)")
    if first:
        mean = [sum(f[side] for f in first) / len(first) for side in (0, 1)]
        print(f"first deciding ply, {len(first)} games both decide: ours {mean[0]:.2f}, MoHex's {mean[1]:.2f}; "
              f"MoHex's first in {sum(o > m for o, m in first)}, ours in {sum(o < m for o, m in first)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="our engine against MoHex, each opening with both colours")
    m.add_argument("--engine", required=True, help="our GTP engine's command line")
    m.add_argument("--mohex", required=True, help="MoHex's binary")
    m.add_argument("--size", type=int, default=9)
    m.add_argument("--time", type=float, default=1.0, help="MoHex's seconds a move (default 1)")
    m.add_argument("--openings", help="Black's first stones, space separated (default: ten edge cells)")
    m.add_argument("--tries", type=int, default=3)
    m.add_argument("--limit", type=float, default=30, help="seconds of MoHex's solver to end a game it gave up")
    m.add_argument("--out", required=True, help="directory of the records (kept; rerun to continue)")
    l = sub.add_parser("losses", help="where the lost games of a match were lost")
    l.add_argument("--mohex", required=True)
    l.add_argument("--limit", type=float, default=10, help="seconds of MoHex's solver a position")
    l.add_argument("dir")
    p = sub.add_parser("probe", help="how often an engine plays a winning move in those positions")
    p.add_argument("--engine", required=True)
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--init", action="append", default=[],
                   help="a GTP command sent before the position (repeatable), such as MoHex's "
                        "'param_mohex max_time 1'")
    p.add_argument("--lost", help="a file for the positions after the moves played outside the winning ones")
    p.add_argument("positions")
    o = sub.add_parser("solvers", help="MoHex's solver and ours on the same positions")
    o.add_argument("--mohex", required=True)
    o.add_argument("--engine", default="target/release/examples/hex_solve",
                   help="the hex_solve example's binary (cargo build --release --example hex_solve)")
    o.add_argument("--size", type=int, default=9)
    o.add_argument("--limit", type=float, default=1.0, help="seconds a position for each solver")
    o.add_argument("--init", action="append", default=[],
                   help="a GTP command sent to MoHex first (repeatable), such as 'param_solver_vc use_patterns 0'")
    o.add_argument("positions")
    t = sub.add_parser("summary", help="several matches' records together, by opening and colour")
    t.add_argument("dirs", nargs="+", help="directories that `match` wrote")
    s = sub.add_parser("games", help="MoHex against itself from random openings, for training")
    s.add_argument("--mohex", required=True)
    s.add_argument("--size", type=int, default=9)
    s.add_argument("--games", type=int, default=400, help="how many games the file should hold")
    s.add_argument("--playouts", type=int, default=4000, help="MoHex's playouts a move (default 4000)")
    s.add_argument("--random-plies", type=int, default=2, help="plies played at random first")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", required=True, help="the file of games (appended to; rerun to continue)")
    v = sub.add_parser("vcs", help="what our H-search and MoHex's virtual connections prove, on recorded games")
    v.add_argument("--mohex", required=True)
    v.add_argument("--proven", default="target/release/examples/hex_proven",
                   help="the hex_proven example's binary (cargo build --release --example hex_proven)")
    v.add_argument("--size", type=int, default=9)
    v.add_argument("--init", action="append", default=[],
                   help="a GTP command sent to MoHex first (repeatable), such as 'param_player_vc use_patterns 0'")
    v.add_argument("dirs", nargs="+", help="directories that `match` wrote")
    a = ap.parse_args()
    {"match": match, "losses": losses, "probe": probe, "summary": pooled, "games": games,
     "vcs": vcs, "solvers": solvers}[a.command](a)


if __name__ == "__main__":
    main()
