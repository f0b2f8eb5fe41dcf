#!/usr/bin/env bash
# Block-sparse kernel sums end to end at 10^6 points (issue 15; 10^6 uniform points each, gauss:0.01, cutoff 0.06): the
# device pipeline (GridBlockSparseSum) with the one-warp tile kernel (GridGaussKernelsF32.gaussTiles3), each run with
# the phase times of its warm passes (JSON warm_phases, the median of 8) and that pass's steps with each launch set's
# device times (warm_steps): clusters of ~64 points (cell 0.04) and ~100 000 clusters of ~10 (cell 0.0215), the latter
# also with target clusters 4 cells wide; cell 0.04 with the previous tile kernels (squall.ksum.sparse=tiled) and in
# fp64; --tol 1e-6 in fp64 (block-sparse attempts on the device); a dense run (gauss:0.1, 262 144 x 10^6) for the
# dense per-pair rate; each with --verify on 100 sampled rows against the exact fp64 sum; then the block-sparse test
# classes through gpu-check with the time left. One device call, under BUDGET (150) seconds:
#   ./scripts/bundle     # here;   on the GPU host, from the repository root:   bash bench/gpu/ksumbs2-final.sh
# Writes under $OUT: ksumbs2.jsonl, ksumbs2.log (each warm pass's steps), ksumbs2-summary.txt, gpu-check.txt,
# gpu-check-reports.tgz, stderr.txt (skipped or failed steps).
#
# PREDICTED (H100). Midpoint (bench/results/h100/hmatrix/2026-11-25-ksumbs2-midpoint, before the split exponentials and
# the kept bounds): cell 0.04 15.2 ms warm, kernel 2.51 ms, 2.49e12 pairs/s (0.75 of dense 3.31e12); cell 0.0215
# 17.2 ms, 2.70 ms, 9.7e11 (0.29); before this work 37.6 and 49.6 ms. Now:
#   dense gauss:0.1: 3.2-3.4e12 pairs/s
#   fp32 cell 0.04: kernel 2.2-2.5 ms, 2.5-2.9e12 pairs/s (0.76-0.87 of dense), kept 0.63 %; warm 11-14 ms
#     (staging 2-3.5, clustering 3-3.5, ranges 1.7-2, sum 4.2-4.7); rel. error 4e-7 to 1e-6
#   fp32 cell 0.04, previous tiles: kernel 5.8-6 ms (1.05-1.1e12); warm 3.5-4 ms more than the line above
#   fp32 cell 0.0215: kernel 2.4-2.7 ms, 1.0-1.1e12 (0.3-0.33 of dense), kept 0.26 %; warm 14-16 ms
#   fp32 cell 0.0215 span 4: kernel 2-3.5 ms, 2.0-2.8e12 (0.6-0.85), kept ~0.6-0.8 %; warm 14-20 ms
#   fp64 cell 0.04: kernel 25-30 ms as before (TiledReduction's fp64 tiles); warm 35-42 ms; rel. error ~1e-11
#   fp64 --tol 1e-6: block-sparse at the second cutoff (0.0633, 0.70 % kept) as before, total 0.3-0.8 s (host path:
#     1.9-3.6 s); gpu-check: all GridBlockSparseSumTest and TolerantKernelSumTest cases pass on CUDA and NVIDIA OpenCL
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-ksumbs2-final
S="$B/bin/squall"
J="$OUT/ksumbs2.jsonl"
L="$OUT/ksumbs2.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { local t=$1 opts=$2; shift 2; step "$t" "squall ksum $* ($opts)" bash -c "SQUALL_JAVA_OPTS='$opts' \"$S\" ksum --device cuda:0 --verify --sample 100 --json $* >> \"$J\" 2>> \"$L\""; }
BS="--n 1000000 --kernel gauss:0.01 --block-sparse --cutoff 0.06 --repeat 8"
run 25 "" "$BS --precision fp32 --cell 0.04"
run 25 "" "$BS --precision fp32 --cell 0.0215"
run 20 "" "--n 1000000 --m 262144 --kernel gauss:0.1 --precision fp32 --repeat 3"
run 25 "-Dsquall.ksum.sparse=tiled" "$BS --precision fp32 --cell 0.04"
run 25 "" "$BS --precision fp32 --cell 0.0215 --target-span 4"
run 25 "" "--n 1000000 --kernel gauss:0.01 --precision fp64 --tol 1e-6 --repeat 2"
run 25 "" "$BS --precision fp64 --cell 0.04"
step 60 "gpu-check block-sparse" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.GridBlockSparseSumTest --select dev.squall.hmatrix.ksum.TolerantKernelSumTest > \"$OUT/gpu-check.txt\" 2>&1"
pack_reports "$OUT/gpu-check.txt"
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/ksumbs2-summary.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
dense = [r for r in rows if r.get("method") == "dense"]
rate = dense[0]["pairs_per_s"] if dense else float("nan")
print("dense pairs/s %.3g" % rate)
for r in rows:
    if r.get("method") == "dense": continue
    w = r.get("warm_phases") or {}
    print("%s: %s" % (r.get("method"), r.get("reason")))
    print("%s cell %s span %s clusters %s: kernel %.2f ms, %.3g pairs/s (%.2f of dense), kept %.4f, warm %.1f ms (staging %.1f, clustering %.1f, ranges %.1f, sum %.1f), rel err %.2e, ok %s" % (
        r.get("precision"), r.get("cell"), (r.get("reason") or "").split("target clusters ")[1].split(" ")[0] if "target clusters " in (r.get("reason") or "") else "1", r.get("target_clusters"), r["kernel_ms"], r["pairs_per_s"], r["pairs_per_s"] / rate, r["kept_fraction"], w.get("total_ms", 0),
        w.get("staging_ms", 0), w.get("clustering_ms", 0), w.get("ranges_ms", 0), w.get("sum_ms", 0), r.get("rel_error") or 0, r.get("ok")))
    for s in r.get("warm_steps") or []:
        dev = "" if s.get("kernel_ms") is None else " [up %.2f, kernels %.2f, down %.2f]" % (s["to_device_ms"], s["kernel_ms"], s["to_host_ms"])
        print("    %-10s %7.2f ms%s" % (s["name"], s["ms"], dev))
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
