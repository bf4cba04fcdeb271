#!/usr/bin/env bash
# Runs one arena match as N shards with GNU parallel, on this machine's cores
# or over ssh, then merges them.
#
#   tools/arena/deploy/parallel.sh N OUTDIR ARENA-OPTIONS...
#
#   N             number of shards (each plays ~1/N of the games; whole pairs)
#   OUTDIR        where shard-I.json, shard-I.state, records-I/, joblog and
#                 merged.json go (on a shared file system when using ssh)
#   ARENA-OPTIONS the match, exactly as for one run, without --shard, --state,
#                 --json or --records
#
# Environment:
#   ARENA         the arena binary (default: target/release/arena)
#   JOBS          shards at once per machine (default: 1 per core, as parallel's -j100%
#                 would, halved: each game has two engines)
#   SSHLOGINFILE  a GNU parallel --sshloginfile: run the shards on those hosts,
#                 one per line as JOBS/HOST (e.g. 4/alice); the binaries, the
#                 engines and OUTDIR must be at the same paths there
#   PARALLEL_SSH  the ssh command GNU parallel uses (e.g. 'ssh -F cluster.conf'
#                 for ports, users and keys; default: ssh)
#
# Stop it with SIGTERM (kill PID: no new shards, the running ones save their
# state and stop) or SIGHUP (no new shards, the running ones finish).
# Interrupted? Run the same command again: finished shards are skipped
# (--resume-failed on the joblog) and unfinished ones resume from their state
# files. Example:
#
#   tools/arena/deploy/parallel.sh 8 shards --size 8 \
#     --engine new=./tessera-new --engine old=./tessera-old --movetime 0.1 \
#     --games 2000 --sprt elo0=0 elo1=10
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
n=$1
out=$2
shift 2
case $n in
  ''|*[!0-9]*|0) echo "parallel.sh: N must be a number of shards, not '$n'" >&2; exit 2 ;;
esac
arena=${ARENA:-target/release/arena}
arena=$(cd "$(dirname "$arena")" && pwd)/$(basename "$arena")
if [ ! -x "$arena" ]; then
  echo "parallel.sh: no arena binary at '$arena' (build it: cargo build --release -p arena, or set ARENA)" >&2
  exit 2
fi
command -v parallel >/dev/null || {
  echo "parallel.sh: GNU parallel is not installed (apt-get install parallel)" >&2
  exit 2
}
cores=$(nproc 2>/dev/null || echo 2)
jobs=${JOBS:-$(( cores / 2 > 0 ? cores / 2 : 1 ))}
mkdir -p "$out"
out=$(cd "$out" && pwd)

where=()
if [ -n "${SSHLOGINFILE:-}" ]; then
  where=(--sshloginfile "$SSHLOGINFILE" --workdir "$PWD")
fi

# One job per shard; {} is the shard number 1..N. --halt never: a failed shard
# does not stop the others; --resume-failed reruns failed and missing ones.
# -q quotes the arena's arguments ('level easy' stays one word). GNU parallel
# runs in the background so that a SIGTERM or SIGHUP sent to this script (by
# sprt-watch.sh --cancel 'kill PID') reaches it: on SIGTERM it starts no more
# shards and stops the running ones (their arenas save their state), on SIGHUP
# it lets the running ones finish. --termseq: a stopped arena has 5 s to save
# its state and summary before the second SIGTERM; `exec` makes the arena the
# job's process itself (over ssh, GNU parallel's remote wrapper cuts its wait
# short when the shell around a job dies).
parallel -q "${where[@]}" -j "$jobs" --joblog "$out/joblog" --resume-failed --halt never \
  --termseq TERM,5000,TERM,200,KILL,25 --line-buffer --tagstring 'shard {}' \
  exec "$arena" "$@" --quiet --shard "{}/$n" --state "$out/shard-{}.state" \
  --json "$out/shard-{}.json" --records "$out/records-{}" ::: $(seq 1 "$n") &
gnu=$!
stopped=
trap 'stopped=SIGTERM; kill -TERM "$gnu" 2>/dev/null' TERM
# Ctrl-C reaches the arenas from the terminal (they save and stop): parallel,
# which ignores it in the background, is only told to start no more shards.
trap 'stopped=SIGINT; kill -HUP "$gnu" 2>/dev/null' INT
trap 'stopped=SIGHUP; kill -HUP "$gnu" 2>/dev/null' HUP
status=0
# A trapped signal ends `wait` early: wait again until parallel has exited.
while :; do
  if wait "$gnu"; then status=0; else status=$?; fi
  kill -0 "$gnu" 2>/dev/null || break
done
trap - TERM INT HUP

shopt -s nullglob
summaries=("$out"/shard-*.json)
if [ ${#summaries[@]} -eq 0 ]; then
  echo "parallel.sh: no shard wrote its summary (see the errors above and $out/joblog)" >&2
elif ! "$arena" merge "${summaries[@]}" --json "$out/merged.json"; then
  echo "parallel.sh: the merge failed (above)" >&2
  exit 1
fi
if [ -n "$stopped" ]; then
  echo "parallel.sh: stopped by $stopped; run the same command again to play the rest" >&2
  exit 130
fi
if [ $status -ne 0 ]; then
  echo "parallel.sh: $status shard(s) failed; run the same command again to retry them" >&2
  exit 1
fi
[ ${#summaries[@]} -gt 0 ] || exit 1
