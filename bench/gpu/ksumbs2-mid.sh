#!/usr/bin/env bash
# Midpoint of the block-sparse work (issue 15): 10^6 uniform points, gauss:0.01, cutoff 0.06, fp32, the device pipeline
# (GridBlockSparseSum) with its warm passes (JSON warm_phases, the median of 8, and that pass's warm_steps with each
# launch set's device times): cells of 0.04 (~15 600 clusters of ~64 points) with the one-warp tile kernel
# (GridGaussKernelsF32.gaussTiles3) and with the previous tile kernels (squall.ksum.sparse=tiled), cells of 0.0215
# (~100 000 clusters of ~10), and a dense run (gauss:0.1, 262 144 x 10^6) for the dense per-pair rate. One device call,
# under BUDGET (90) seconds:
#   ./scripts/bundle     # here;   on the GPU host, from the repository root:   bash bench/gpu/ksumbs2-mid.sh
# Writes under $OUT: ksumbs2-mid.jsonl, ksumbs2-mid.log (each warm pass's steps), ksumbs2-mid-summary.txt, stderr.txt.
#
# PREDICTED (H100; before this change, bench/results/h100/hmatrix/2026-11-25-ksum-block-sparse-device: 37.6 ms warm,
# kernel 5.88 ms, 1.06e12 pairs/s at cell 0.04; 49.6 ms, 11.4 ms, 2.3e11 at 0.0215):
#   cell 0.04, one-warp tiles: kernel 2.0-3.0 ms (2.2-3.2e12 pairs/s on 6.3e9 kept pairs, 0.65-0.95 of dense);
#     warm end to end 13-20 ms (staging 2-4, clustering 2-3, ranges 2.5-3.5, sum 3.5-6 with unpermute and heap copy)
#   cell 0.04, previous tiles: kernel 5.5-6 ms as before; end to end 3-4 ms more than the line above
#   cell 0.0215 (one warp per cluster of ~10: ~10 of 16 target slots filled, 16-32 source lanes): kernel 1.5-2.5 ms
#     (1.1-2.0e12 pairs/s on 2.6e9 kept pairs); end to end 13-19 ms
#   dense gauss:0.1: 3.2-3.4e12 pairs/s; relative errors 5e-7 to 1e-6, every row within its bound
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-90}
STEP_MIN=8
unpack_bundle /tmp/squall-ksumbs2-mid
S="$B/bin/squall"
J="$OUT/ksumbs2-mid.jsonl"
L="$OUT/ksumbs2-mid.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { local t=$1 opts=$2; shift 2; step "$t" "squall ksum $* ($opts)" bash -c "SQUALL_JAVA_OPTS='$opts' \"$S\" ksum --device cuda:0 --verify --sample 100 --json $* >> \"$J\" 2>> \"$L\""; }
BS="--n 1000000 --kernel gauss:0.01 --precision fp32 --block-sparse --cutoff 0.06 --repeat 8"
run 25 "" "$BS --cell 0.04"
run 25 "-Dsquall.ksum.sparse=tiled" "$BS --cell 0.04"
run 25 "" "$BS --cell 0.0215"
run 20 "" "--n 1000000 --m 262144 --kernel gauss:0.1 --precision fp32 --repeat 3"
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/ksumbs2-mid-summary.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
dense = [r for r in rows if r.get("method") == "dense"]
rate = dense[0]["pairs_per_s"] if dense else float("nan")
print("dense pairs/s %.3g" % rate)
for r in rows:
    if r.get("method") == "dense": continue
    w = r.get("warm_phases") or {}
    print("cell %s clusters %s: kernel %.2f ms, %.3g pairs/s (%.2f of dense), kept %.4f, warm %.1f ms (staging %.1f, clustering %.1f, ranges %.1f, sum %.1f), rel err %.2e, ok %s" % (
        r.get("cell"), r.get("target_clusters"), r["kernel_ms"], r["pairs_per_s"], r["pairs_per_s"] / rate, r["kept_fraction"], w.get("total_ms", 0),
        w.get("staging_ms", 0), w.get("clustering_ms", 0), w.get("ranges_ms", 0), w.get("sum_ms", 0), r.get("rel_error") or 0, r.get("ok")))
    for s in r.get("warm_steps") or []:
        dev = "" if s.get("kernel_ms") is None else " [up %.2f, kernels %.2f, down %.2f]" % (s["to_device_ms"], s["kernel_ms"], s["to_host_ms"])
        print("    %-10s %7.2f ms%s" % (s["name"], s["ms"], dev))
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
