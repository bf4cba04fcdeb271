#!/usr/bin/env bash
# The bench signature check (CONTRIBUTING.md, "Commit messages"), run by .ci/run
# after the tests: the `Bench: N` line of the last commit that touched
# src/search, src/games or src/bench must be what the built `tessera bench`
# prints.
#
# Commits that descend from the one that made the bench cover `mike` (the first
# commit adding BENCH_LEVELS to src/bench.rs) state the total (`Bench:`); older
# ones stated the hard-only signature, compared with the `Bench hard:` line.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${CARGO_TARGET_DIR:-target}/release/tessera"
if [[ ! -x $bin ]]; then
    cargo build --release --bin tessera
fi

fail() {
    echo "benchcheck: $*" >&2
    exit 1
}

commit=$(git log -1 --format=%H -- src/search src/games src/bench)
[[ -n $commit ]] || fail "no commit in this clone's history touches src/search, src/games or src/bench (a shallow clone? fetch more history)"
subject=$(git log -1 --format='%h %s' "$commit")
claimed=$(git log -1 --format=%B "$commit" | sed -n 's/^Bench: *\([0-9][0-9]*\) *$/\1/p' | tail -n 1)
[[ -n $claimed ]] || fail "commit $subject touches src/search, src/games or src/bench but its message has no 'Bench: N' line (run 'tessera bench'; its last line is the one to write)"

out=$("$bin" bench)
total=$(sed -n 's/^Bench: *\([0-9][0-9]*\)$/\1/p' <<<"$out")
hard=$(sed -n 's/^Bench hard: *\([0-9][0-9]*\)$/\1/p' <<<"$out")
[[ -n $total && -n $hard ]] || fail "could not read 'Bench:' and 'Bench hard:' from '$bin bench':"$'\n'"$out"

# The whole list first: `| head -n 1` would close the pipe on git, and under
# pipefail its SIGPIPE (exit 141) would end this script.
markers=$(git log --reverse --format=%H -S BENCH_LEVELS -- src/bench.rs)
marker=${markers%%$'\n'*}
if [[ -n $marker ]] && git merge-base --is-ancestor "$marker" "$commit"; then
    expected=$total what="the total (hard and mike, both games)"
else
    expected=$hard what="the hard part (the commit predates the bench's mike parts)"
fi
if [[ $claimed != "$expected" ]]; then
    fail "commit $subject says 'Bench: $claimed', but tessera bench prints $what $expected:"$'\n'"$out"
fi
echo "benchcheck: ok, $subject: Bench: $claimed is $what"
