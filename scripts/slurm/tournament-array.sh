#!/usr/bin/env bash
# One shard of a tournament, as a task of a Slurm array job. Submit it with
#
#   sbatch --array=1-N scripts/slurm/tournament-array.sh N RUN_DIR TOURNAMENT_BINARY [FLAGS...]
#
# where FLAGS are the tournament's flags without --out, --resume or --shard (say `--game hex
# --size 11 --agent ... --games 200 --threads 1`). Task K plays shard K/N into RUN_DIR/shard-K.
# N is given, not read from Slurm, so that a resubmission of some tasks (--array=7,19) plays the
# same shards. A task that is requeued, preempted or resubmitted after a time limit resumes its
# shard where it stopped: the tournament keeps each game as it ends and stops cleanly on the
# SIGTERM that Slurm sends. When every task has finished:
#
#   TOURNAMENT_BINARY merge RUN_DIR/shard-* --out RUN_DIR/merged
#
# See docs/cluster.md.
#SBATCH --job-name=gamesearch-tournament
#SBATCH --cpus-per-task=1
#SBATCH --output=%x-%A_%a.out
set -euo pipefail

if [ "$#" -lt 3 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: sbatch --array=1-N $0 N RUN_DIR TOURNAMENT_BINARY [FLAGS...]" >&2
  exit 2
fi
count=$1
run_dir=$2
binary=$3
shift 3
: "${SLURM_ARRAY_TASK_ID:?run this as an array job: sbatch --array=1-N ...}"
if [ "$SLURM_ARRAY_TASK_ID" -lt 1 ] || [ "$SLURM_ARRAY_TASK_ID" -gt "$count" ]; then
  echo "array task $SLURM_ARRAY_TASK_ID is not a shard of $count (use --array=1-$count)" >&2
  exit 2
fi
shard_dir="$run_dir/shard-$SLURM_ARRAY_TASK_ID"
mkdir -p "$run_dir"
if [ -e "$shard_dir/settings.txt" ]; then
  where=(--resume "$shard_dir")
else
  where=(--out "$shard_dir")
fi
exec "$binary" "$@" --shard "$SLURM_ARRAY_TASK_ID/$count" "${where[@]}"
