#!/usr/bin/env python3
"""Reads hex_selfplay logs of games played to the end (--no-resign), game-*.txt in the
directory given, and says for each resigning rule (chances under a threshold for so many
moves in a row) how many games a side would have resigned and then won, and how many moves
the rule would have saved a game; then the lowest chances each winner gave itself.

    scripts/hex-resign.py runs/resign
"""
import glob, os, re, sys

directory = sys.argv[1] if len(sys.argv) > 1 else 'runs/resign'

games = []
for path in sorted(glob.glob(os.path.join(directory, 'game-*.txt'))):
    moves, winner, current = [], None, None
    for line in open(path):
        m = re.match(r'(\d+)\. (Black|White) \(.\) plays (\S+) after', line)
        if m:
            current = (int(m.group(1)), m.group(2), m.group(3))
            continue
        m = re.match(r'\s+best: (.*)', line)
        if m and current:
            chances = None
            for part in m.group(1).split('; '):
                a = re.match(r'(\S+) (\d+) visits, (-?[\d.]+|-?inf|NaN)%', part)
                if a and a.group(1) == current[2]:
                    chances = float(a.group(3)) / 100
            moves.append((current[0], current[1], chances))
            current = None
            continue
        m = re.match(r'(Black|White) \(.\) wins after (\d+) moves', line)
        if m:
            winner, length = m.group(1), int(m.group(2))
    if winner:
        games.append((path, moves, winner, length))

print(f'{len(games)} games')
for below in [0.02, 0.05, 0.10, 0.20]:
    for run in [1, 3]:
        false, saved = 0, 0
        for path, moves, winner, length in games:
            streak = {'Black': 0, 'White': 0}
            for number, player, chances in moves:
                if chances is not None and chances < below:
                    streak[player] += 1
                else:
                    streak[player] = 0
                if streak[player] >= run:
                    if player == winner:
                        false += 1
                    saved += length - number + 1
                    break
        print(f'below {below:.0%} for {run} moves: {false} false resignations in {len(games)} games, {saved / len(games):.1f} moves saved a game')

# The lowest chances each eventual winner gave itself after move 10 (how close a false
# resignation came).
lows = []
for path, moves, winner, length in games:
    own = [c for n, p, c in moves if p == winner and c is not None and n > 10]
    lows.append(min(own))
print('winners\' lowest chances after move 10:', ' '.join(f'{100 * l:.1f}%' for l in sorted(lows)))
