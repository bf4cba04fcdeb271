#!/usr/bin/env bash
# Time to depth through the protocol, so that any build (the v0.1.0 baseline has no
# `bench --times`) searches exactly the same Rekushu 20x20 positions:
#
#   tools/timing/depth.sh ./target/release/tessera [DEPTH]   # default depth 5
#
# For each line of tools/timing/rekushu-20.txt: a fresh engine, level hard, one
# thread, the moves played, `limit depth DEPTH`, `genmove`; prints the engine's
# `info` line of each completed depth (time in ms, nodes, nodes/s), prefixed by
# the position's ply count. See docs/history/strength-rounds.md, round 5.
set -euo pipefail
BIN=${1:?usage: depth.sh TESSERA [DEPTH]}
DEPTH=${2:-5}
LINES="$(dirname "$0")/rekushu-20.txt"
grep -v '^#' "$LINES" | while IFS=$'\t' read -r plies line; do
  {
    echo "boardsize 20"; echo "level hard"; echo "setoption threads 1"
    side=b
    for m in $line; do
      echo "play $side $m"
      if [ "$side" = b ]; then side=w; else side=b; fi
    done
    echo "limit depth $DEPTH"; echo "genmove $side"; echo quit
  } | "$BIN" 2>&1 | grep -E '^info depth' | sed "s/ pv .*//; s/^/+$plies /"
done
