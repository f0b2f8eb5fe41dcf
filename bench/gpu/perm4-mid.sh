#!/usr/bin/env bash
# Issue 13, branch perm4 (midpoint): the Gray-code rounding estimate of a device sweep re-computed ON THE DEVICE after
# the sweep (kernel/EstimateKernels) instead of host double-double beside it.
#   here: ./scripts/bundle; device run, carry dist/:   bash bench/gpu/perm4-mid.sh      (~60-80 s)
# Every run is `squall permanent ... --device cuda:0 --json --timings`; summary: bench/peers/perm4_summary.py.
#
# PREDICTED (H100, 16 host cores; before: bench/results/h100/permanent/2026-11-25-restart-estimate):
#   er40-p0.5-first (NVRTC builds of the hybrid and the estimate kernels): seconds 2.9-3.3, estimate 0.3-0.8 s (its
#     own NVRTC build, first time only), sweep ms 1.30-1.40 s (was 1.48 with the host estimate beside it)
#   er40-p0.5-repeat3 (one process, fastest of 3): seconds 1.30-1.45 (was 2.056 cold / issue's 1.97), estimate 5-20 ms,
#     est/sweep 0.004-0.015 (was 0.41), estimate_device_ms 3-7; relative bound ~1.0e-9 (same sample and arithmetic)
#   reg-p0.5 (the regression command, cold process, builds cached): sweep_seconds 1.40-1.60 (generation ~0.12 s + launches
#     ~1.28-1.35 s), estimate_seconds 0.01-0.05, seconds 1.45-1.70 (old build's sweep 1.93-2.0 s counted the host
#     estimate's contention)
#   reg-p0.1: sweep_seconds 0.55-0.75, estimate_seconds 0.01-0.05
#   er32 / er36 p0.5 (-dbl, cold): est/sweep <= 0.10 (estimate 4-20 ms, sweep launches 20-270 ms cold); ratios
#     actual/estimate <= 0.65 as before (ER 32 s2 ~0.64, s3 ~0.19)
#   mixed-sign sparse:32 / sparse:36 (--no-decompose, codegen-hybrid, -dbl vs the exact -ref): ratio <= 1
# Writes under $OUT: runs.jsonl (one JSON line per run, "label" and "command" added), console.txt, summary.txt
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-run
S="$B/bin/squall"
log() { echo "$@" | tee -a "$OUT/console.txt" >&2; }
log "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores"
start=$SECONDS
BUDGET=${BUDGET:-85}

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
  local ms=$(( (t1 - t0 + 500000) / 1000000 ))
  if [ -n "$js" ] && [ "${js:0:1}" = "{" ]; then
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"exit\":$rc,\"process_ms\":$ms,${js#\{}" | tr -d '\n' >> "$OUT/runs.jsonl"
    echo >> "$OUT/runs.jsonl"
  else
    echo "{\"label\":\"$label\",\"command\":\"$cmd\",\"failed\":true,\"exit\":$rc,\"process_ms\":$ms}" >> "$OUT/runs.jsonl"
    log "   FAILED (exit $rc; 124 = timed out after ${limit}s)"
  fi
}

run er40-p0.5-first 30 --random 40:0.5:1 --device cuda:0 --timings
run er40-p0.5-repeat3 30 --random 40:0.5:1 --device cuda:0 --timings --repeat 3
run reg-p0.1 30 --random 40:0.1:1 --device cuda:0 --method codegen-hybrid --no-decompose --tol 0.5 --timings
run reg-p0.5 30 --random 40:0.5:1 --device cuda:0 --method codegen-hybrid --no-decompose --tol 0.5 --timings
for spec in 32:0.5:2 32:0.5:3 36:0.5:1; do
  run "er${spec%%:*}-s${spec##*:}-dbl" 20 --random $spec --device cuda:0 --no-escalate --timings
  run "er${spec%%:*}-s${spec##*:}-ref" 20 --random $spec --device cuda:0 --tol 1e-15 --timings
done
for spec in sparse:32:1 sparse:36:2; do
  run "${spec//:/-}-dbl" 20 --generate $spec --device cuda:0 --no-decompose --method codegen-hybrid --no-escalate --timings
  run "${spec//:/-}-ref" 20 --generate $spec --device cuda:0 --exact
done
python3 bench/peers/perm4_summary.py "$OUT/runs.jsonl" > "$OUT/summary.txt"
cat "$OUT/summary.txt"
