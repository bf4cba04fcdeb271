#!/usr/bin/env bash
# Early stop of a sharded SPRT: merges shards 1..K, the longest run of
# finished shards from shard 1 on, into OUTDIR/prefix.json, and tells whether
# the merged SPRT has accepted H0 or H1.
#
#   tools/arena/deploy/sprt-watch.sh [--wait SECONDS] [--cancel COMMAND] N OUTDIR
#
#   --wait S      merge again every S seconds until the SPRT decides or all N
#                 shards have finished (without it: merge once)
#   --cancel CMD  once the SPRT decides, run CMD with bash to stop the shards
#                 still queued or running: 'scancel 1234' (Slurm),
#                 'kubectl delete job arena-sprt', 'kill PID' (GNU parallel)
#
# Exit status: 0 H0 or H1 accepted (and CMD ran), 1 undecided with shards to
# come (once), 3 all N shards finished and undecided (the --games cap was
# reached), 2 bad usage or a merge that failed. ARENA as in parallel.sh.
#
# Only a prefix of shards is merged, never "whichever finished first": shards
# that finish early are those with short games, and picking them would bias
# the sample.
set -euo pipefail
usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
wait_s=
cancel=
while [ $# -gt 0 ]; do
  case $1 in
    --wait) [ $# -ge 2 ] || usage; wait_s=$2; shift 2 ;;
    --cancel) [ $# -ge 2 ] || usage; cancel=$2; shift 2 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || usage
n=$1
out=$2
case $n in
  ''|*[!0-9]*|0) echo "sprt-watch: N must be a number of shards, not '$n'" >&2; exit 2 ;;
esac
arena=${ARENA:-target/release/arena}

last=-1
# One look: 0 decided, 1 not yet, 3 all finished and undecided.
look() {
  local files=() i f
  for i in $(seq 1 "$n"); do
    f="$out/shard-$i.json"
    if [ -f "$f" ] && grep -q '"status": "finished"' "$f"; then
      files+=("$f")
    else
      break
    fi
  done
  # While waiting, nothing new to say until the prefix grows.
  [ "${#files[@]}" -eq "$last" ] && return 1
  last=${#files[@]}
  if [ ${#files[@]} -eq 0 ]; then
    echo "sprt-watch: shard 1 has not finished yet"
    return 1
  fi
  echo "sprt-watch: merging shards 1..${#files[@]} of $n"
  if ! "$arena" merge "${files[@]}" --json "$out/prefix.json" > "$out/prefix.txt"; then
    echo "sprt-watch: the merge failed (above)" >&2
    exit 2
  fi
  cat "$out/prefix.txt"
  if grep -qE 'H[01] accepted' "$out/prefix.txt"; then
    return 0
  fi
  if [ ${#files[@]} -eq "$n" ]; then
    echo "sprt-watch: all $n shards finished, the SPRT did not decide"
    return 3
  fi
  return 1
}

while :; do
  status=0
  look || status=$?
  if [ $status -eq 0 ]; then
    if [ -n "$cancel" ]; then
      echo "sprt-watch: decided; cancelling the rest: $cancel"
      bash -c "$cancel" || echo "sprt-watch: '$cancel' failed (exit $?)" >&2
    fi
    exit 0
  fi
  if [ $status -ne 1 ] || [ -z "$wait_s" ]; then
    exit $status
  fi
  sleep "$wait_s"
done
