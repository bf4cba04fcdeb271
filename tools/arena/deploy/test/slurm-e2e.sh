#!/usr/bin/env bash
# The Slurm recipe, run for real: a one-node Slurm cluster on this machine
# (Debian's slurm-wlm and munge, installed when missing), the shipped
# tools/arena/deploy/slurm.sbatch submitted unchanged as job arrays, and:
#
#   1. a 40-game match as 4 shards, merged: equal to the match played unsharded
#   2. an SPRT as 20 shards, two at a time: sprt-watch.sh --cancel stops it on
#      H1 with scancel; nothing of the job is left queued or running, and the
#      merged result is what the finished shards 1..K hold (the first games of
#      the unsharded match)
#   3. a 40-game match as 4 shards, shard 2 cancelled with scancel mid-way,
#      resubmitted alone (sbatch --array=2): it resumes, and the merge is equal
#      to the match played unsharded
#
#   tools/arena/deploy/test/slurm-e2e.sh      # as root, after cargo build --release --workspace
#
# The daemons (munged, slurmctld, slurmd) listen on 127.0.0.1 only, on free
# ports, with their files in one folder under /tmp; all are stopped and the
# folder deleted at the end, whatever happened (KEEP=1 keeps the folder).
# Last line: "slurm-e2e: N passed, M failed". ARENA, ENGINE: the binaries
# (default: target/release/arena, target/release/tessera).
set -euo pipefail
# shellcheck source=tools/arena/deploy/test/lib.sh
source "$(dirname "$0")/lib.sh"
need slurmctld:slurm-wlm munged:munge python3:python3
start_run

# --- the cluster -------------------------------------------------------------
mkdir -p "$D/munge" "$D/run" "$D/state" "$D/spool" "$D/log"
chmod 700 "$D/munge"
head -c 1024 /dev/urandom > "$D/munge/munge.key"
chmod 400 "$D/munge/munge.key"
env "$TAG" munged -F --socket="$D/run/munge.sock" --key-file="$D/munge/munge.key" \
  --pid-file="$D/run/munged.pid" --log-file="$D/log/munged.log" \
  --seed-file="$D/munge/seed" --origin=127.0.0.1 > "$D/log/munged.out" 2>&1 &
wait_until 10 "munged starts" test -S "$D/run/munge.sock"

host=$(hostname -s)
export SLURM_CONF=$D/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=arenae2e
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/run/munge.sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
env "$TAG" slurmctld -D -f "$SLURM_CONF" > "$D/log/slurmctld.out" 2>&1 &
env "$TAG" slurmd -D -f "$SLURM_CONF" > "$D/log/slurmd.out" 2>&1 &
# At exit: cancel what is left, so that the daemons end their jobs in order.
cleanups+=("squeue -h -o %A | sort -u | xargs -r scancel; sleep 2")
node_idle() { sinfo -h -o %T 2>/dev/null | grep -qx idle; }
wait_until 30 "the node is idle (see $D/log)" node_idle
say "cluster up: $(sinfo --version), $(sinfo -h -o '%P %D %c %T')"

# sbatch of the shipped file, from $D; OUT and MATCH_FILE as given (--wait: at
# most 300 s).
submit() {
  local out=$1 match=$2
  shift 2
  mkdir -p "$out"
  (cd "$D" && env "$TAG" ARENA="$ARENA" OUT="$out" MATCH_FILE="$match" \
    timeout 300 sbatch --parsable --output="$out/slurm-%A_%a.out" "$@" "$deploy/slurm.sbatch")
}
job_gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
finished_all() {
  local f
  for f in "$@"; do [ "$(status_of "$f")" = finished ] || return 1; done
}

# Deterministic matches: `level random` with fixed seeds, and a node-limited
# search, play the same game for the same index in any run.
m1=(--game rekushu --size 6 --engine "r1=$ENGINE" --engine "r2=$ENGINE"
  --init 'r1=level random' --init 'r2=level random' --init 'r2=setoption seed 5'
  --games 40 --seed 3)
search=(--game rekushu --size 6 --engine "search=$ENGINE" --engine "random=$ENGINE"
  --nodes search=3000 --init 'random=level random' --init 'random=setoption seed 5'
  --seed 3)
m2=("${search[@]}" --games 40)
# The SPRT decides after 10 pairs (20 games, shard 5 of 20); 80 games leave 15
# shards to cancel. Game k is the same game whatever --games says.
m3=("${search[@]}" --games 80 --sprt elo0=0 elo1=200)
match_file "$D/m1.sh" "${m1[@]}"
match_file "$D/m2.sh" "${m2[@]}"
match_file "$D/m3.sh" "${m3[@]}"
"$ARENA" "${m1[@]}" --quiet --json "$D/whole1.json" > /dev/null
"$ARENA" "${m2[@]}" --quiet --json "$D/whole2.json" > /dev/null
say "unsharded: $(same_match "$D/whole1.json" "$D/whole1.json"); $(same_match "$D/whole2.json" "$D/whole2.json")"

# --- 1. four shards, merged == unsharded -----------------------------------------
t=$(date +%s)
out=$D/r1
job=$(submit "$out" "$D/m1.sh" --array=1-4 --cpus-per-task=1 --wait)
check "job $job: 4 array tasks ran, each shard finished" \
  finished_all "$out"/shard-{1,2,3,4}.json
"$ARENA" merge "$out"/shard-{1,2,3,4}.json --json "$out/merged.json" > "$out/merged.txt"
check "4 shards merged = unsharded: $(same_match "$out/merged.json" "$D/whole1.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole1.json"
watch_status=0
ARENA="$ARENA" "$deploy/sprt-watch.sh" 4 "$out" > "$out/watch.txt" 2>&1 || watch_status=$?
check "sprt-watch on all 4 shards of a match without SPRT: exit 3, undecided" \
  test "$watch_status" -eq 3
say "1. $(($(date +%s) - t)) s"

# --- 2. SPRT stopped on H1, the rest cancelled ------------------------------------
t=$(date +%s)
out=$D/r2
# Two shards at a time on the 2-CPU node, in order.
job=$(submit "$out" "$D/m3.sh" --array=1-20 --cpus-per-task=1)
say "job $job: 20 shards of 4 games submitted"
watch_status=0
timeout 300 env ARENA="$ARENA" "$deploy/sprt-watch.sh" --wait 0.3 \
  --cancel "squeue -h -j $job -o '%i %T' > $out/at-cancel.txt; scancel $job" \
  20 "$out" > "$out/watch.txt" 2>&1 || watch_status=$?
check "sprt-watch exits 0 on a verdict (exit $watch_status)" test "$watch_status" -eq 0
check "the verdict is H1: $(grep -o 'LLR.*' "$out/prefix.txt")" grep -q 'H1 accepted' "$out/prefix.txt"
wait_until 60 "job $job leaves the queue after scancel" job_gone "$job"
check "after scancel, squeue shows nothing of job $job" job_gone "$job"
check "no arena process of job $job is left" none_left "$out/"
k=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["shards"]))' "$out/prefix.json")
say "at the verdict, shards 1..$k had finished; squeue then held: $(tr '\n' ',' < "$out/at-cancel.txt")"
check "scancel found shards still queued or running" grep -qE 'PENDING|RUNNING' "$out/at-cancel.txt"
# A task cancelled while running saved its state (SIGTERM) and says so. The queue is
# listed just before the cancel, so a task listed as running may have played its
# last game in between (then its summary is 'finished' with all 4 games), or not
# yet have started its arena (no summary, no game).
cancelled_ok() { # STATUS GAMES
  case $1 in
    interrupted) true ;;
    finished) [ "$2" -eq 4 ] ;;
    "no summary") [ "$2" -eq 0 ] ;;
    *) false ;;
  esac
}
# shellcheck disable=SC2013
for i in $(awk '$2 == "RUNNING" {sub(/.*_/, "", $1); print $1}' "$out/at-cancel.txt"); do
  [ "$i" -gt "$k" ] || continue
  st=$(summary_of "$out/shard-$i.json")
  n=$(games_in "$out/shard-$i.state")
  check "shard $i, running at the cancel: summary '$st', $n games saved" cancelled_ok "$st" "$n"
done
check "the SPRT stopped before the last shard (K = $k < 20)" test "$k" -lt 20
prefix=()
for i in $(seq 1 "$k"); do prefix+=("$out/shard-$i.json"); done
"$ARENA" merge "${prefix[@]}" --json "$out/check.json" > /dev/null
check "the watcher's merge is what shards 1..$k hold: $(same_match "$out/prefix.json" "$out/check.json" 2>&1)" \
  same_match "$out/prefix.json" "$out/check.json"
check "and those are the unsharded match's first games: $(same_match "$out/prefix.json" "$D/whole2.json" prefix 2>&1)" \
  same_match "$out/prefix.json" "$D/whole2.json" prefix
for i in $(seq $((k + 1)) 20); do
  if [ -f "$out/shard-$i.json" ] || [ -f "$out/shard-$i.state" ]; then
    say "shard $i: $(summary_of "$out/shard-$i.json"), $(games_in "$out/shard-$i.state") games in its state file"
  fi
done
say "2. $(($(date +%s) - t)) s"

# --- 3. a shard cancelled mid-way, resubmitted alone ---------------------------
t=$(date +%s)
out=$D/r3
job=$(submit "$out" "$D/m2.sh" --array=1-4)
say "job $job: 4 shards of 10 games submitted"
mid_way() { [ "$(games_in "$out/shard-2.state")" -ge 1 ]; }
wait_until 120 "shard 2 plays its games" mid_way
scancel "${job}_2"
cut=$(games_in "$out/shard-2.state")
say "scancel ${job}_2 with $cut of shard 2's 10 games played"
wait_until 120 "job $job ends" job_gone "$job"
cut=$(games_in "$out/shard-2.state")
check "shard 2 was cut short ($cut of 10 games in its state file)" test "$cut" -lt 10
s2=$(summary_of "$out/shard-2.json")
say "shard 2 after scancel: its log: $(tail -n 2 "$out/slurm-${job}_2.out" | tr '\n' ' ')"
# Cancelled with games played and games left, it saved its state (SIGTERM) and says so.
check "shard 2's summary after scancel says 'interrupted' (it says '$s2')" test "$s2" = interrupted
check "the other shards finished" finished_all "$out"/shard-{1,3,4}.json
job2=$(submit "$out" "$D/m2.sh" --array=2 --wait)
say "resubmitted as job $job2 (sbatch --array=2; N read from $out/shards)"
check "shard 2 finished on resubmission" finished_all "$out/shard-2.json"
check "shard 2's state file now holds its 10 games, each once" test "$(games_in "$out/shard-2.state")" -eq 10
"$ARENA" merge "$out"/shard-{1,2,3,4}.json --json "$out/merged.json" > "$out/merged.txt"
check "4 shards merged, one after scancel and resubmission = unsharded: $(same_match "$out/merged.json" "$D/whole2.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole2.json"
say "3. $(($(date +%s) - t)) s"
