#!/usr/bin/env bash
# Same behaviour before and after a refactor: tournaments at fixed iterations on every game and
# agent family (plain, knowledge, RAVE, the MCTS-Solver, root- and tree-parallel where they are
# deterministic), each games.csv without its seconds in OUT/<name>.csv. Build the tournament
# example of both commits (cargo build --release --example tournament), run this with each,
# then `diff -r OUT1 OUT2`: any difference is a game that went otherwise.
# usage: scripts/same-games.sh TOURNAMENT_BINARY OUTDIR
set -euo pipefail
T=$1; OUT=$2; mkdir -p "$OUT"
RUNS=$(mktemp -d); trap 'rm -rf "$RUNS"' EXIT
run() { # name game size agents...
  local name=$1 game=$2 size=$3; shift 3
  local args=(); for a in "$@"; do args+=(--agent "$a"); done
    "$T" --game "$game" --size "$size" --games 12 --threads 2 --seed 7 --out "$RUNS/$name" "${args[@]}" >/dev/null 2>&1
  cut -d, -f1-5 "$RUNS/$name/games.csv" > "$OUT/$name.csv"
}
# Hex 7x7
run hex-plain hex 7 uct:iterations=1500 mc:playouts=1500 ucb1:playouts=1500
run hex-know hex 7 uct:iterations=1500,prior=game,playout=game,examine=50 uct:iterations=1500,prior=game,prove=true
run hex-rave hex 7 rave:iterations=1500 grave:iterations=1500 best:iterations=1500
run hex-rave-know hex 7 rave:iterations=1500,prior=game,bias=5,examine=100 rave:iterations=1500,prior=game,playout=game,prove=true
run hex-par hex 7 uct:iterations=1500,threads=2,parallel=root uct:iterations=1500,threads=1,parallel=tree,prior=game
run hex-misc hex 7 uct:iterations=1500,expand=all,final=mean uct:iterations=1500,expand_after=3,decay=0.99,reuse=false
# Othello 6x6
run oth-plain othello 6 uct:iterations=1000 mc:playouts=1000
run oth-know othello 6 best:iterations=1000 uct:iterations=1000,cutoff=8 uct:iterations=1000,prove=true
run oth-rave othello 6 rave:iterations=1000 grave:iterations=1000,prior=game,bias=3
run oth-par othello 6 uct:iterations=1000,threads=2,parallel=root uct:iterations=1000,threads=1,parallel=tree,prove=true
# Connect Four 7x6
run c4-plain connect4 7x6 uct:iterations=2000 mc:playouts=2000 alphabeta:depth=4
run c4-know connect4 7x6 best:iterations=2000 uct:iterations=2000,prove=true uct:iterations=2000,prior=game,playout=game,prove=true
run c4-rave connect4 7x6 rave:iterations=2000 grave:iterations=2000,prove=true
run c4-par connect4 7x6 uct:iterations=2000,threads=2,parallel=root uct:iterations=2000,threads=1,parallel=tree
run c4-misc connect4 7x6 uct:iterations=2000,expand=all uct:iterations=2000,final=wins,nodes=3000
