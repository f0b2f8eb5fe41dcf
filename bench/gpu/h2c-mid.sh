#!/usr/bin/env bash
# Where the time of H2 recompression goes, phase by phase, at 3D n = 2^20 (tolerance 1e-7) on an H100, in one device
# call of under 150 s:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/h2c-mid.sh
# Problems as bench/gpu/h2-build.sh (3D exp:0.2 order 4, 2D exp:0.1 order 8 eta 0.7, box-center, leaves of 64).
# 1. 3D 2^20: two builds and two compressions in one process (squall h2 --warm-compress), the first with an empty
#    kernel cache: JSON "cold_compression" and "compression", each with "parts" (per step and plan: plans run, wall,
#    prepare = kernel builds or loads, device time) and -Dsquall.h2.trace=true lines per plan and per batched SVD
#    (matrices, sweeps mean and most) in the log.
# 2. Nsight Systems (when installed): one 3D 2^20 compression, per-kernel and per-API sums.
# 3. Nsight Compute (clocks left alone): the first two batched Jacobi SVD launches of a 3D 2^17 compression.
# 4. 3D 2^20 once more with linalg's BatchedSvd for the truncation's SVDs (-Dsquall.h2.svd=linalg: global memory,
#    the Gram matrices without the pivoted Cholesky), for comparison.
# 5. 2D 2^20 at 1e-7 as in 1 (kernel cache warm).
# Writes under $OUT: h2c-mid.jsonl, h2c-mid.log, h2c-mid-summary.txt, nsys-compress.txt, ncu-gesvj.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-150}
STEP_MIN=10
unpack_bundle /tmp/squall-h2c-mid
S="$B/bin/squall"
export SQUALL_JAVA_OPTS="-XX:MaxDirectMemorySize=24g -Xmx24g -Dsquall.h2.trace=true ${SQUALL_JAVA_OPTS:-}"
J="$OUT/h2c-mid.jsonl"
L="$OUT/h2c-mid.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)" | tee -a "$L"
D2="--points 2d --kernel exp:0.1 --order 8 --eta 0.7 --admissibility center --device cuda:0"
D3="--points 3d --kernel exp:0.2 --order 4 --admissibility center --device cuda:0"
rm -rf /tmp/h2c-fresh-cache
step 70 "3D 2^20 compress 1e-7 twice, fresh kernel cache" env SQUALL_CACHE=/tmp/h2c-fresh-cache \
  bash -c "\"$S\" h2 --json $D3 --n 1048576 --compress 1e-7 --warm-compress --repeat 1 >> \"$J\" 2>> \"$L\""
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems-*/bin/nsys 2>/dev/null | head -1)
if [ -n "$NSYS" ]; then
  step 50 "nsys 3D 2^20 compress 1e-7" bash -c "\"$NSYS\" profile -t cuda --force-overwrite true -o /tmp/h2c-nsys \"$S\" h2 $D3 --n 1048576 --compress 1e-7 --repeat 1 > /dev/null 2>> \"$L\" \
    && \"$NSYS\" stats -q -r cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum -f csv /tmp/h2c-nsys.nsys-rep > \"$OUT/nsys-compress.txt\" 2>> \"$L\""
else
  echo "nsys: not installed" | tee -a "$L"
fi
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
step 40 "ncu jacobi SVD 3D 2^17" bash -c "\"$NCU\" --clock-control none --target-processes all --kernel-name regex:'jacobiSvd|gesvj' --launch-count 2 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --page details --print-units base \
  \"$S\" h2 $D3 --n 131072 --compress 1e-7 --repeat 1 > \"$OUT/ncu-gesvj.txt\" 2>> \"$L\""
step 40 "3D 2^20 compress 1e-7, linalg SVDs" env SQUALL_JAVA_OPTS="$SQUALL_JAVA_OPTS -Dsquall.h2.svd=linalg" \
  bash -c "\"$S\" h2 --json $D3 --n 1048576 --compress 1e-7 --repeat 1 >> \"$J\" 2>> \"$L\""
step 40 "2D 2^20 compress 1e-7 twice" bash -c "\"$S\" h2 --json $D2 --n 1048576 --compress 1e-7 --warm-compress --repeat 1 >> \"$J\" 2>> \"$L\""
python3 - "$J" <<'PY' 2>&1 | tee "$OUT/h2c-mid-summary.txt"
import json, sys
for i, line in enumerate(open(sys.argv[1]), 1):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    print(f"{r['dim']}D n={r['n']} (line {i}): build {r['build_ms']:.0f} ms, first build {(r.get('cold_build') or {}).get('ms', 0):.0f} ms")
    for label, z in (("first", r.get("cold_compression")), ("second", r.get("compression"))):
        if not z:
            continue
        print(f"  {label} compression {z['tolerance']:g}: {z['ms']:.0f} ms {z['steps_ms']}, estimate {z['error_estimate']:.2e},"
              f" memory {z['memory_before'] / 1e9:.2f} -> {z['memory_after'] / 1e9:.2f} GB, row ranks {z['row_ranks']},"
              f" projections {z['projection_gflop']:.0f} GFLOP in {z['projection_device_ms']:.1f} ms")
        for name, p in (z.get("parts") or {}).items():
            print(f"    {name:42s} {p['plans']:5d} plans {p['wall_ms']:9.1f} ms wall {p['prepare_ms']:8.1f} prepare {p['kernel_ms']:9.1f} device")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
