#!/usr/bin/env bash
# Measures the level ladder of docs/strength.md: each pairing runs until an SPRT
# decision or its game budget (MAXGAMES below). Build first: cargo build --release --workspace
#
#   tools/ladder.sh                 # every pairing, one after the other
#   tools/ladder.sh rebus hard mike # one pairing (game, stronger, weaker or uct)
#
# Times per move are the levels' own defaults divided by ten (easy 0.2 s,
# medium 0.5 s, hard 1 s, mike 3 s; REBUS mike 6 s), so that a pairing takes
# minutes, not days;
# LADDER_TIMES=shipped plays the defaults themselves. mike plays against uct,
# and easy against random, at equal time. Every pairing plays at least 40 games
# (20 pairs) before its SPRT may stop it. Results go to ladder/ (LADDER_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
T=./target/release/tessera
ARENA=./target/release/arena
OUT=${LADDER_OUT:-ladder}
mkdir -p "$OUT"

# TIME[level], or TIME[game-level] where a level has a time of its own in a game.
declare -A TIME=([easy]=0.02 [medium]=0.05 [hard]=0.1 [mike]=0.3 [rebus-mike]=0.6)
case "${LADDER_TIMES:-tenth}" in
  tenth) ;;
  shipped) TIME=([easy]=0.2 [medium]=0.5 [hard]=1 [mike]=3 [rebus-mike]=6) ;;
  *) echo "ladder.sh: LADDER_TIMES='$LADDER_TIMES' is not tenth or shipped" >&2; exit 2 ;;
esac

# move_time GAME LEVEL: the level's time per move in that game.
move_time() { echo "${TIME[$1-$2]:-${TIME[$2]}}"; }

# pair GAME STRONG WEAK ELO0 ELO1 MAXGAMES: H1 "STRONG is ELO1 stronger" against
# H0 "only ELO0", stopping at MAXGAMES without a decision.
pair() {
  local g=$1 a=$2 b=$3 e0=$4 e1=$5 n=$6
  local ta tb
  ta=$(move_time "$g" "$a")
  case "$b" in uct | random) tb=$ta ;; *) tb=$(move_time "$g" "$b") ;; esac
  "$ARENA" --game "$g" \
    --engine "$a=$T" --init "$a=level $a" --movetime "$a=$ta" \
    --engine "$b=$T" --init "$b=level $b" --movetime "$b=$tb" \
    --games "$n" --sprt elo0="$e0" elo1="$e1" alpha=0.05 beta=0.05 --sprt-min-pairs 20 \
    --concurrency 1 --margin-ms 1000 --seed 2026 \
    --records "$OUT/$g-$a-$b" --json "$OUT/$g-$a-$b.json" | tee "$OUT/$g-$a-$b.txt"
}

# The targets: 75% (+191 Elo) per step, 90% (+382 Elo) for mike against uct,
# 95% (+512 Elo) for easy against random; each SPRT's bounds bracket its
# target. The most games per pairing are the budgets of the published run
# (REBUS games run to 400 plies, so they are long).
declare -A MAXGAMES=(
  [rekushu-medium-easy]=200 [rekushu-hard-medium]=200 [rekushu-mike-hard]=200
  [rekushu-mike-uct]=40 [rekushu-easy-random]=100
  [rebus-medium-easy]=60 [rebus-hard-medium]=40 [rebus-mike-hard]=40 [rebus-mike-uct]=40
  [rebus-easy-random]=100
)
run() {
  local n=${MAXGAMES[$1-$2-$3]:-200}
  case "$3" in
    uct) pair "$1" "$2" "$3" 250 500 "$n" ;;
    random) pair "$1" "$2" "$3" 350 650 "$n" ;;
    *) pair "$1" "$2" "$3" 100 300 "$n" ;;
  esac
}

if [ $# -eq 3 ]; then
  run "$1" "$2" "$3"
  exit
fi
for g in rekushu rebus; do
  run "$g" easy random
  run "$g" medium easy
  run "$g" hard medium
  run "$g" mike hard
  run "$g" mike uct
done
