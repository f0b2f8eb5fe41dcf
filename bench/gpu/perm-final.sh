#!/usr/bin/env bash
# Issue 13 (permanents you can trust), the proof set on the H100 from the bundle (no JDK there):
#   ./scripts/bundle              # here: builds dist/squall-bundle.tar.gz
#   device run, carry dist/ and shared/data:   bash bench/gpu/perm-final.sh      (BUDGET=480 s by default)
# Every run is `squall permanent ... --device cuda:0 --json` (default preprocessing and tolerance 1e-8 unless said):
# time, method per block, blocks, error bound, timings (estimate against the sweep: estimate_fraction,
# estimate_work_fraction), the cost model's predicted Ryser seconds (in the block's reason).
#   1. Erdos-Renyi n=40 p=0.1 and p=0.5, each twice (the first builds the generated kernel with NVRTC, the second
#      finds it in $SQUALL_CACHE)
#   2. banded / mesh-like n=50..60 and dense34 n=40 (RegressionMatrices: mixed signs over 8 orders)
#   3. shared/data: ani1 (36), mesh1e1 (48), mycielskian6 (47; ~60 s of generated kernel); bcsstk01 (48; ~150 s) last,
#      only when the budget has room
#   4. the estimate's honesty: ER n=32 p=0.5 seeds 1-3, ER n=36 p=0.5, mixed-sign dense n=30/34 (numpy, +-10^U(-4,4)):
#      the double sweep (--no-escalate) against a reference from --tol 1e-15 / 1e-12 (escalates to the double-double
#      kernel generated per matrix, codegen-dd@cuda:0); summary: actual error over the printed estimate (<= 1 holds)
#   5. escalation to double-double at n=38 (ER p=0.5, --tol 1e-15: 2^37 double-double steps)
#   6. warm latency, --repeat 30 in one process: 2^28 steps (n=29 p=0.5), ER n=40 p=0.1, mesh n=56
# Writes under $OUT: runs.jsonl (one JSON line per run, "label" and "command" added), console.txt, summary.txt
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-run
S="$B/bin/squall"
log() { echo "$@" | tee -a "$OUT/console.txt" >&2; }
log "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores"
DATA=""
for d in shared/data ../shared/data; do [ -d "$d" ] && { DATA=$d; break; }; done
log "# data: ${DATA:-none found (shared/data, ../shared/data)}"
start=$SECONDS
BUDGET=${BUDGET:-480}

# run LABEL TIMEOUT ARGS...: the exact command and its JSON line into runs.jsonl
run() {
  local label=$1 limit=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 5 ]; then log "== $label: SKIPPED (time budget of ${BUDGET} s spent)"; return; fi
  [ "$limit" -gt "$l" ] && limit=$l
  local cmd="squall permanent $* --json"
  log "== $label ($((SECONDS - start)) s): $cmd"
  local js t0 t1
  t0=$(date +%s%N)
  js=$(timeout "$limit" "$S" permanent "$@" --json 2>>"$OUT/console.txt")
  local rc=$?
  t1=$(date +%s%N)
  local ms=$(( (t1 - t0 + 500000) / 1000000 )) wall
  wall=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)) | sed 's/0*$//; s/\.$/.0/')
  if [ -n "$js" ] && [ "${js:0:1}" = "{" ]; then
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"exit\":$rc,\"process_seconds\":$wall,${js#\{}" >> "$OUT/runs.jsonl"
  else
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"failed\":true,\"exit\":$rc,\"process_seconds\":$wall}" >> "$OUT/runs.jsonl"
    log "   FAILED (exit $rc; 124 = timed out after ${limit}s)"
  fi
}

M=/tmp/perm-final-matrices; mkdir -p "$M"
python3 - "$M" <<'PY'
import sys, numpy as np
for n, seed in ((30, 1), (34, 2)):
    r = np.random.default_rng(seed)
    a = r.choice([-1.0, 1.0], size=(n, n)) * 10.0 ** r.uniform(-4, 4, size=(n, n))
    with open(f"{sys.argv[1]}/mixed{n}.mtx", "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real general\n{n} {n} {n * n}\n")
        for i in range(n):
            for j in range(n):
                f.write(f"{i + 1} {j + 1} {a[i, j]:.6e}\n")
PY

# 1. Erdos-Renyi n=40, twice each (build, then cached)
for p in 0.1 0.5; do
  run "er40-p$p-first" 60 --random 40:$p:1 --device cuda:0 --timings
  run "er40-p$p-second" 60 --random 40:$p:1 --device cuda:0 --timings
done
# 2. banded / mesh-like n=50..60, rows of 3-4 nonzeros
for spec in banded:50:1 banded:55:2 banded:60:3 mesh:50:1 mesh:56:2 mesh:60:3 dense34:40:1; do
  run "gen-${spec//:/-}" 60 --generate "$spec" --device cuda:0
done
# 3. real matrices
if [ -n "$DATA" ]; then
  for f in ani1 mesh1e1 mycielskian6; do
    [ -f "$DATA/$f.mtx" ] && run "data-$f" 120 --matrix "$DATA/$f.mtx" --device cuda:0 --timings
  done
fi
# 4. the estimate's honesty against double-double references
for seed in 1 2 3; do
  run "er32-s$seed-r16" 30 --random 32:0.5:$seed --device cuda:0 --no-escalate
  run "er32-s$seed-ref" 30 --random 32:0.5:$seed --device cuda:0 --tol 1e-15
done
for n in 30 34; do
  run "mixed$n-r16" 30 --matrix "$M/mixed$n.mtx" --device cuda:0 --no-escalate --no-decompose
  run "mixed$n-ref" 40 --matrix "$M/mixed$n.mtx" --device cuda:0 --no-decompose --tol 1e-12
done
run "er36-s1-r16" 30 --random 36:0.5:1 --device cuda:0 --no-escalate
run "er36-s1-ref" 60 --random 36:0.5:1 --device cuda:0 --tol 1e-15
# 5. escalation to the generated double-double kernel at n=38
run "dd-er38-p0.5" 120 --random 38:0.5:1 --device cuda:0 --tol 1e-15 --timings
# 6. warm latency
run "latency-n29-p0.5-2^28-steps" 60 --random 29:0.5:1 --device cuda:0 --repeat 30
run "latency-er-n40-p0.1" 60 --random 40:0.1:1 --device cuda:0 --repeat 30
run "latency-mesh-n56" 60 --generate mesh:56:2 --device cuda:0 --repeat 30
# bcsstk01 (2^47 generated-kernel steps, ~150 s) only with room for it
if [ -n "$DATA" ] && [ -f "$DATA/bcsstk01.mtx" ] && [ "$(left)" -ge 180 ]; then
  run "data-bcsstk01" 175 --matrix "$DATA/bcsstk01.mtx" --device cuda:0 --timings
else
  log "== data-bcsstk01: not run ($(left) s left, needs 180)"
fi

{ python3 bench/peers/permanent_trust_summary.py "$OUT/runs.jsonl"; echo; python3 bench/peers/perm_mid_summary.py "$OUT/runs.jsonl"; } > "$OUT/summary.txt"
cat "$OUT/summary.txt"
