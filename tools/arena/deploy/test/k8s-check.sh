#!/usr/bin/env bash
# The Kubernetes recipe, as far as it can be run without a cluster:
#
#   1. tools/arena/deploy/k8s-indexed-job.yaml validated, strictly (unknown
#      fields refused), against the Kubernetes OpenAPI schemas of 1.25 (the
#      oldest it carries; Indexed Jobs are stable since 1.24) and 1.37 by
#      kubernetes-validate 1.37.0, from PyPI
#      (installed in a virtual environment in the run folder); the Job's
#      completions equal its SHARDS
#   2. the Job's pod script, read from the manifest, run by bash outside
#      Kubernetes for every completion index 0..3 (JOB_COMPLETION_INDEX, as
#      the Job controller sets it) with a 40-game MATCH_FILE: the shards'
#      merge equals the match played unsharded
#
# No Kubernetes cluster runs here: scheduling, the volume, eviction and
# `kubectl delete job` are not tested.
#
#   tools/arena/deploy/test/k8s-check.sh     # after cargo build --release --workspace
#
# Last line: "k8s-check: N passed, M failed". ARENA, ENGINE as in slurm-e2e.sh.
set -euo pipefail
# shellcheck source=tools/arena/deploy/test/lib.sh
source "$(dirname "$0")/lib.sh"
need python3:python3
start_run
manifest=$deploy/k8s-indexed-job.yaml

# --- 1. the schemas ------------------------------------------------------------
python3 -m venv "$D/venv"
"$D/venv/bin/pip" install -q --disable-pip-version-check kubernetes-validate==1.37.0 > "$D/pip.txt" 2>&1 ||
  die "pip install kubernetes-validate: $(tail -n 3 "$D/pip.txt")"
kv=$D/venv/bin/kubernetes-validate
for v in 1.25 1.37; do
  check "kubernetes-validate --strict -k $v: $("$kv" --strict -k "$v" "$manifest" 2>&1 | grep -o 'passed for resource [^ ]*' | tr '\n' ' ')" \
    "$kv" --strict -k "$v" "$manifest"
done
# A manifest with a misspelt field must fail, or the check above means nothing.
sed 's/backoffLimit:/backofLimit:/' "$manifest" > "$D/misspelt.yaml"
check "and refuses a misspelt field: $("$kv" --strict "$D/misspelt.yaml" 2>&1 | grep -o "Additional.*" || true)" \
  bash -c "! '$kv' --strict '$D/misspelt.yaml'"

# The pod's script and the Job's numbers, read from the manifest.
"$D/venv/bin/python" - "$manifest" "$D" <<'EOF'
import sys, yaml
docs = {d["kind"]: d for d in yaml.safe_load_all(open(sys.argv[1]))}
job = docs["Job"]
pod = job["spec"]["template"]["spec"]
c = pod["containers"][0]
env = {e["name"]: e["value"] for e in c.get("env", [])}
open(f"{sys.argv[2]}/pod.sh", "w").write(c["args"][0])
open(f"{sys.argv[2]}/job.txt", "w").write(
    f'{job["spec"]["completions"]} {env["SHARDS"]} {job["spec"]["completionMode"]} {c["command"][0]}\n')
open(f"{sys.argv[2]}/configmap-match.sh", "w").write(docs["ConfigMap"]["data"]["match.sh"])
EOF
read -r completions shards mode shell < "$D/job.txt"
check "completionMode $mode, completions $completions = SHARDS $shards" \
  test "$mode $completions" = "Indexed $shards"
check "the ConfigMap's match.sh sets MATCH" \
  bash -c "source '$D/configmap-match.sh'; [ \${#MATCH[@]} -gt 0 ]"

# --- 2. the pod script for each index -------------------------------------------
m1=(--game rekushu --size 6 --engine "r1=$ENGINE" --engine "r2=$ENGINE"
  --init 'r1=level random' --init 'r2=level random' --init 'r2=setoption seed 5'
  --games 40 --seed 3)
match_file "$D/m1.sh" "${m1[@]}"
"$ARENA" "${m1[@]}" --quiet --json "$D/whole1.json" > /dev/null
out=$D/results
mkdir -p "$out"
for k in 0 1 2 3; do
  env "$TAG" JOB_COMPLETION_INDEX=$k SHARDS=4 ARENA="$ARENA" OUT="$out" MATCH_FILE="$D/m1.sh" \
    "$shell" -c "$(cat "$D/pod.sh")" > "$out/pod-$k.txt" 2>&1 ||
    die "the pod script for index $k: $(tail -n 3 "$out/pod-$k.txt")"
done
check "indexes 0..3 played shards 1/4..4/4: $(grep -ho 'shard [0-9]/4' "$out"/pod-*.txt | tr '\n' ' ')" \
  test "$(grep -ho 'shard [0-9]/4' "$out"/pod-*.txt | tr '\n' ' ')" = "shard 1/4 shard 2/4 shard 3/4 shard 4/4 "
"$ARENA" merge "$out"/shard-{1,2,3,4}.json --json "$out/merged.json" > /dev/null
check "merged = unsharded: $(same_match "$out/merged.json" "$D/whole1.json" 2>&1)" \
  same_match "$out/merged.json" "$D/whole1.json"
