#!/usr/bin/env bash
# squall demo, the squall bench workload suites, their peers and the JMH suites on the GPU host, in one device call of
# under 9 minutes (BUDGET seconds; each step is capped by the time left):
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/demo-bench.sh
# In order of what matters most, so a slow step only cuts the later ones:
#   1. squall demo --full --device cuda:0 --json            (also the limits the peers are measured against)
#   2. the peers on the full suite's inputs: cuSPARSE SpMV (matrices dumped by squall spmv), cuSOLVER batched Cholesky,
#      PyTorch dense kernel sums (bench/peers/, in squall bench's JSON schema)
#   3. squall bench --suite full --devices cuda:0 --peers ... (table, JSON, CSV, charts with the peers side by side)
#   4. the JMH suites through squall/benchmarks.jar on cuda (with EJML on the host's cores as the CPU peer)
#   5. squall demo --full --json on NVIDIA OpenCL, PoCL and the JVM, one step per device (a slow device cuts only itself)
#   6. squall bench --suite quick on every device
# Writes under $OUT: results.tgz (demo-full-*.json, peers/*.json, bench-full/, bench-quick/, jmh/*.json and *.txt: the
# device tool returns a few files) and log.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-520}
STEP_MIN=15
unpack_bundle /tmp/squall-demo-run
S="$B/bin/squall"
J="$B/runtime/bin/java"
L="$OUT/log.txt"
R="$OUT/results"
mkdir -p "$R/peers" "$R/bench-full" "$R/bench-quick" "$R/jmh"
: > "$L"
export PYTHONUNBUFFERED=1
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
"$S" devices --json > "$R/devices.json" 2>> "$L"
ocl=$(python3 bench/peers/squall_devices.py --backend opencl --name-contains NVIDIA --first < "$R/devices.json")
pocl=$(python3 bench/peers/squall_devices.py --backend opencl --name-excludes NVIDIA --first < "$R/devices.json")
echo "# devices: cuda:0 ${ocl:-(no NVIDIA OpenCL)} ${pocl:-(no PoCL)} jvm" | tee -a "$L"

# 1. the full tour on the GPU; its JSON holds cuda:0's measured copy bandwidth and multiply-add rate
step 100 "squall demo --full --device cuda:0" bash -c "\"$S\" demo --full --device cuda:0 --json > \"$R/demo-full-cuda_0.json\" 2>> \"$L\""

# 2. peers, on the full suite's sizes (bench/src/main/java/dev/squall/bench/suite/Suites.java)
DUMP=/tmp/squall-demo-dump
rm -rf "$DUMP" && mkdir -p "$DUMP"
peers_spmv() {
  "$S" spmv --matrix "$B/bench/data/1138_bus.mtx" --device cuda:0 --dump "$DUMP" --dump-name 1138_bus > /dev/null \
    && "$S" spmv --generate 27pt:64x64x64 --device cuda:0 --dump "$DUMP" --dump-name 27pt_64 > /dev/null \
    && "$S" spmv --generate 27pt:128x128x128 --device cuda:0 --dump "$DUMP" --dump-name 27pt_128 > /dev/null \
    && python3 bench/peers/cusparse_spmv.py --dump "$DUMP" --out "$R/peers/cusparse.json" --limits "$R/demo-full-cuda_0.json" \
         1138_bus 27pt_64=27pt:64x64x64 27pt_128=27pt:128x128x128
}
export S B J R DUMP
export -f peers_spmv
step 50 "peer: cuSPARSE SpMV" bash -c peers_spmv >> "$L" 2>&1
rm -rf "$DUMP"
step 40 "peer: cuSOLVER batched Cholesky" python3 bench/peers/cusolver_cholesky.py --out "$R/peers/cusolver.json" \
  --limits "$R/demo-full-cuda_0.json" 64:10000 64:40000 64:160000 >> "$L" 2>&1
step 40 "peer: PyTorch dense kernel sums" python3 bench/peers/torch_ksum_suite.py --out "$R/peers/torch.json" \
  --limits "$R/demo-full-cuda_0.json" 16384 65536 262144 >> "$L" 2>&1
peers=$(ls "$R"/peers/*.json 2>/dev/null | paste -sd, -)

# 3. the full suite on cuda:0, the peers beside it
step 150 "squall bench --suite full --devices cuda:0 --peers" bash -c "\"$S\" bench --suite full --devices cuda:0 ${peers:+--peers $peers} \
  --out \"$R/bench-full\" > \"$R/bench-full/table.txt\" 2>> \"$L\""

# 4. the JMH suites on cuda, one JSON file a suite (-rf json); EJML runs on the host's cores in the same runs
jmh() {
  local name=$1; shift
  "$J" -jar "$B/benchmarks.jar" "$@" -f 1 -wi 1 -w 1 -i 2 -r 1 -foe false -rf json -rff "$R/jmh/$name.json" > "$R/jmh/$name.txt" 2>&1
}
jmh_all() {
  jmh stream 'StreamBenchmark.triad$' -p device=cuda -p size=67108864 -p precision=fp32,fp64
  jmh spmv 'SpmvBenchmark' -p device=cuda -p format=csr,sell,auto -p precision=fp64 -p matrix=27pt:64x64x64
  jmh cholesky 'CholeskyBenchmark.(squallCholesky|ejmlCholeskyMt)$' -p device=cuda -p n=4096
  jmh ksum 'KernelSumBenchmark.dense' -p device=cuda -p precision=fp32 -p n=65536
}
export -f jmh jmh_all
step 130 "JMH suites on cuda (benchmarks.jar)" bash -c jmh_all

# 5. the full tour on the other devices
for d in $ocl $pocl jvm; do
  t=40; [ "$d" = "$pocl" ] && t=60; [ "$d" = jvm ] && t=90
  step "$t" "squall demo --full --device $d" bash -c "\"$S\" demo --full --device $d --json > \"$R/demo-full-${d//:/_}.json\" 2>> \"$L\""
done

# 6. the quick suite everywhere
step 100 "squall bench --suite quick" bash -c "\"$S\" bench --suite quick --out \"$R/bench-quick\" > \"$R/bench-quick/table.txt\" 2>> \"$L\""

tar czf "$OUT/results.tgz" -C "$OUT" results 2>/dev/null && rm -rf "$R"
echo "done in $((SECONDS - start)) s" | tee -a "$L"
