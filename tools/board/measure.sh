#!/usr/bin/env bash
# Measures the board server: the page's size, and how long a move's reply takes
# (POST /api/move until the new state has arrived), on a human-vs-human
# Rekushu 20x20 board and on REBUS. The browser's own click-to-screen time is
# shown on the page ("last reply on screen in … ms") and printed by
# tools/board/tests/board/browser.rs.
#   tools/board/measure.sh            (after cargo build --release --workspace)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=target/release/tessera-board
[ -x "$bin" ] || { echo "build first: cargo build --release --workspace" >&2; exit 2; }
out=$(mktemp)
"$bin" --port 0 > "$out" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 50); do grep -q listening "$out" && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$out")
echo "page: $(curl -s "$base" | wc -c) bytes (one HTML file, nothing else loaded)"
post() { curl -s -o /dev/null -w "%{http_code} %{time_total}\n" -H 'Content-Type: application/json' -d "$2" "$base$1"; }
humans='[{"kind":"human","level":"easy"},{"kind":"human","level":"easy"}]'
summary() { sort -k2 -n | awk '$1 != 200 {bad++} {a[NR]=$2} END {printf "median %.1f ms, max %.1f ms, %d refused", a[int((NR+1)/2)]*1000, a[NR]*1000, bad}'; }
post api/new "{\"game\":\"rekushu\",\"size\":20,\"players\":$humans}" > /dev/null
times=$(for m in K10 C5 F14 Q3 B18 M7 H2 S12 E9 N16 D11 P5 G17 A4 T8 J13 L1 O19 R10 C20; do
    post api/move "{\"move\":\"$m\"}"; done)
echo "Rekushu 20x20, 20 moves: $(echo "$times" | summary)"
post api/new "{\"game\":\"rebus\",\"players\":$humans}" > /dev/null
times=$(for m in d3xd5+e1 g7xh6 d3xf5+b3 d7xd6+f8 f5xh6+d1 e7xe6+d8 b3xa4+f1 d6xd4+d8; do post api/move "{\"move\":\"$m\"}"; done)
echo "REBUS, 8 moves: $(echo "$times" | summary)"
