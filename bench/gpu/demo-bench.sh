#!/usr/bin/env bash
# squall demo and the squall bench workload suites on the GPU host, in one device call of under 9 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/demo-bench.sh
# The quick demo on every device (CUDA, NVIDIA OpenCL, the JVM on 16 cores), the full demo on cuda:0, the quick suite
# on every device and the full suite on the two GPU devices (the JVM would take far longer), with charts.
# Writes under $OUT: demo.txt, demo.json, demo-full.txt, bench.tgz (bench-quick/ and bench-full/: JSON, CSV, SVG, PNG,
# table.txt), log.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=530
STEP_MIN=20
unpack_bundle /tmp/squall-demo-run
S="$B/bin/squall"
L="$OUT/log.txt"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
ocl=$("$S" devices --json | python3 bench/peers/squall_devices.py --backend opencl --name-contains NVIDIA)
gpus="cuda:0${ocl:+,$ocl}"
step 60 "squall demo" bash -c "\"$S\" demo > \"$OUT/demo.txt\" 2>> \"$L\""
step 60 "squall demo --json" bash -c "\"$S\" demo --json > \"$OUT/demo.json\" 2>> \"$L\""
step 60 "squall demo --full --device cuda:0" bash -c "\"$S\" demo --full --device cuda:0 > \"$OUT/demo-full.txt\" 2>> \"$L\""
step 120 "squall bench --suite quick" bash -c "mkdir -p \"$OUT/bench-quick\"; \"$S\" bench --suite quick --out \"$OUT/bench-quick\" > \"$OUT/bench-quick/table.txt\" 2>> \"$L\""
step 220 "squall bench --suite full --devices $gpus" bash -c "mkdir -p \"$OUT/bench-full\"; \"$S\" bench --suite full --devices $gpus --out \"$OUT/bench-full\" > \"$OUT/bench-full/table.txt\" 2>> \"$L\""
# the device tool returns a few files: the suites' JSON, CSV and charts travel as one archive
tar czf "$OUT/bench.tgz" -C "$OUT" bench-quick bench-full 2>/dev/null && rm -rf "$OUT/bench-quick" "$OUT/bench-full"
echo "done in $((SECONDS - start)) s" | tee -a "$L"
