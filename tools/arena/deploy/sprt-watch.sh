#!/usr/bin/env bash
# Early stop of a sharded SPRT: merges shards 1..K, the longest run of
# finished shards from shard 1 on, and exits 0 once the merged SPRT accepts H0
# or H1 (then cancel the remaining shards), 1 while it has not decided.
#
#   tools/arena/deploy/sprt-watch.sh N OUTDIR        # once
#   while ! tools/arena/deploy/sprt-watch.sh 200 results; do sleep 60; done
#
# Only a prefix of shards is merged, never "whichever finished first": shards
# that finish early are those with short games, and picking them would bias
# the sample. ARENA as in parallel.sh.
set -euo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
n=$1
out=$2
arena=${ARENA:-target/release/arena}
files=()
for i in $(seq 1 "$n"); do
  f="$out/shard-$i.json"
  [ -f "$f" ] && grep -q '"status": "finished"' "$f" || break
  files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then
  echo "sprt-watch: shard 1 has not finished yet"
  exit 1
fi
echo "sprt-watch: merging shards 1..${#files[@]} of $n"
"$arena" merge "${files[@]}" --json "$out/prefix.json" | tee "$out/prefix.txt"
grep -qE 'H[01] accepted' "$out/prefix.txt"
