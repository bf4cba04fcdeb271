#!/usr/bin/env bash
# The layer rules of CONTRIBUTING.md, checked on the source text (run by .ci/run;
# no build needed). Exit status 1 with one line per violation, 0 when clean.
#
# 1. Imports follow the layers of src/lib.rs: core -> games -> record -> search
#    -> engine -> protocol -> bench, analysis; a layer never names one below it
#    (`crate::search` in src/games, ...). Comment lines are not looked at.
# 2. Library code never prints: no print!/println!/eprint!/eprintln!/dbg! and no
#    std::io::stdout()/stderr()/stdin() outside the binaries (src/main.rs,
#    tools/*/src/main.rs, tools/*/src/bin/, and tool crates without a lib.rs,
#    which are one binary). Unit tests are exempt: a file is read up to its
#    first `#[cfg(test)]`.
# 3. A binary built with `test = false` (Cargo.toml) holds no tests, since
#    Cargo would not run them.
# (1c-1e: nothing outside the repository, notation parsed only by the library,
#  one engine client.)
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
fail() {
    echo "layercheck: $*"
    status=1
}

# Code lines of a file (comments dropped), up to its first #[cfg(test)].
code() {
    awk '/^[[:space:]]*#\[cfg\(test\)\]/ { exit } { print FILENAME ":" FNR ":" $0 }' "$1" |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'
}

# 1. Layers: <path> <layers it must not name>.
layers=(
    "src/core      games record search solve engine protocol bench analysis"
    "src/games     record search solve engine protocol bench analysis"
    "src/record    search solve engine protocol bench analysis"
    "src/search    solve engine protocol bench analysis"
    "src/solve     record search engine protocol bench analysis"
    "src/engine    protocol bench analysis"
    "src/protocol  bench analysis"
)
for entry in "${layers[@]}"; do
    read -r path forbidden <<<"$entry"
    alternatives=$(tr ' ' '|' <<<"$forbidden")
    while IFS= read -r file; do
        # `crate::search::...` on a line, or `search::` inside a `use crate::{...}`.
        hits=$(code "$file" | grep -E "crate::($alternatives)\b")
        grouped=$(code "$file" | cut -d: -f3- | tr '\n' ' ' | grep -oE "use crate::\{[^;]*\b($alternatives)(::|\b)[^;]*;" || true)
        if [[ -n "$hits" ]]; then
            fail "$path must not use the layers below it ($forbidden):"
            echo "$hits"
        fi
        if [[ -n "$grouped" ]]; then
            fail "$file: a grouped import names a layer below $path ($forbidden): $grouped"
        fi
    done < <(find "$path" -name '*.rs' | sort)
done

# 1b. Protocol files never import each other both ways (`use super::x` in y and
#     `use super::y` in x): handlers use the engine and args.rs, only the table
#     names the handlers.
declare -A imports
for file in src/protocol/*.rs; do
    name=$(basename "$file" .rs)
    imports[$name]=$(code "$file" | cut -d: -f3- | sed -E 's/ as [a-z_]+//g' | grep -oE 'super::(\{[^}]*\}|[a-z_]+)' | tr -d '{} ' | sed 's/super:://' | tr ',' '\n' | grep -oE '^[a-z_]+' | sort -u | tr '\n' ' ')
done
for a in "${!imports[@]}"; do
    for b in ${imports[$a]}; do
        [[ $a < $b ]] || continue
        if [[ " ${imports[$b]:-} " == *" $a "* ]]; then
            fail "src/protocol/$a.rs and src/protocol/$b.rs import each other"
        fi
    done
done

# 1c. Nothing outside the repository: no tracked file names a path above it
#     (`../shared/`, the spec's file name); the rules are docs/rules.md.
while IFS= read -r hit; do
    fail "a path outside the repository: $hit"
done < <(git grep -nE '\.\./shared|RULES\.md' -- . ':!tools/layercheck.sh' 2>/dev/null)

# 1d. The rules are written once, in the library: the tools parse no notation
#     and replay no moves themselves (the page draws what the server sends).
while IFS= read -r hit; do
    fail "notation parsed outside the library: $hit"
done < <(git grep -nE 'function parse(Vertex|Rect|RebusMove|Square)|fn parse_(vertex|rect|square|rebus_move|move_text)\b' -- tools 2>/dev/null)

# 1e. One engine client: only tools/client starts engine processes in the
#     tools' Rust code (tests may start whatever they test).
while IFS= read -r hit; do
    fail "an engine process started outside tools/client: $hit"
done < <(git grep -nE 'Command::new' -- 'tools/*/src/*.rs' 'tools/*/src/**/*.rs' ':!tools/client' 2>/dev/null)

# 2. Printing. Files allowed to print for now, each with its reason (issue 10).
allowed=(
    # `arena book` (its CLI, progress lines and errors) lives in the library;
    # it belongs in the binary.
    "tools/arena/src/book.rs"
    # The tournament's progress bar and per-game lines go to stderr from the
    # library; they belong behind a progress sink the binary provides.
    "tools/arena/src/tournament.rs"
)
is_binary() {
    local f=$1
    [[ $f == src/main.rs ]] && return 0
    [[ $f =~ ^tools/[^/]+/src/main\.rs$ ]] && return 0
    [[ $f =~ ^tools/[^/]+/src/bin/ ]] && return 0
    # A tool crate without a library is one binary: all its modules are it.
    if [[ $f =~ ^(tools/[^/]+)/src/ ]] && [[ ! -f ${BASH_REMATCH[1]}/src/lib.rs ]]; then
        return 0
    fi
    return 1
}
while IFS= read -r file; do
    is_binary "$file" && continue
    hits=$(code "$file" | grep -E '\b(e?print(ln)?|dbg)!|io::(stdout|stderr|stdin)\(\)')
    [[ -z "$hits" ]] && continue
    if printf '%s\n' "${allowed[@]}" | grep -qxF "$file"; then
        continue
    fi
    fail "$file prints (only binaries may; return text or take a writer):"
    echo "$hits"
done < <(find src tools -path '*/tests' -prune -o -name '*.rs' -print | grep -E '^src/|/src/' | sort)

# 3. Targets with `test = false` hold no tests.
for manifest in Cargo.toml tools/*/Cargo.toml; do
    dir=$(dirname "$manifest")
    # The path of each [[bin]] whose block says test = false.
    while IFS= read -r rel; do
        file="$dir/$rel"
        file=${file#./}
        if grep -nE '#\[(test|cfg\(test\))\]' "$file"; then
            fail "$file has tests, but its target in $manifest says test = false (they would never run)"
        fi
    done < <(awk 'function flush() { if (inbin && notest && path != "") print path }
                 /^\[/ { flush(); inbin = ($0 == "[[bin]]"); path = ""; notest = 0 }
                 inbin && /^path *=/ { p = $0; gsub(/^path *= *"|".*$/, "", p); path = p }
                 inbin && /^test *= *false/ { notest = 1 }
                 END { flush() }' "$manifest")
done

if [[ $status -eq 0 ]]; then
    echo "layercheck: ok (layers, printing, test = false targets)"
fi
exit $status
