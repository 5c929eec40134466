#!/usr/bin/env bash
# Checks the cluster recipe of docs/cluster.md on a real Slurm: starts a single-node Slurm on
# this machine (Debian's slurm-wlm and munge, installed if missing; no systemd or cgroups
# needed), submits a small sharded tournament as an array job, waits for it, merges the shards,
# resubmits one task after cutting its shard short (as a time limit would), merges the shards,
# and compares the result with the same tournament played in one process.
#
#   sudo bash scripts/slurm-check.sh [SHARDS]        # default 3 shards
#
# Needs root (it installs packages, writes /etc/slurm and starts daemons). It stops the daemons
# it started when it ends. Exit status 0 when the merged run equals the one-process run.
set -euo pipefail
cd "$(dirname "$0")/.."
shards=${1:-3}
work=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$work"
log() { printf '\n== %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
  echo "slurm-check: run as root (it installs slurm-wlm and munge and starts their daemons)" >&2
  exit 2
fi

log "packages"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

log "the tournament binary"
cargo build --release --example tournament
binary=$PWD/target/release/examples/tournament
flags=(--game connect4 --agent uct=uct:iterations=2000 --agent mc=mc:playouts=2000
  --agent ab=alphabeta:depth=3 --games 6 --seed 17 --threads 1)

started=()
cleanup() {
  for daemon in "${started[@]}"; do
    pkill -x "$daemon" 2>/dev/null || true
  done
}
trap cleanup EXIT

log "munge"
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --force 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged
  started+=(munged)
fi
munge -n | unmunge >/dev/null

log "slurm.conf (one node: $(hostname -s), $(nproc) CPUs)"
host=$(hostname -s)
memory=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
if [ -e /etc/slurm/slurm.conf ] && ! grep -q 'written by scripts/slurm-check.sh' /etc/slurm/slurm.conf; then
  echo "slurm-check: /etc/slurm/slurm.conf exists and is not this script's: not touching it" >&2
  exit 1
fi
cat > /etc/slurm/slurm.conf <<CONF
# written by scripts/slurm-check.sh: a single-node cluster for checking array jobs
ClusterName=gamesearch-check
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# slurmd initialises a cgroup plugin even when nothing uses it (proctrack/linuxproc, task/none).
printf 'CgroupPlugin=autodetect\nCgroupMountpoint=/sys/fs/cgroup\n' > /etc/slurm/cgroup.conf

log "slurmctld and slurmd"
if ! pgrep -x slurmctld >/dev/null; then
  slurmctld -i
  started+=(slurmctld)
fi
if ! pgrep -x slurmd >/dev/null; then
  slurmd
  started+=(slurmd)
fi
for _ in $(seq 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
  sleep 1
done
sinfo
scontrol update nodename="$host" state=resume 2>/dev/null || true

log "the tournament as an array job of $shards tasks"
sbatch --wait --array="1-$shards" --chdir="$work" --output="$work/task-%a.out" \
  scripts/slurm/tournament-array.sh "$shards" "$work/run" "$binary" "${flags[@]}"
for ((k = 1; k <= shards; k++)); do
  echo "-- task $k:"; tail -n 3 "$work/task-$k.out"
done

log "a task stopped part-way (its time limit, say), resubmitted alone"
# Shard 2 keeps the header and its first game, and a line cut short: what a task killed while
# writing leaves. Resubmitting task 2 alone must resume it, with the same shard count.
games="$work/run/shard-2/games.csv"
head -n 2 "$games" > "$games.cut" && printf '8,uct,ab,1-' >> "$games.cut" && mv "$games.cut" "$games"
sbatch --wait --array=2 --chdir="$work" --output="$work/task-%a-again.out" \
  scripts/slurm/tournament-array.sh "$shards" "$work/run" "$binary" "${flags[@]}"
grep -h -E 'to play|dropped' "$work/task-2-again.out" || true

log "merge"
"$binary" merge "$work"/run/shard-* --out "$work/run/merged"

log "the same tournament in one process"
"$binary" "${flags[@]}" --out "$work/one" >/dev/null

log "compare"
strip_times() { cut -d, -f1-5 "$1"; }
if diff <(strip_times "$work/one/games.csv") <(strip_times "$work/run/merged/games.csv") &&
  diff "$work/one/standings.csv" "$work/run/merged/standings.csv"; then
  games=$(($(wc -l <"$work/one/games.csv") - 1))
  echo "slurm-check: the $shards shards merged equal the one-process run ($games games, the same standings)"
  echo "slurm-check: files in $work"
else
  echo "slurm-check: the merged run differs from the one-process run (files in $work)" >&2
  exit 1
fi
