#!/usr/bin/env bash
# Issue 3 (tornado-tasks/linalg) on the H100 host, from the bundle, with the PyTorch (cuSOLVER/cuBLAS) peer in the same run:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/linalg.sh
# Measures (device time, CUDA events; GFLOP/s; --verify residuals from random probes):
#   squall cholesky fp64 n = 4096, 8192, 16384, 32768 (blocked, one matrix; outer block 1024 from n = 4096, 2048 from 8192) and fp32 n = 16384
#   squall cholesky --profile: device time and launch count per phase (diagonal factor, diagonal inverse, panel solve,
#     trailing update, copies) for n = 16384 and 8192 at the default outer block, and n = 16384 with block 1024
#   squall cholesky n=64 batch=10000, --kernel warp-loop (one warp per matrix in registers, columns broadcast through
#     local memory, the steps a loop, one rsqrt per step, out of place: no copy launch) and --kernel group (one
#     work-group per matrix in local memory)                          vs torch.linalg.cholesky on the batch
#   squall trinv    n=64 batch=10000, --kernel warp (L in local memory, each lane back-substitutes its own rows of the
#     inverse) and --kernel blocks (Stan diag_inv + GEMM rounds, blocks 32 and 64), and n=4096 (blocks)
#                                                                     vs torch.linalg.solve_triangular(L, I)
#   squall gemm     64x64x64 batch=10000 (fp64, fp32) and 8192^3 fp64  vs torch.bmm / torch.matmul (DGEMM ceiling)
#   squall qr       128x64 batch=10000, with and without Q             vs torch.linalg.qr (reduced / r)
#   squall svd      128x64 batch=1000, rel-tol 1e-8 (one-sided Jacobi) vs torch.linalg.svd (full_matrices=False)
#   squall cholesky n=2048 on the NVIDIA OpenCL device and on the JVM backend (loop-style kernels)
#   last, the JVM target on the host's CPU: JMH CholeskyJvmBenchmark at n = 512, 1024, 2048, Squall's jvm device
#     (fork-join pool, all cores) vs EJML single-threaded and EJML multi-threaded, in one run (skipped past 7 minutes)
# Writes under $OUT (7 files): devices.txt, squall-linalg.jsonl, squall-linalg.log, torch-linalg.jsonl, torch-linalg.log,
#   jvm-ejml.txt (JMH output), summary.txt (with the JMH table at the end)
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-linalg-run
S="$B/bin/squall"
J="$OUT/squall-linalg.jsonl"
L="$OUT/squall-linalg.log"
: > "$J"
: > "$L"
{
  echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"
  "$S" devices
} 2>&1 | tee "$OUT/devices.txt"
# each run: JSON to the .jsonl file, progress and errors to the log; a 150 s cap keeps the whole script under 8 minutes
sq() {
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  timeout 150 "$S" "$@" --json >> "$J" 2>> "$L"
  echo "exit $? : squall $* ($((SECONDS - start)) s)" | tee -a "$L"
}
sq cholesky --n 4096 --precision fp64 --device cuda:0 --verify --repeat 5
sq cholesky --n 8192 --precision fp64 --device cuda:0 --repeat 5
sq cholesky --n 16384 --precision fp64 --device cuda:0 --verify --repeat 3
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --gemm-kernel tiles
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --profile
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 1024
sq cholesky --n 8192 --precision fp64 --device cuda:0 --repeat 3 --profile
sq cholesky --n 16384 --precision fp32 --device cuda:0 --verify --repeat 3
sq cholesky --n 32768 --precision fp64 --device cuda:0 --repeat 2
sq cholesky --n 64 --batch 10000 --kernel warp-loop --precision fp64 --device cuda:0 --verify --repeat 20
sq cholesky --n 64 --batch 10000 --kernel group --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel warp --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel blocks --block 32 --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel blocks --block 64 --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 4096 --precision fp64 --device cuda:0 --verify --repeat 5
sq gemm --m 64 --batch 10000 --precision fp64 --device cuda:0 --verify --repeat 20
sq gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5
sq gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5 --kernel tiles
sq gemm --m 64 --batch 10000 --precision fp32 --device cuda:0 --verify --repeat 20
sq qr --m 128 --n 64 --batch 10000 --q --precision fp64 --device cuda:0 --verify --repeat 5
sq qr --m 128 --n 64 --batch 10000 --precision fp64 --device cuda:0 --verify --repeat 5
sq svd --m 128 --n 64 --batch 1000 --rel-tol 1e-8 --precision fp64 --device cuda:0 --verify --repeat 3
ocl=$("$S" devices --json 2>/dev/null | python3 bench/peers/squall_devices.py --backend opencl --first)
[ -n "$ocl" ] && sq cholesky --n 2048 --precision fp64 --device "$ocl" --verify --repeat 3
sq cholesky --n 2048 --precision fp64 --device jvm --verify --repeat 1
PYTHONUNBUFFERED=1 timeout 150 python3 bench/peers/torch_linalg.py 32768 > "$OUT/torch-linalg.jsonl" 2> "$OUT/torch-linalg.log"
echo "torch peer exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
python3 bench/peers/linalg_summary.py "$J" "$OUT/torch-linalg.jsonl" > "$OUT/summary.txt" 2>&1
# the JVM target (issue 3): Squall's jvm device vs EJML on the host's CPU, JMH, both in one run; at most 150 s and
# only inside the 7-minute mark (9 trials: 3 benchmarks x n = 512, 1024, 2048, each 2 x 1 s warm-up + 3 x 1 s, plus JVM start and setup:
# about 70 s)
jleft=$((420 - (SECONDS - start)))
[ "$jleft" -gt 150 ] && jleft=150
if [ "$jleft" -ge 60 ]; then
  echo "+ jmh CholeskyJvmBenchmark, cap $jleft s ($((SECONDS - start)) s)" >> "$L"
  # libjsig: the drivers the device discovery loads (PoCL's LLVM) replace the JVM's signal handlers; the forks inherit it
  LD_PRELOAD="$B/runtime/lib/libjsig.so" timeout "$jleft" "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -cp "$B/lib/*" \
      org.openjdk.jmh.Main CholeskyJvmBenchmark -p n=512,1024,2048 -f 1 -wi 2 -w 1 -i 3 -r 1 > "$OUT/jvm-ejml.txt" 2>&1
  echo "exit $? : jmh CholeskyJvmBenchmark ($((SECONDS - start)) s)" | tee -a "$L"
else
  echo "SKIPPED (time budget, $((SECONDS - start)) s): jmh CholeskyJvmBenchmark" | tee -a "$L" "$OUT/jvm-ejml.txt"
fi
python3 bench/peers/cholesky_jmh_summary.py "$OUT/jvm-ejml.txt" >> "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
