#!/usr/bin/env bash
# The GNU parallel recipe over ssh, run for real: an sshd on 127.0.0.1 (two
# ports, key-only: two logins of this machine), tools/arena/deploy/parallel.sh
# with SSHLOGINFILE naming both, and:
#
#   1. a 40-game match as 4 shards over the two logins, merged: equal to the
#      match played unsharded
#   2. a 40-game match as 4 shards, shard 2's arena sent SIGTERM mid-way:
#      parallel.sh reports the failed shard; the same command again reruns
#      only that one (--resume-failed), which resumes from its state file; the
#      merge is equal to the match played unsharded
#   3. an SPRT as 20 shards over the two logins: sprt-watch.sh --cancel
#      'kill PID' stops parallel.sh on H1 (the shards not started never
#      start, the running ones stop, here and over ssh); the merged result is
#      what the finished shards 1..K hold (the first games of the unsharded
#      match)
#   4. parallel.sh sent SIGTERM while shards run on both logins: it exits 130,
#      no arena is left here or over ssh, and the same command again finishes
#      the match, equal to the match played unsharded
#
#   tools/arena/deploy/test/ssh-e2e.sh      # as root, after cargo build --release --workspace
#
# Debian's openssh-server, openssh-client and parallel are installed when
# missing. sshd, its keys and the shards live in one folder under /tmp; all is
# stopped and deleted at the end, whatever happened (KEEP=1 keeps the folder).
# Last line: "ssh-e2e: N passed, M failed". ARENA, ENGINE as in slurm-e2e.sh.
set -euo pipefail
# shellcheck source=tools/arena/deploy/test/lib.sh
source "$(dirname "$0")/lib.sh"
need /usr/sbin/sshd:openssh-server ssh:openssh-client parallel:parallel python3:python3
start_run

# --- sshd on the loopback, key-only --------------------------------------------
mkdir -p "$D/ssh" "$D/run" "$D/log"
chmod 700 "$D/ssh"
ssh-keygen -q -t ed25519 -N '' -C arena-e2e-host -f "$D/ssh/host_ed25519"
ssh-keygen -q -t ed25519 -N '' -C arena-e2e-user -f "$D/ssh/id_ed25519"
cp "$D/ssh/id_ed25519.pub" "$D/ssh/authorized_keys"
p1=$(free_port)
p2=$(free_port)
cat > "$D/ssh/sshd_config" <<EOF
ListenAddress 127.0.0.1:$p1
ListenAddress 127.0.0.1:$p2
HostKey $D/ssh/host_ed25519
PidFile $D/run/sshd.pid
AuthorizedKeysFile $D/ssh/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers root
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
EOF
cat > "$D/ssh/config" <<EOF
Host arena-a
  Port $p1
Host arena-b
  Port $p2
Host arena-*
  HostName 127.0.0.1
  User root
  IdentityFile $D/ssh/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $D/ssh/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
EOF
for p in "$p1" "$p2"; do
  echo "[127.0.0.1]:$p $(cut -d' ' -f1,2 "$D/ssh/host_ed25519.pub")"
done > "$D/ssh/known_hosts"
# sshd wants its privilege separation folder (Debian's service makes it).
mkdir -p /run/sshd
env "$TAG" /usr/sbin/sshd -D -f "$D/ssh/sshd_config" -E "$D/log/sshd.log" &
ssh_ok() { ssh -F "$D/ssh/config" "$1" true 2> /dev/null; }
wait_until 10 "sshd answers on port $p1 (see $D/log/sshd.log)" ssh_ok arena-a
wait_until 10 "sshd answers on port $p2" ssh_ok arena-b
listening=$(ss -Htln | awk '{print $4}' | grep -E ":($p1|$p2)\$" | sort | tr '\n' ' ')
check "sshd listens on the loopback only: $listening" \
  test "$listening" = "$(printf '127.0.0.1:%s\n' "$p1" "$p2" | sort | tr '\n' ' ')"
no_password() {
  ! ssh -F "$D/ssh/config" -o PubkeyAuthentication=no \
    -o PreferredAuthentications=password,keyboard-interactive arena-a true 2> "$D/log/nopw.txt" &&
    grep -q 'Permission denied (publickey)' "$D/log/nopw.txt"
}
check "sshd takes keys only: without the key, 'Permission denied (publickey)'" no_password
printf '1/arena-a\n1/arena-b\n' > "$D/logins"
export PARALLEL_SSH="ssh -F $D/ssh/config"
say "logins: $(tr '\n' ' ' < "$D/logins")with PARALLEL_SSH='$PARALLEL_SSH'"

m1=(--game rekushu --size 6 --engine "r1=$ENGINE" --engine "r2=$ENGINE"
  --init 'r1=level random' --init 'r2=level random' --init 'r2=setoption seed 5'
  --games 40 --seed 3)
search=(--game rekushu --size 6 --engine "search=$ENGINE" --engine "random=$ENGINE"
  --nodes search=3000 --init 'random=level random' --init 'random=setoption seed 5'
  --seed 3)
m2=("${search[@]}" --games 40)
"$ARENA" "${m1[@]}" --quiet --json "$D/whole1.json" > /dev/null
"$ARENA" "${m2[@]}" --quiet --json "$D/whole2.json" > /dev/null

# parallel.sh N OUT MATCH... over the two logins, from the repository.
run_parallel() {
  (cd "$repo" && env "$TAG" ARENA="$ARENA" SSHLOGINFILE="$D/logins" \
    timeout 300 "$deploy/parallel.sh" "$@")
}
# The joblog's runs from line FROM on: "SHARD HOST EXIT" (its columns 9:
# Command, 2: Host, 7: Exitval).
runs() {
  tail -n +"${2:-2}" "$1" | awk -F'\t' '{
    s = $9; sub(/.*--shard /, "", s); sub(/\/.*/, "", s); print s, $2, $7 }'
}
hosts_used() { runs "$1" | awk '{print $2}' | sort -u | tr '\n' ' '; }

# --- 1. four shards over ssh, merged == unsharded -------------------------------
t=$(date +%s)
out=$D/p1
run_parallel 4 "$out" "${m1[@]}" > "$D/log/p1.txt" 2>&1 ||
  die "parallel.sh failed: $(tail -n 5 "$D/log/p1.txt")"
hosts=$(hosts_used "$out/joblog")
check "4 shards ran on both logins: $hosts" test "$hosts" = "arena-a arena-b "
check "merged.json = unsharded: $(same_match "$out/merged.json" "$D/whole1.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole1.json"
say "1. $(($(date +%s) - t)) s"

# --- 2. a shard killed, --resume-failed ------------------------------------------
t=$(date +%s)
out=$D/p2
mkdir -p "$out"
status=0
run_parallel 4 "$out" "${m2[@]}" > "$D/log/p2-first.txt" 2>&1 &
pp=$!
mid_way() { [ "$(games_in "$out/shard-2.state")" -ge 1 ]; }
wait_until 120 "shard 2 plays its games" mid_way
# The arena of shard 2 (not the ssh client or the remote shell around it).
victim=
for p in $(pids_with "$out/shard-2.state" || true); do
  [ "$(readlink "/proc/$p/exe" 2> /dev/null)" = "$ARENA" ] && victim=$p
done
[ -n "$victim" ] || die "no arena process for shard 2"
kill -TERM "$victim"
say "SIGTERM to shard 2's arena (pid $victim) after $(games_in "$out/shard-2.state") of its 10 games"
wait "$pp" || status=$?
cut=$(games_in "$out/shard-2.state")
check "parallel.sh exits 1 and names the failed shard (exit $status)" \
  grep -q '1 shard(s) failed' "$D/log/p2-first.txt"
check "the joblog has shard 2 failed ($(runs "$out/joblog" | awk '$1 == 2 {print "exit " $3}'))" \
  test "$(runs "$out/joblog" | awk '$1 == 2 {print $3}')" != 0
check "shard 2 was cut short: $cut of 10 games saved, summary '$(status_of "$out/shard-2.json")'" \
  test "$cut" -lt 10
lines=$(wc -l < "$out/joblog")
run_parallel 4 "$out" "${m2[@]}" > "$D/log/p2-again.txt" 2>&1 ||
  die "parallel.sh again failed: $(tail -n 5 "$D/log/p2-again.txt")"
again=$(runs "$out/joblog" $((lines + 1)) | awk '{print "shard " $1 " on " $2 ", exit " $3}')
check "the same command again ran only shard 2: $again" \
  test "$(runs "$out/joblog" $((lines + 1)) | awk '{print $1}')" = 2
check "shard 2's state file now holds its 10 games, each once" \
  test "$(games_in "$out/shard-2.state")" -eq 10
check "merged.json = unsharded: $(same_match "$out/merged.json" "$D/whole2.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole2.json"
say "2. $(($(date +%s) - t)) s"

# --- 3. an SPRT stopped by the watcher: SIGTERM to parallel.sh -------------------
t=$(date +%s)
out=$D/p3
mkdir -p "$out"
# 20 shards of 4 games; the SPRT decides after 10 pairs (shard 5).
m3=("${search[@]}" --games 80 --sprt elo0=0 elo1=200)
(cd "$repo" && exec env "$TAG" ARENA="$ARENA" SSHLOGINFILE="$D/logins" \
  "$deploy/parallel.sh" 20 "$out" "${m3[@]}") > "$D/log/p3.txt" 2>&1 &
pp=$!
watch_status=0
timeout 300 env ARENA="$ARENA" "$deploy/sprt-watch.sh" --wait 0.3 --cancel "kill $pp" \
  20 "$out" > "$out/watch.txt" 2>&1 || watch_status=$?
status=0
wait "$pp" || status=$?
check "sprt-watch exits 0 on a verdict (exit $watch_status): $(grep -o 'LLR.*' "$out/prefix.txt")" \
  grep -q 'H1 accepted' "$out/prefix.txt"
check "kill PID stops parallel.sh: exit $status, '$(grep -o 'stopped by [A-Z]*' "$D/log/p3.txt")'" \
  test "$status" -eq 130
wait_until 20 "the arenas of the stopped match end and no late one starts" settled "$out/"
check "no arena of the match is left, here or over ssh" none_left "$out/"
# A shard's arena writes its state file's header as it starts (the joblog
# has only the jobs that ended).
begun=$(find "$out" -maxdepth 1 -name 'shard-*.state' | wc -l)
k=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["shards"]))' "$out/prefix.json")
check "$begun of 20 shards had started (state files), shards 1..$k had finished at the verdict" \
  test "$begun" -lt 20
for i in $(seq $((k + 1)) 20); do
  [ -f "$out/shard-$i.state" ] || continue
  say "shard $i: $(summary_of "$out/shard-$i.json"), $(games_in "$out/shard-$i.state") games in its state file"
done
prefix=()
for i in $(seq 1 "$k"); do prefix+=("$out/shard-$i.json"); done
"$ARENA" merge "${prefix[@]}" --json "$out/check.json" > /dev/null 2>&1
check "the watcher's merge is what shards 1..$k hold: $(same_match "$out/prefix.json" "$out/check.json" 2>&1)" \
  same_match "$out/prefix.json" "$out/check.json"
check "and those are the unsharded match's first games: $(same_match "$out/prefix.json" "$D/whole2.json" prefix 2>&1)" \
  same_match "$out/prefix.json" "$D/whole2.json" prefix
say "3. $(($(date +%s) - t)) s"

# --- 4. parallel.sh stopped while shards run over ssh, then run again ----------
t=$(date +%s)
out=$D/p4
mkdir -p "$out"
(cd "$repo" && exec env "$TAG" ARENA="$ARENA" SSHLOGINFILE="$D/logins" \
  "$deploy/parallel.sh" 4 "$out" "${m2[@]}") > "$D/log/p4-first.txt" 2>&1 &
pp=$!
both_running() { [ "$(games_in "$out/shard-1.state")" -ge 1 ] && [ "$(games_in "$out/shard-2.state")" -ge 1 ]; }
wait_until 120 "shards 1 and 2 play their games" both_running
kill -TERM "$pp"
status=0
wait "$pp" || status=$?
check "kill PID while shards 1 and 2 run: parallel.sh exits $status, '$(grep -o 'stopped by [A-Z]*' "$D/log/p4-first.txt")'" \
  test "$status" -eq 130
wait_until 20 "the arenas of the stopped match end and no late one starts" settled "$out/"
check "no arena of the match is left, here or over ssh" none_left "$out/"
saved=$(for i in 1 2 3 4; do
  echo "shard $i: $(games_in "$out/shard-$i.state") games, $(summary_of "$out/shard-$i.json");"
done | tr '\n' ' ')
# Each arena that was running got SIGTERM over ssh, saved, wrote its summary.
stopped_and_saved() {
  local a b
  a=$(summary_of "$out/shard-1.json")
  b=$(summary_of "$out/shard-2.json")
  case "$a $b" in
    "interrupted interrupted" | "interrupted finished" | "finished interrupted") ;;
    *) return 1 ;;
  esac
}
check "the running shards stopped with their games saved and their summaries written ($saved)" \
  stopped_and_saved
run_parallel 4 "$out" "${m2[@]}" > "$D/log/p4-again.txt" 2>&1 ||
  die "parallel.sh again failed: $(tail -n 5 "$D/log/p4-again.txt")"
check "the same command again finished the match: $(same_match "$out/merged.json" "$D/whole2.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole2.json"
say "4. $(($(date +%s) - t)) s"

