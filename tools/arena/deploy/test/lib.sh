# shellcheck shell=bash
# Shared by the end-to-end runs of the deploy recipes (slurm-e2e.sh,
# ssh-e2e.sh, k8s-check.sh): a run folder, the packages, free ports, the
# comparison of two arena summaries, checks counted, and a cleanup that ends
# every process the run started, even when it fails. Sourced, not run.
#
# Every daemon and job a run starts is given ARENA_E2E_TAG=<its run folder> in
# its environment, or has the run folder in its command line; the cleanup ends
# those processes (by process id) and nothing else, then deletes the folder
# (KEEP=1 keeps it for a look after a failure).

e2e_name=${0##*/}
e2e_name=${e2e_name%.sh}
deploy=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$(cd "$deploy/../../.." && pwd)
ARENA=${ARENA:-$repo/target/release/arena}
ENGINE=${ENGINE:-$repo/target/release/tessera}
passed=0
failed=0
cleanups=()

say() { echo "$e2e_name: $*"; }
die() {
  echo "$e2e_name: FAILED: $*" >&2
  failed=$((failed + 1))
  exit 1
}
# check WHAT COMMAND...: runs the command (its output is not shown: put what
# it found in WHAT); counts a pass or fails the run.
check() {
  local what=$1
  shift
  if "$@" > /dev/null; then
    passed=$((passed + 1))
    say "ok: $what"
  else
    die "$what"
  fi
}

# The run folder, world-readable (munged checks the path to its socket).
start_run() {
  [ "$(id -u)" -eq 0 ] || { echo "$e2e_name: run me as root (daemons, apt-get)" >&2; exit 2; }
  if [ ! -x "$ARENA" ] || [ ! -x "$ENGINE" ]; then
    echo "$e2e_name: no $ARENA or $ENGINE: cargo build --release --workspace" >&2
    exit 2
  fi
  D=$(mktemp -d "/tmp/arena-$e2e_name.XXXXXX")
  chmod 755 "$D"
  TAG="ARENA_E2E_TAG=$D"
  e2e_started=$(date +%s)
  trap finish EXIT
  trap 'exit 130' INT TERM
  say "run folder $D"
}

# Runs at exit, whatever happened: the registered cleanups, then every process
# of the run still alive is sent SIGTERM, then SIGKILL.
finish() {
  local status=$? c pids
  trap - EXIT
  for c in "${cleanups[@]}"; do
    eval "$c" >/dev/null 2>&1 || true
  done
  for sig in TERM TERM KILL; do
    pids=$(run_pids)
    [ -z "$pids" ] && break
    # shellcheck disable=SC2086
    kill -s "$sig" $pids 2>/dev/null || true
    sleep 2
  done
  pids=$(run_pids)
  if [ -n "$pids" ]; then
    echo "$e2e_name: processes left: $pids" >&2
    status=1
  fi
  if [ "$status" -ne 0 ] && [ "${KEEP:-0}" != 1 ]; then
    # The folder goes: show the end of the daemons' logs first.
    for c in "$D"/log/*.log "$D"/log/*.out; do
      [ -s "$c" ] || continue
      tail -n 20 "$c" | sed "s|^|$e2e_name: ${c#"$D"/}: |" >&2
    done
  fi
  if [ "${KEEP:-0}" = 1 ]; then
    say "kept $D"
  else
    rm -rf "$D"
  fi
  [ "$status" -eq 0 ] || failed=$((failed + (failed == 0)))
  say "$(($(date +%s) - e2e_started)) s"
  echo "$e2e_name: $passed passed, $failed failed"
  exit "$status"
}

# The ids of this run's processes: the run folder in the command line or the
# tag in the environment; never this shell.
run_pids() {
  local p
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = $$ ] && continue
    if tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "$TAG" ||
      tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline" | grep -qF "$D/"; then
      echo "$p"
    fi
  done
}

# need CMD:PACKAGE...: installs the Debian packages of the missing commands.
need() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}

# A TCP port no socket of this machine holds, in any state, below the
# kernel's ephemeral range when that starts above 12000, as it does by
# default (an outgoing connection then never takes it while the
# daemon starts), from a random start. Ports handed out stay taken for the
# run ($D/ports: each call runs in a $(...) subshell).
free_port() {
  local port low used
  read -r low _ < /proc/sys/net/ipv4/ip_local_port_range
  [ "$low" -gt 12000 ] || low=32768
  used=$(ss -Htan | awk '{print $4}' | sed 's/.*://'; cat "$D/ports" 2> /dev/null || true)
  port=$((10000 + RANDOM % (low - 12000)))
  while grep -qx "$port" <<< "$used"; do
    port=$((port + 1))
  done
  echo "$port" >> "$D/ports"
  echo "$port"
}

# wait_until SECONDS WHAT COMMAND...: polls every 0.2 s.
wait_until() {
  local limit=$1 what=$2 t=0
  shift 2
  until "$@"; do
    sleep 0.2
    t=$((t + 1))
    [ $t -lt $((limit * 5)) ] || die "$what: not after $limit s"
  done
}

# match_file FILE ARGS...: a MATCH_FILE (for slurm.sbatch) holding ARGS.
match_file() {
  local f=$1
  shift
  { printf 'MATCH=('; printf ' %q' "$@"; printf ' )\n'; } > "$f"
}

# pids_with TEXT: the processes whose command line holds TEXT (none: fails).
pids_with() {
  local pattern
  pattern=$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g')
  pgrep -f -- "$pattern"
}

no_pids_with() { ! pids_with "$1" > /dev/null; }
# settled TEXT: no process has TEXT in its command line, and none appears in
# the next 2 s. When a match over ssh is stopped just as GNU parallel starts a
# shard, the ssh connection is gone before the remote wrapper has started the
# arena: it starts it all the same, sees its parent gone and ends it at once.
settled() {
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    no_pids_with "$1" || return 1
    sleep 0.2
  done
}
# none_left TEXT: as no_pids_with, and when some process is left it is shown
# (id, parent, seconds alive, command line) on stderr, for the failure's log.
none_left() {
  local pids
  pids=$(pids_with "$1") || return 0
  # shellcheck disable=SC2086
  ps -o pid=,ppid=,etimes=,args= -p "$(echo $pids | tr ' ' ,)" >&2 || true
  return 1
}

# same_match A.json B.json: the two summaries hold the same games (index,
# round, colours, result, reason, fault, plies, score) and the same W/L/D,
# pentanomial, Elo, LOS and SPRT LLR and verdict; timings are not compared. Prints the
# tally. same_match A B prefix: A's games are the first of B's.
same_match() {
  python3 - "$@" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def games(s):
    return [(g["index"], g["round"], g["first"], g["second"], g["result"],
             g["reason"], g["fault"], g["plies"], g["score"]) for g in s["games"]]
def table(s):
    keys = ("games", "wins", "losses", "draws", "pentanomial", "elo", "los")
    t = [{k: p.get(k) for k in keys} for p in s["pairings"]]
    sprt = s.get("sprt") or {}
    return t, sprt.get("llr"), sprt.get("result")
ga, gb = games(a), games(b)
if len(sys.argv) > 3 and sys.argv[3] == "prefix":
    # A's games are B's first ones (a prefix of shards against the whole match).
    gb = gb[:len(ga)]
    if ga != gb:
        sys.exit(f"games differ from the first {len(ga)} of {sys.argv[2]}")
    print(f"{len(ga)} games: the first {len(ga)} of the unsharded match")
    sys.exit(0)
if ga != gb:
    diff = [(x, y) for x, y in zip(ga, gb) if x != y][:3]
    sys.exit(f"games differ: {len(ga)} vs {len(gb)}; first differences {diff}")
if table(a) != table(b):
    sys.exit(f"tables differ: {table(a)} vs {table(b)}")
p = a["pairings"][0]
print(f"{len(ga)} games, {p['wins']}-{p['losses']}-{p['draws']}, pairs {p['pentanomial']}: the same")
EOF
}

# status_of FILE.json: the summary's status (finished, interrupted, ...).
status_of() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$1"
}

# summary_of FILE.json: its status, or 'no summary' when the arena wrote none.
summary_of() { if [ -f "$1" ]; then status_of "$1"; else echo "no summary"; fi; }

# games_in STATE: the games a state file holds (its lines less the header).
games_in() {
  if [ -f "$1" ]; then echo $(($(wc -l < "$1") - 1)); else echo 0; fi
}
