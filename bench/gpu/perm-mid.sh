#!/usr/bin/env bash
# Issue 13, midpoint check on the H100 from the bundle: the generated kernels now rebuild x every 2^16 steps of a
# work-item (--restart 16, the default; --restart 0: once per work-item, as before), so the error estimate follows
# 2^16-step segments instead of 2^20-2^21-step chunks; the sweep cost model is calibrated (SweepCost). Measures:
#   1. ER n=40 p=0.5 seed 1 twice (NVRTC build, then the build cache) and once with --restart 0: time, kernel time,
#      estimate time and its share of the sweep (timings.estimate_fraction, estimate_work_fraction), the bound, and
#      the predicted Ryser seconds in the block's reason (the cost model's figure)
#   2. honesty of the estimate with restarts: for ER n=32 p=0.5 (seeds 1-3), mixed-sign dense n=30/34 (entries
#      +-10^U(-4,4), generated here with numpy) and ER n=36 p=0.5: the double sweep with --no-escalate at --restart 16
#      and 0, against a reference from the same binary with --tol 1e-15 (mixed: 1e-12), which escalates to the
#      double-double kernel generated per matrix on the device (codegen-dd@cuda:0: its time is the new kernel's rate);
#      summary.txt gives actual error / printed estimate per run (must stay <= 1)
#   3. warm latency of a 2^28-step problem (n=29 p=0.5, --repeat 30): the estimate beside a ~1 ms sweep; and of ER
#      n=40 p=0.1 (an 18-block on the JVM: the estimate after a ~1 ms JVM sweep)
# Writes under $OUT: runs.jsonl (one JSON line per run, "label" and "command" added), console.txt, summary.txt
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-run
S="$B/bin/squall"
log() { echo "$@" | tee -a "$OUT/console.txt" >&2; }
log "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores"
start=$SECONDS
BUDGET=${BUDGET:-150}

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

# mixed-sign dense matrices, magnitudes over 8 orders (Matrix Market, exact decimals)
M=/tmp/perm-mid-matrices; mkdir -p "$M"
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

# 1. ER n=40 p=0.5: build, cached, and the old one-segment kernel
run "er40-p0.5-build" 60 --random 40:0.5:1 --device cuda:0 --timings
run "er40-p0.5-cached" 60 --random 40:0.5:1 --device cuda:0 --timings
# 2. the estimate's honesty: double sweep (restart 16 / 0) against the double-double device reference
for seed in 1 2 3; do
  run "er32-s$seed-r16" 30 --random 32:0.5:$seed --device cuda:0 --no-escalate
  run "er32-s$seed-ref" 30 --random 32:0.5:$seed --device cuda:0 --tol 1e-15
  run "er32-s$seed-r0" 30 --random 32:0.5:$seed --device cuda:0 --no-escalate --restart 0
done
for n in 30 34; do
  run "mixed$n-r16" 30 --matrix "$M/mixed$n.mtx" --device cuda:0 --no-escalate --no-decompose
  run "mixed$n-ref" 40 --matrix "$M/mixed$n.mtx" --device cuda:0 --no-decompose --tol 1e-12
  run "mixed$n-r0" 30 --matrix "$M/mixed$n.mtx" --device cuda:0 --no-escalate --no-decompose --restart 0
done
run "er40-p0.5-r0" 60 --random 40:0.5:1 --device cuda:0 --timings --restart 0
# 3. warm latency (median of 30 in one process); the fastest run's timings give the estimate's share when warm
run "latency-n29-p0.5" 40 --random 29:0.5:1 --device cuda:0 --repeat 30
run "latency-er40-p0.1" 40 --random 40:0.1:1 --device cuda:0 --repeat 30
run "er36-s1-r16" 30 --random 36:0.5:1 --device cuda:0 --no-escalate
run "er36-s1-ref" 60 --random 36:0.5:1 --device cuda:0 --tol 1e-15

python3 bench/peers/perm_mid_summary.py "$OUT/runs.jsonl" > "$OUT/summary.txt"
cat "$OUT/summary.txt"
