#!/usr/bin/env bash
# Issue 3 (tornado-tasks/linalg) on the H100 host, from the bundle, with the PyTorch (cuSOLVER/cuBLAS) peer in the same run:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/linalg.sh
# Measures (device time, CUDA events; GFLOP/s; --verify residuals from random probes):
#   squall cholesky fp64 n = 4096, 8192, 16384, 32768 (blocked, one matrix; outer block 512 from n = 8192) and fp32 n = 16384
#   squall cholesky --profile: device time and launch count per phase (diagonal factor, diagonal inverse, panel solve,
#     trailing update, copies) for n = 16384 with outer blocks 256 (round 2's) and 512 (new default), and n = 8192
#   squall cholesky n=64 batch=10000, --kernel warp (one warp per matrix in registers, shuffles) and --kernel group
#     (round 2's work-group per matrix)                               vs torch.linalg.cholesky on the batch
#   squall trinv    n=64 batch=10000, --kernel warp and --kernel blocks (Stan diag_inv + GEMM rounds, blocks 32 and 64),
#     and n=4096 (blocks)                                             vs torch.linalg.solve_triangular(L, I)
#   squall gemm     64x64x64 batch=10000 (fp64, fp32) and 8192^3 fp64  vs torch.bmm / torch.matmul (DGEMM ceiling)
#   squall qr       128x64 batch=10000, with and without Q             vs torch.linalg.qr (reduced / r)
#   squall svd      128x64 batch=1000, rel-tol 1e-8 (one-sided Jacobi) vs torch.linalg.svd (full_matrices=False)
#   squall cholesky n=2048 on the NVIDIA OpenCL device and on the JVM backend (loop-style kernels; the JVM-vs-EJML
#   comparison is the JMH run in bench/results/2026-11-23-linalg-jvm-ejml, made on a CPU host)
# Writes under $OUT (6 files): devices.txt, squall-linalg.jsonl, squall-linalg.log, torch-linalg.jsonl, torch-linalg.log, summary.txt
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
work=/tmp/squall-linalg-run
rm -rf "$work" && mkdir -p "$work"
tar xzf dist/squall-bundle.tar.gz -C "$work"
S="$work/squall/bin/squall"
export SQUALL_CACHE=/tmp/squall-cache
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
  echo "+ squall $*" >> "$L"
  timeout 150 "$S" "$@" --json >> "$J" 2>> "$L"
  echo "exit $? : squall $*" | tee -a "$L"
}
sq cholesky --n 4096 --precision fp64 --device cuda:0 --verify --repeat 5
sq cholesky --n 8192 --precision fp64 --device cuda:0 --repeat 5
sq cholesky --n 16384 --precision fp64 --device cuda:0 --verify --repeat 3
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 256 --profile
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 512 --profile
sq cholesky --n 8192 --precision fp64 --device cuda:0 --repeat 3 --profile
sq cholesky --n 16384 --precision fp32 --device cuda:0 --verify --repeat 3
sq cholesky --n 32768 --precision fp64 --device cuda:0 --repeat 2
sq cholesky --n 64 --batch 10000 --kernel warp --precision fp64 --device cuda:0 --verify --repeat 20
sq cholesky --n 64 --batch 10000 --kernel group --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel warp --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel blocks --block 32 --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 64 --batch 10000 --kernel blocks --block 64 --precision fp64 --device cuda:0 --verify --repeat 20
sq trinv --n 4096 --precision fp64 --device cuda:0 --verify --repeat 5
sq gemm --m 64 --batch 10000 --precision fp64 --device cuda:0 --verify --repeat 20
sq gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5
sq gemm --m 64 --batch 10000 --precision fp32 --device cuda:0 --verify --repeat 20
sq qr --m 128 --n 64 --batch 10000 --q --precision fp64 --device cuda:0 --verify --repeat 5
sq qr --m 128 --n 64 --batch 10000 --precision fp64 --device cuda:0 --verify --repeat 5
sq svd --m 128 --n 64 --batch 1000 --rel-tol 1e-8 --precision fp64 --device cuda:0 --verify --repeat 3
ocl=$("$S" devices --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin)["devices"]; print(next((x["id"] for x in d if x.get("available") and x["backend"]=="opencl"), ""))')
[ -n "$ocl" ] && sq cholesky --n 2048 --precision fp64 --device "$ocl" --verify --repeat 3
sq cholesky --n 2048 --precision fp64 --device jvm --verify --repeat 1
PYTHONUNBUFFERED=1 timeout 150 python3 bench/peers/torch_linalg.py 32768 > "$OUT/torch-linalg.jsonl" 2> "$OUT/torch-linalg.log"
echo "torch peer exit: $?"
python3 bench/peers/linalg_summary.py "$J" "$OUT/torch-linalg.jsonl" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
