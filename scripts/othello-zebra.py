#!/usr/bin/env python3
"""Othello against Zebra: a match that keeps every finished game, checks every move and the
final score against its own rules, and sums up several runs.

  scripts/othello-zebra.py match   --engine 'target/release/examples/gtp --game othello --agent best:time=1s,threads=1' \\
                                   --zebra /tmp/zebra/zebra --depth 6 --exact 14 --wld 16 --out DIR
  scripts/othello-zebra.py summary DIR [DIR...]

match: each opening (a short line of moves from the start, 25 by default: the diagonal,
perpendicular and parallel openings and 4-ply lines of each) is played twice, colours swapped,
our GTP engine against Zebra (Gunnar Andersson's program; build it as docs/tools.md says,
with -fwrapv). Zebra searches --depth plies in the midgame, solves the game exactly
from --exact empty squares and for win/loss/draw from --wld; it runs afresh for each of its
moves (`-evalone`, book off, no randomness: it is deterministic, hence the openings). Every
move of both sides is checked against the rules here, passes included, and the final score
with our engine's `final_score` and with Zebra's count of the final position; a disagreement
is kept in the record and printed. Each finished game is kept at once in DIR/<opening>-<b|w>.json
(b or w: our engine's colour), so the same command continues an interrupted match (Ctrl-C stops
it; nothing finished is lost), and a DIR of other settings is refused. --games N stops once DIR
holds N games of the schedule (in order: the first opening with our engine Black, then White,
then the next opening). A game that fails (an engine dies, answers an illegal move) is tried
again up to --tries times. Prints each game and the summary.

--opponent CMD plays any other GTP engine in Zebra's place (our engine with another agent, say),
whose `final_score` is checked too.

summary: the records of one or more match directories (runs of the same engine), one line
each, then together: our engine's wins, draws and losses, its score (a draw is half) with a 95%
Wilson interval, by colour and by opening, the mean final disc difference (ours less Zebra's;
the empty squares of a game ended early go to the winner in the second figure, as in
tournaments), and each side's mean wall time a move. Each record's moves are replayed first:
one whose result does not follow from its moves is left out and named.
"""
import argparse, json, math, os, re, shlex, shutil, signal, subprocess, sys, tempfile, time

# The default openings, black first from the start (d4 and e5 White, d5 and e4 Black; row 1 at
# the top), from d3 as is usual: the diagonal (d3 c3), perpendicular (d3 c5) and parallel (d3 e3)
# openings, then the 4-ply positions within 2 discs of even for Zebra at depth 10: first the
# beginnings of Zebra's named openings (its openings.txt, written there from c4: the same lines
# mirrored in the a1-h8 diagonal), then the others, the closest first.
OPENINGS = [
    "d3 c3", "d3 c5", "d3 e3",
    "d3 c3 c4 e3",  # c4c3d3c5: the diagonal's main line (Heath, Cow, Buffalo, Rose-v-Toth...)
    "d3 c3 c4 c5",  # c4c3d3e3: Lysons
    "d3 c5 d6 e3",  # c4e3f4c5: Rose, Inoue, Shaman
    "d3 c5 e6 d2",  # c4e3f5b4: Ganglion / No-cat
    "d3 c5 e6 f5",  # c4e3f5e6: Italian, Cat
    "d3 c5 f6 f5",  # c4e3f6e6: Tiger
    "d3 c5 f6 d2",  # c4e3f6b4: Bent ganglion
    "d3 c5 c6 c3", "d3 e3 f3 c3", "d3 c3 f5 f4", "d3 e3 f3 c5", "d3 e3 f2 c2", "d3 c3 b3 c5",
    "d3 c3 e6 f6", "d3 c3 f5 f6", "d3 e3 f3 e2", "d3 e3 f6 c6", "d3 c3 e6 f4", "d3 c3 e6 d6",
    "d3 c5 e6 e3", "d3 c5 e6 f7", "d3 c5 b6 d2",
]

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class Board:
    """Othello's rules, independent of both engines: 8x8, row 1 at the top, Black first."""

    def __init__(self):
        self.cells = {(c, r): "." for c in range(8) for r in range(8)}
        self.cells[3, 3] = self.cells[4, 4] = "w"
        self.cells[4, 3] = self.cells[3, 4] = "b"
        self.turn = "b"

    def flips(self, square, me):
        if self.cells.get(square) != ".":
            return []
        other, out = "w" if me == "b" else "b", []
        for dc, dr in DIRS:
            c, r, line = square[0] + dc, square[1] + dr, []
            while self.cells.get((c, r)) == other:
                line.append((c, r))
                c, r = c + dc, r + dr
            if line and self.cells.get((c, r)) == me:
                out += line
        return out

    def legal(self, me=None):
        me = me or self.turn
        return sorted(name(s) for s in self.cells if self.flips(s, me))

    def play(self, move):
        """Plays `move` ('d3' or 'pass') for the side to move; ValueError if it is illegal."""
        me, legal = self.turn, self.legal()
        if move == "pass":
            if legal:
                raise ValueError(f"pass is illegal for {me} (legal: {' '.join(legal)})")
        elif move not in legal:
            raise ValueError(f"{move} is illegal for {me} (legal: {' '.join(legal) or 'pass'})")
        else:
            square = (ord(move[0]) - 97, int(move[1]) - 1)
            for s in self.flips(square, me) + [square]:
                self.cells[s] = me
        self.turn = "w" if me == "b" else "b"

    def over(self):
        return not self.legal("b") and not self.legal("w")

    def discs(self):
        values = list(self.cells.values())
        return {"b": values.count("b"), "w": values.count("w")}


def name(square):
    return f"{chr(97 + square[0])}{square[1] + 1}"


def replay(moves):
    """The board after `moves` ('b:d3', 'w:pass', ...), each checked; ValueError if one is
    illegal or out of turn."""
    board = Board()
    for m in moves:
        colour, move = m.split(":")
        if colour != board.turn:
            raise ValueError(f"{m} out of turn")
        board.play(move)
    return board


def score_text(discs):
    """A final score as GTP's final_score gives it: B+12, W+2 or 0 (the disc difference)."""
    d = discs["b"] - discs["w"]
    return "0" if d == 0 else f"B+{d}" if d > 0 else f"W+{-d}"


class Failure(Exception):
    """A failure of the expected kinds (an engine that cannot start or dies, an illegal move):
    reported as a message, without a traceback."""


class Gtp:
    """A GTP engine in a child process; its standard error goes to GTP_STDERR when that is
    set, else to a scratch file whose end is shown when the engine dies."""

    def __init__(self, command, who):
        self.who = who
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise Failure(f"{who}: cannot read the command {command!r}: {e}")
        if not argv:
            raise Failure(f"{who}: empty command")
        log = os.environ.get("GTP_STDERR")
        self.err = open(log, "a") if log else tempfile.TemporaryFile("w+")
        try:
            # In a session of its own, so that Ctrl-C stops this script, which closes it.
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self.err, text=True, bufsize=1, start_new_session=True)
        except OSError as e:
            hint = " (cargo build --release --example gtp)" if "examples/gtp" in argv[0] else ""
            raise Failure(f"{who}: cannot start {argv[0]}: {e.strerror or e}{hint}")

    def died(self, line):
        try:
            code = self.p.wait(2)
        except subprocess.TimeoutExpired:
            code = None
        said = ""
        if not os.environ.get("GTP_STDERR"):
            self.err.seek(0)
            tail = self.err.read()[-600:].strip()
            said = f"; it said: {tail}" if tail else ""
        how = f" (exit code {code})" if code is not None else ""
        return Failure(f"{self.who} died after {line!r}{how}{said}")

    def ask(self, line):
        """(ok, text): the answer to `line`, ok False for a '?' answer."""
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self.died(line)
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise self.died(line)
            if l.strip() == "":
                if out:
                    break
                continue
            out.append(l.strip())
        text = "\n".join(out)
        if text[:1] not in "=?":
            raise Failure(f"{self.who}: not a GTP answer to {line!r}: {text[:200]!r}")
        return text[0] == "=", re.sub(r"^[=?]\d*", "", text).strip()

    def send(self, line):
        ok, text = self.ask(line)
        if not ok:
            raise Failure(f"{self.who} refused {line!r}: {text}")
        return text

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(5)
        except Exception:
            self.p.kill()
            self.p.wait()
        self.err.close()


class Zebra:
    """Zebra, run afresh for each move from the moves so far (no passes: it passes itself)."""

    def __init__(self, a):
        self.binary = os.path.abspath(a.zebra)
        self.levels = [str(a.depth), str(a.exact), str(a.wld)] * 2
        self.timeout = a.zebra_timeout
        self.scratch = None

    def workdir(self):
        """Zebra reads coeffs2.bin from its working directory and rewrites current.gam,
        current.mov and zebra.log there at every move of the sequence: a scratch directory
        in memory (/dev/shm where there is one) with a link to coeffs2.bin keeps that from
        costing a few milliseconds a ply on disk (0.2 s a move late in a game) and keeps
        two matches from sharing those files."""
        if self.scratch is None:
            shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
            self.scratch = tempfile.mkdtemp(prefix="othello-zebra-", dir=shm)
            os.symlink(os.path.join(os.path.dirname(self.binary), "coeffs2.bin"),
                       os.path.join(self.scratch, "coeffs2.bin"))
        return self.scratch

    def close(self):
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    def run(self, moves, levels=None, one=True):
        seq = "".join(m.split(":")[1] for m in moves if not m.endswith(":pass"))
        # -quiet first (Zebra reads it before its other flags), no book (there is none),
        # no randomness (the hash keys are seeded from the clock otherwise).
        argv = [self.binary, "-quiet", "-l", *(levels or self.levels), "-slack", "0", "-b", "0",
                "-r", "0"] + (["-evalone"] if one else []) + ["-seq", seq]
        try:
            run = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout,
                                 cwd=self.workdir(), start_new_session=True)
        except OSError as e:
            raise Failure(f"Zebra: cannot start {self.binary}: {e.strerror or e}")
        except subprocess.TimeoutExpired:
            raise Failure(f"Zebra took over {self.timeout:g} s after {seq or 'the start'}")
        said = (run.stdout + run.stderr).strip()
        if run.returncode != 0:
            how = f"signal {-run.returncode}" if run.returncode < 0 else f"exit code {run.returncode}"
            hint = (" (a build without -fwrapv crashes in its endgame search: see docs/tools.md)"
                    if run.returncode == -11 else "")
            raise Failure(f"Zebra failed ({how}) after {seq or 'the start'}{hint}: {said[-400:]}")
        return said

    def genmove(self, moves, legal):
        out = self.run(moves)
        # The move played is the first of the principal variation of its last search: the
        # endgame solver's where it ran (the midgame search before it prints a line too). A
        # forced move prints no variation.
        pv = [l for l in out.splitlines() if l.startswith("PV:")]
        status = [l for l in out.splitlines() if l.startswith("-->")]
        source = pv[-1][3:] if pv else status[-1][3:] if status else ""
        found = re.findall(r"\b[a-h][1-8]\b", source)
        if found:
            move = found[0]
        elif len(legal) == 1:
            move = legal[0]
        else:
            raise Failure(f"Zebra gave no move after {len(moves)} plies: {out[-400:]!r}")
        if move not in legal:
            raise Failure(f"Zebra played {move}, illegal after {' '.join(moves)} (legal: {' '.join(legal)})")
        return move

    def final(self, moves):
        """Zebra's own count of the final position: {'b': discs, 'w': discs}."""
        out = self.run(moves, levels=["1", "0", "0"] * 2, one=False)
        m = re.search(r"Black:\s*(\d+)\s+White:\s*(\d+)", out)
        if not m:
            raise Failure(f"Zebra gave no final count: {out[-300:]!r}")
        return {"b": int(m.group(1)), "w": int(m.group(2))}

    def check(self):
        """A clear error now rather than at the first move: the binary runs, finds its
        evaluation, and solves an endgame (the -O2 build of the README without -fwrapv dies there)."""
        if not os.path.isfile(self.binary):
            raise Failure(f"Zebra: no file {self.binary} (build it as docs/tools.md says)")
        if not os.path.isfile(os.path.join(os.path.dirname(self.binary), "coeffs2.bin")):
            raise Failure(f"Zebra: no coeffs2.bin beside {self.binary} (it comes with the lk16/zebra sources)")
        try:
            self.genmove([], Board().legal())
        except Failure as e:
            raise Failure(f"Zebra's first move failed: {e}")
        endgame = "d3c5e6e3c3d2f3f5f6c2f4f2c4g3e2d1c1b5b3g6g5b4e1f1g4b1h6d6h3a4c7d7e7f8d8e8g8h5h4f7g7c8b8b7"
        moves = [f"{'bw'[i % 2]}:{endgame[2 * i:2 * i + 2]}" for i in range(len(endgame) // 2)]
        try:
            self.run(moves, levels=["1", "16", "16"] * 2)
        except Failure as e:
            raise Failure(f"Zebra's self-check (solving a position of 16 empty squares) failed: {e}")


def our_engine(a):
    g = Gtp(a.engine, "our engine")
    try:
        ok, text = g.ask("boardsize 8")
        # An Othello engine takes d3 and refuses a1 at the start (Hex takes both, Connect Four neither).
        if ok:
            g.send("clear_board")
            othello = not g.ask("play b a1")[0] and g.ask("play b d3")[0]
            g.send("clear_board")
        if not ok or not othello:
            raise Failure(f"our engine does not play Othello 8x8 (boardsize 8: {text or 'taken'}): "
                          "is it started with --game othello?")
    except Exception:
        g.close()
        raise
    return g


def settings(a):
    return {"engine": a.engine, "opponent": a.opponent or "zebra",
            "zebra": None if a.opponent else {"depth": a.depth, "exact": a.exact, "wld": a.wld}}


def play(a, opening, ours, zebra):
    """One game from `opening` (a list of moves), our engine playing `ours` ('b' or 'w'):
    its record."""
    board, moves = Board(), []
    seconds = {"ours": [], "zebra": []}
    us = our_engine(a)
    them = None
    try:
        if a.opponent:
            them = Gtp(a.opponent, "the opponent")
            them.send("boardsize 8")
            them.send("clear_board")
        ended = "game over"
        winner = None
        for move in opening:
            colour = board.turn
            try:
                board.play(move)
            except ValueError as e:
                raise Failure(f"opening {' '.join(opening)}: {e}")
            moves.append(f"{colour}:{move}")
            for g in (us, them):
                if g:
                    g.send(f"play {colour} {move}")
        while not board.over():
            colour, legal = board.turn, board.legal()
            mover = us if colour == ours else them  # None: Zebra
            who = "our engine" if mover is us else "the opponent" if them else "Zebra"
            started = time.monotonic()
            if mover is None and not legal:
                move = "pass"  # Zebra is not asked: it would have nothing to search
            else:
                move = mover.send(f"genmove {colour}").lower() if mover else zebra.genmove(moves, legal)
                seconds["ours" if mover is us else "zebra"].append(round(time.monotonic() - started, 3))
            if move == "resign":
                winner, ended = ("w" if colour == "b" else "b"), f"{who} resigned"
                break
            try:
                board.play(move)
            except ValueError as e:
                raise Failure(f"{who} played an illegal move after {' '.join(moves) or 'the start'}: {e}")
            moves.append(f"{colour}:{move}")
            # Every engine but the mover is told, passes included (our engine wants `play w pass`).
            for g in (us, them):
                if g and g is not mover:
                    g.send(f"play {colour} {move}")
        record = {"opening": " ".join(opening), "ours": ours, "moves": moves, "ended": ended,
                  "seconds": seconds, "settings": settings(a)}
        checks = []
        if winner is None:
            discs = board.discs()
            record["discs"] = discs
            d = discs["b"] - discs["w"]
            winner = "draw" if d == 0 else "b" if d > 0 else "w"
            expected = score_text(discs)
            said = us.send("final_score")
            record["final_score"] = said
            if said.upper() != expected:
                checks.append(f"our engine's final_score {said}, the board's {expected}")
            if them:
                theirs = them.send("final_score")
                if theirs.upper() != expected:
                    checks.append(f"the opponent's final_score {theirs}, the board's {expected}")
            else:
                counted = zebra.final(moves)
                if counted != discs:
                    checks.append(f"Zebra counts {counted['b']}-{counted['w']}, the board {discs['b']}-{discs['w']}")
        record["winner"] = winner
        record["score"] = 1.0 if winner == ours else 0.5 if winner == "draw" else 0.0
        if checks:
            record["disagreements"] = checks
            print(f"  score check failed: {'; '.join(checks)}", file=sys.stderr)
        return record
    finally:
        us.close()
        if them:
            them.close()


def record_path(directory, opening, ours):
    return os.path.join(directory, f"{''.join(opening.split())}-{ours}.json")


def match(a):
    openings = [o.split() for o in (a.openings.split(",") if a.openings else OPENINGS)]
    for o in openings:
        try:
            replay([f"{'bw'[i % 2]}:{m}" for i, m in enumerate(o)])
        except ValueError as e:
            raise Failure(f"opening {' '.join(o)}: {e} (passes are not allowed in openings)")
    zebra = None if a.opponent else Zebra(a)
    try:
        run_match(a, openings, zebra)
    finally:
        if zebra:
            zebra.close()


def run_match(a, openings, zebra):
    if zebra:
        zebra.check()
    our_engine(a).close()  # it starts and plays Othello
    os.makedirs(a.out, exist_ok=True)
    mine = settings(a)
    for g, path in records(a.out):
        if g.get("settings") != mine:
            raise Failure(f"{path} was played with other settings ({json.dumps(g.get('settings'))}); "
                          f"give another --out for these ({json.dumps(mine)})")
    schedule = [(o, ours) for o in openings for ours in "bw"]
    if a.games is not None:
        schedule = schedule[:a.games]
    done = sum(os.path.exists(record_path(a.out, " ".join(o), ours)) for o, ours in schedule)
    print(f"{done} of {len(schedule)} games already in {a.out}", flush=True)
    for opening, ours in schedule:
        path = record_path(a.out, " ".join(opening), ours)
        if os.path.exists(path):
            continue
        for attempt in range(1, a.tries + 1):
            try:
                g = play(a, opening, ours, zebra)
                break
            except Failure as e:
                print(f"{' '.join(opening)}, ours {ours}: attempt {attempt} failed: {e}", file=sys.stderr)
        else:
            continue
        with open(path + ".part", "w") as f:
            json.dump(g, f)
        os.replace(path + ".part", path)
        done += 1
        result = {1.0: "won", 0.5: "drew", 0.0: "lost"}[g["score"]]
        discs = f" {g['discs']['b']}-{g['discs']['w']}" if "discs" in g else ""
        print(f"{done}/{len(schedule)} {' '.join(opening)}: ours {'Black' if ours == 'b' else 'White'}, "
              f"{result}{discs} in {len(g['moves'])} plies ({g['ended']})", flush=True)
    missing = [f"{' '.join(o)} ({ours})" for o, ours in schedule
               if not os.path.exists(record_path(a.out, " ".join(o), ours))]
    if missing:
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        print(f"not finished: {len(missing)} games ({', '.join(missing[:6])}{more})")
    summarize([a.out])


def records(directory):
    """(record, path) for each game in `directory`."""
    found = []
    for f in sorted(os.listdir(directory)):
        if not f.endswith(".json"):
            continue
        path = os.path.join(directory, f)
        try:
            with open(path) as fh:
                g = json.load(fh)
            g["moves"], g["ours"], g["score"]
        except (ValueError, KeyError, TypeError):
            print(f"othello-zebra: {path}: not a game record of this script, left out", file=sys.stderr)
            continue
        found.append((g, path))
    return found


def checked(directory):
    """The records of `directory` whose moves give their result; the others are named."""
    good = []
    for g, path in records(directory):
        try:
            board = replay(g["moves"])
            if g.get("ended", "game over") == "game over":
                if not board.over():
                    raise ValueError("the game is not over")
                discs = board.discs()
                d = discs["b"] - discs["w"]
                winner = "draw" if d == 0 else "b" if d > 0 else "w"
                if g.get("discs") != discs or g.get("winner") != winner:
                    raise ValueError(f"the moves give {discs['b']}-{discs['w']}")
            if g["score"] != (1.0 if g["winner"] == g["ours"] else 0.5 if g["winner"] == "draw" else 0.0):
                raise ValueError("its score is not its winner's")
        except ValueError as e:
            print(f"{path}: left out: {e}", file=sys.stderr)
            continue
        good.append(g)
    return good


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def score_line(games):
    n = len(games)
    won = sum(g["score"] == 1 for g in games)
    drawn = sum(g["score"] == 0.5 for g in games)
    score = sum(g["score"] for g in games)
    lo, hi = wilson(score, n)
    return (f"{won}-{drawn}-{n - won - drawn} (won-drawn-lost) in {n} games: score {100 * score / max(1, n):.1f}% "
            f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%)")


def margins(games):
    """Mean disc difference, ours less the opponent's, of the games played out: as counted,
    and with the empty squares to the winner."""
    plain, rated = [], []
    for g in games:
        if "discs" not in g:
            continue
        them = "w" if g["ours"] == "b" else "b"
        d = g["discs"][g["ours"]] - g["discs"][them]
        empty = 64 - g["discs"]["b"] - g["discs"]["w"]
        plain.append(d)
        rated.append(d + (empty if d > 0 else -empty if d < 0 else 0))
    if not plain:
        return "no game played out"
    text = f"{sum(plain) / len(plain):+.2f} over {len(plain)} games played out"
    if rated != plain:
        text += f" ({sum(rated) / len(rated):+.2f} with the empty squares to the winner)"
    return text


def summarize(dirs):
    everything = []
    for directory in dirs:
        if not os.path.isdir(directory):
            print(f"othello-zebra: {directory}: not a directory, left out", file=sys.stderr)
            continue
        games = checked(directory)
        if not games:
            print(f"{directory}: no games")
            continue
        s = games[0].get("settings", {})
        z = s.get("zebra")
        against = f"Zebra depth {z['depth']} exact {z['exact']} wld {z['wld']}" if z else s.get("opponent")
        print(f"{directory}: {score_line(games)}\n    {s.get('engine')} against {against}")
        everything += games
    if not everything:
        raise Failure("no finished games in those directories")
    if len(dirs) > 1:
        print(f"together: {score_line(everything)}")
    for colour, title in (("b", "as Black"), ("w", "as White")):
        mine = [g for g in everything if g["ours"] == colour]
        if mine:
            print(f"{title}: {score_line(mine)}")
    print(f"mean disc difference (ours less the opponent's): {margins(everything)}")
    order = {o: i for i, o in enumerate(OPENINGS)}
    openings = sorted({g["opening"] for g in everything}, key=lambda o: (order.get(o, len(order)), o))
    cells = []
    for o in openings:
        mine = [g for g in everything if g["opening"] == o]
        cells.append(f"{o} {sum(g['score'] for g in mine):g}/{len(mine)}")
    print("by opening (our score): " + ", ".join(cells))
    spent = {side: [t for g in everything for t in g["seconds"].get(side, [])] for side in ("ours", "zebra")}
    zebra = all(g.get("settings", {}).get("opponent", "zebra") == "zebra" for g in everything)
    text = [f"{'our engine' if side == 'ours' else 'Zebra' if zebra else 'the opponent'} "
            f"{sum(t) / len(t):.3f} s ({len(t)} moves)" for side, t in spent.items() if t]
    print("mean wall time a move: " + ", ".join(text) + (" (Zebra's includes starting it, about 0.03 s)" if zebra else ""))
    ended = [g for g in everything if g.get("ended", "game over") != "game over"]
    if ended:
        print(f"ended early: {len(ended)} games (" + ", ".join(sorted({g['ended'] for g in ended})) + ")")
    wrong = [g for g in everything if g.get("disagreements")]
    print(f"final scores checked against the board: {len(wrong)} disagreements"
          + (": " + "; ".join(f"{g['opening']} ({g['ours']}): {', '.join(g['disagreements'])}" for g in wrong)
             if wrong else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="our engine against Zebra, each opening with both colours")
    m.add_argument("--engine", required=True, help="our GTP engine's command line")
    m.add_argument("--zebra", default="/tmp/zebra/zebra", help="Zebra's binary (default /tmp/zebra/zebra)")
    m.add_argument("--depth", type=int, default=6, help="Zebra's midgame depth in plies (default 6)")
    m.add_argument("--exact", type=int, default=14, help="empty squares from which Zebra solves exactly (14)")
    m.add_argument("--wld", type=int, default=16, help="empty squares from which Zebra solves win/loss/draw (16)")
    m.add_argument("--opponent", help="a GTP engine's command line to play instead of Zebra")
    m.add_argument("--openings", help="comma-separated lines of moves from the start "
                                      "('d3 c3,d3 c5 d6 e3'; default: 25 openings)")
    m.add_argument("--games", type=int, help="stop once DIR holds this many games of the schedule")
    m.add_argument("--tries", type=int, default=2, help="attempts at a game that fails (default 2)")
    m.add_argument("--zebra-timeout", type=float, default=600, help="seconds a Zebra move may take (600)")
    m.add_argument("--out", required=True, help="directory of the records (kept; rerun to continue)")
    s = sub.add_parser("summary", help="several matches' records together, by colour and opening")
    s.add_argument("dirs", nargs="+", help="directories that `match` wrote")
    a = ap.parse_args()

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # as Ctrl-C: the engines closed, the finished games kept
    try:
        if a.command == "match":
            match(a)
        else:
            summarize(a.dirs)
    except Failure as e:
        sys.exit(f"othello-zebra: {e}")
    except KeyboardInterrupt:
        sys.exit("othello-zebra: interrupted; the finished games are kept (the same command continues)")


if __name__ == "__main__":
    main()
