#!/usr/bin/env bash
# Issue 13 (permanents you can trust), the proof set on the H100 from the bundle (no JDK there):
#   ./scripts/bundle              # here: builds dist/squall-bundle.tar.gz
#   device run, carry dist/ and shared/data:   bash bench/gpu/perm-final.sh   (BUDGET=150 s by default; 330 runs all)
# Every run is `squall permanent ... --device cuda:0 --json` (default preprocessing and tolerance 1e-8 unless said):
# time, method per block, blocks, error bound, timings (estimate against the sweep: estimate_fraction,
# estimate_work_fraction), the cost model's predicted Ryser seconds (in the block's reason).
#   1. Erdos-Renyi n=40 p=0.1 and p=0.5, each twice (the first builds the generated kernel with NVRTC, the second
#      finds it in $SQUALL_CACHE)
#   2. the estimate's honesty: ER n=32 p=0.5 seeds 1-3 and n=36: the double sweep (--no-escalate) against --tol 1e-15,
#      which escalates to the double-double kernel generated per matrix (codegen-dd@cuda:0); summary: actual error
#      over the printed estimate (<= 1: it held)
#   3. escalation to double-double at n=38 (ER p=0.5, --tol 1e-15: 2^37 double-double steps)
#   4. banded / mesh-like n=50..60 and dense34 n=40 (RegressionMatrices: mixed signs over 8 orders)
#   5. shared/data ani1 (36), mesh1e1 (48): the frontier program on the device
#   6. warm latency, --repeat 30 in one process: 2^28 steps (n=29 p=0.5), ER n=40 p=0.1, mesh n=56
#   7. shared/data mycielskian6 (47; ~60 s) and bcsstk01 (48; ~150 s), each only when the budget has room
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


# 1. Erdos-Renyi n=40, twice each (build, then cached)
for p in 0.1 0.5; do
  run "er40-p$p-first" 60 --random 40:$p:1 --device cuda:0 --timings
  run "er40-p$p-second" 60 --random 40:$p:1 --device cuda:0 --timings
done
# 2. the estimate's honesty against the generated double-double kernel (the midpoint's misses: ER n=32 seeds 2, 3)
for spec in 32:0.5:2 32:0.5:3 32:0.5:1 36:0.5:1; do
  run "er${spec%%:*}-s${spec##*:}-r16" 30 --random $spec --device cuda:0 --no-escalate
  run "er${spec%%:*}-s${spec##*:}-ref" 30 --random $spec --device cuda:0 --tol 1e-15
done
# 3. escalation to the generated double-double kernel at n=38 (2^37 steps)
run "dd-er38-p0.5" 60 --random 38:0.5:1 --device cuda:0 --tol 1e-15 --timings
# 4. banded / mesh-like n=50..60, rows of 3-4 nonzeros
for spec in banded:50:1 banded:55:2 banded:60:3 mesh:50:1 mesh:56:2 mesh:60:3 dense34:40:1; do
  run "gen-${spec//:/-}" 30 --generate "$spec" --device cuda:0
done
# 5. real matrices (frontier program)
if [ -n "$DATA" ]; then
  for f in ani1 mesh1e1; do
    [ -f "$DATA/$f.mtx" ] && run "data-$f" 30 --matrix "$DATA/$f.mtx" --device cuda:0 --timings
  done
fi
# 6. warm latency
run "latency-n29-p0.5-2^28-steps" 30 --random 29:0.5:1 --device cuda:0 --repeat 30
run "latency-er-n40-p0.1" 30 --random 40:0.1:1 --device cuda:0 --repeat 30
run "latency-mesh-n56" 30 --generate mesh:56:2 --device cuda:0 --repeat 30
# 7. the long shared/data sweeps, only with room for them: mycielskian6 (2^46 generated-kernel steps, ~60 s), bcsstk01 (~150 s)
for f in mycielskian6:80 bcsstk01:170; do
  name=${f%%:*} need=${f##*:}
  if [ -n "$DATA" ] && [ -f "$DATA/$name.mtx" ] && [ "$(left)" -ge "$need" ]; then
    run "data-$name" "$need" --matrix "$DATA/$name.mtx" --device cuda:0 --timings
  else
    log "== data-$name: not run ($(left) s left, needs $need)"
  fi
done

{ python3 bench/peers/permanent_trust_summary.py "$OUT/runs.jsonl"; echo; python3 bench/peers/perm_mid_summary.py "$OUT/runs.jsonl"; } > "$OUT/summary.txt"
cat "$OUT/summary.txt"
