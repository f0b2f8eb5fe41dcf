#!/usr/bin/env bash
# Issue 13 (permanents you can trust) on the H100 host, from the bundle (no JDK there):
#   ./scripts/bundle              # here: builds dist/squall-bundle.tar.gz
#   device run, carry dist/:      bash bench/gpu/permanent-trust.sh
# Every run is `squall permanent ... --device cuda:0 --json` with default preprocessing (split, elimination, expansion)
# and the default tolerance 1e-8: time, method per block, blocks (orders, method, uses), error bound, timings.
#   1. the real matrices of shared/data (or ../shared/data) that are permanent inputs: ani1 (36), mycielskian6 (47),
#      bcsstk01 (48), mesh1e1 (48) -- the frontier program or expansion decides whether they finish in the time limit
#   2. Erdos-Renyi n=40 p=0.1 (issue: SUPerman 0.14 s) and p=0.5 (SUPerman 8.89 s), seed 1 as in bench/gpu/permanent.sh
#   3. banded / mesh-like n=50..60 (RegressionMatrices: banded, mesh = 5-point grid; mixed signs over 8 orders) and
#      dense34 n=40 (rows of 3-4 nonzeros: expansion); each also with --exact where it is affordable (the reference)
#   4. latency: a 2^28-step problem (n=29 p=0.5, one block), ER n=40 p=0.1 and mesh n=56, --repeat 30 in one process
#      (repeat_ms: every solve; median_ms: their median, the figure for a warm process; the fastest run's timings say
#      where the time goes: preprocess, estimate, generate, build (cached?), kernel wall time and, of it, the device's
#      kernel and copy time from device events); and the 2^28-step problem once in a cold process and with the generic
#      dense kernel (no per-matrix NVRTC build: the cost of a new matrix in a warm process)
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

# the whole script stays inside one device call (< 8 min): each run's timeout is capped by what is left of 450 s
start=$SECONDS
BUDGET=450

# run LABEL TIMEOUT ARGS...: the exact command and its JSON line into runs.jsonl
run() {
  local label=$1 limit=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 5 ]; then log "== $label: SKIPPED (time budget of ${BUDGET} s spent)"; return; fi
  [ "$limit" -gt "$l" ] && limit=$l
  local cmd="squall permanent $* --json"
  log "== $label: $cmd"
  local js t0 t1
  t0=$(date +%s%N)
  js=$(timeout "$limit" "$S" permanent "$@" --json 2>>"$OUT/console.txt")
  local rc=$?
  t1=$(date +%s%N)
  # seconds rounded to ms, written as a JSON number without trailing zeros (12.3, 7.0)
  local ms=$(( (t1 - t0 + 500000) / 1000000 )) wall
  wall=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)) | sed 's/0*$//; s/\.$/.0/')
  if [ -n "$js" ] && [ "${js:0:1}" = "{" ]; then
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"exit\":$rc,\"process_seconds\":$wall,${js#\{}" >> "$OUT/runs.jsonl"
    echo "$js" | head -c 2000 >> "$OUT/console.txt"; echo >> "$OUT/console.txt"
  else
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"failed\":true,\"exit\":$rc,\"process_seconds\":$wall}" >> "$OUT/runs.jsonl"
    log "   FAILED (exit $rc; 124 = timed out after ${limit}s)"
  fi
}

# 1. real matrices
if [ -n "$DATA" ]; then
  for f in ani1 mycielskian6 bcsstk01 mesh1e1; do
    # bcsstk01 (frontier width 42) and mycielskian6 (47) have no method in reach here: 30 s, recorded as timed out
    limit=90; case $f in bcsstk01|mycielskian6) limit=30 ;; esac
    [ -f "$DATA/$f.mtx" ] && run "data-$f" "$limit" --matrix "$DATA/$f.mtx" --device cuda:0
  done
fi

# 2. Erdos-Renyi n=40 (the comparison with SUPerman)
run "er-n40-p0.1" 60 --random 40:0.1:1 --device cuda:0
run "er-n40-p0.1-no-expand" 60 --random 40:0.1:1 --device cuda:0 --no-expand
run "er-n40-p0.5" 60 --random 40:0.5:1 --device cuda:0

# 3. banded / mesh-like n=50..60, rows of 3-4 nonzeros; exact references where affordable
for spec in banded:50:1 banded:55:2 banded:60:3 mesh:50:1 mesh:56:2 mesh:60:3 dense34:40:1; do
  run "gen-${spec//:/-}" 90 --generate "$spec" --device cuda:0
done
for spec in banded:55:2 mesh:56:2; do
  run "exact-${spec//:/-}" 90 --generate "$spec" --device cuda:0 --exact
done

# 4. latency: repeated in one process (median of 30; the first solves run the preprocessing in the interpreter)
run "latency-n29-p0.5-2^28-steps" 60 --random 29:0.5:1 --device cuda:0 --repeat 30
run "cold-n29-p0.5-2^28-steps" 60 --random 29:0.5:1 --device cuda:0
# the generic dense kernel (no per-matrix build): what a warm process pays for a new matrix without NVRTC
run "latency-n29-p0.5-generic-dense" 60 --random 29:0.5:1 --device cuda:0 --method dense --repeat 30
run "latency-er-n40-p0.1" 60 --random 40:0.1:1 --device cuda:0 --repeat 30
run "latency-mesh-n56" 60 --generate mesh:56:2 --device cuda:0 --repeat 30

python3 bench/peers/permanent_trust_summary.py "$OUT/runs.jsonl" > "$OUT/summary.txt"
cat "$OUT/summary.txt"
