#!/usr/bin/env bash
# The reliability soak (docs/cli.md; results: docs/history/reliability.md): many short arena runs, each with
# fresh engine processes, both games, a mix of levels (mike included), at 0.05 s
# per move. Every run plays one opening pair (2 games); the arena referees every
# move, so a time forfeit, a crash, a stall or an illegal move is a fault.
# Build first: cargo build --release --workspace
#
#   tools/soak.sh            # 500 runs = 1,000 games, 2 runs at a time
#   tools/soak.sh 20 1       # 20 runs (40 games), one at a time
#   SIZE=6 MAXPLIES=60 tools/soak.sh   # shorter games
#
# Results: one JSON per run in $SOAK_OUT (default soak/), then the totals.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-500}
JOBS=${2:-2}
OUT=${SOAK_OUT:-soak}
T=${ENGINE:-./target/release/tessera}
ARENA=${ARENA:-./target/release/arena}
MOVETIME=${MOVETIME:-0.05}
SIZE=${SIZE:-8}          # Rekushu board
MAXPLIES=${MAXPLIES:-100} # REBUS plies per game at most
mkdir -p "$OUT"

# Pairings, taken in turn: "game a b" (levels).
PAIRS=(
  "rekushu easy medium" "rekushu hard mike" "rekushu mike uct" "rekushu medium random"
  "rebus easy medium" "rebus hard mike" "rebus mike uct" "rebus hard random"
)

one() {
  local i=$1
  local spec=${PAIRS[$((i % ${#PAIRS[@]}))]}
  read -r g a b <<<"$spec"
  local extra=(--size "$SIZE")
  # REBUS deals run up to 400 plies; 100 are enough to test the clock.
  [ "$g" = rebus ] && extra=(--max-plies "$MAXPLIES")
  "$ARENA" --game "$g" "${extra[@]}" \
    --engine "$a=$T" --init "$a=level $a" \
    --engine "$b=$T" --init "$b=level $b" \
    --games 2 --movetime "$MOVETIME" --seed "$((1000 + i))" --quiet \
    --records "$OUT/records-$i" --json "$OUT/run-$i.json" >/dev/null 2>"$OUT/run-$i.err" || true
}
for i in $(seq 0 $((RUNS - 1))); do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
    wait -n || true
  done
  one "$i" &
done
wait

python3 - "$OUT" <<'PY'
import json, sys, glob, collections
games = faults = errors = 0
reasons = collections.Counter()
by_pair = collections.defaultdict(lambda: [0, 0])
missing = 0
for f in sorted(glob.glob(sys.argv[1] + "/run-*.json")):
    try:
        d = json.load(open(f))
    except Exception:
        missing += 1
        continue
    games += d["games_played"]
    faults += d["faults"]
    errors += d["arena_errors"]
    for p in d["pairings"]:
        reasons.update(p["reasons"])
        key = (d["game"], d["engines"][0]["init"][0].split()[-1], d["engines"][1]["init"][0].split()[-1])
        by_pair[key][0] += p["games"]
        by_pair[key][1] += sum(p["faults"].values())
print(f"games {games}, faults {faults}, arena errors {errors}, runs without a summary {missing}")
print("end reasons:", dict(sorted(reasons.items())))
for (g, a, b), (n, fl) in sorted(by_pair.items()):
    print(f"  {g:8} {a:>7} vs {b:<7} games {n:4}  faults {fl}")
PY
