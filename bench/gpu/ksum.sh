#!/usr/bin/env bash
# Kernel sums on the reference problem (Gaussian, N = M = 10^6, d = 3): the direct and the expanded exponent
# (--exponent direct|expanded) interleaved in fp32 and fp64, block-sparse end to end with its phase times, a first call
# in a fresh process, PyTorch's chunked dense route as the peer, and the ksum tests on CUDA and NVIDIA OpenCL, in one
# device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksum.sh
# Squall: squall ksum ... --device cuda:0 --verify --sample 100 --json (kernel time = median of --repeat runs, CUDA
# events); the peer: bench/peers/torch_ksum.py.
# Writes under $OUT: ksum.jsonl (Squall's JSON lines), torch-ksum.jsonl, ksum.log, ksum-summary.txt, gpu-check.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
BUDGET=${BUDGET:-470}
STEP_MIN=20
unpack_bundle /tmp/squall-ksum-run
S="$B/bin/squall"
J="$OUT/ksum.jsonl"
L="$OUT/ksum.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)" | tee -a "$L"
run() { step "$1" "squall ksum $2" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --verify --sample 100 --json $2 >> \"$J\" 2>> \"$L\""; }
# first call in a fresh process (the driver's cache of the CUDA build is cold only on the very first run of a bundle)
step 60 "first call in a fresh process" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --repeat 1 --json >> \"$J\" 2>> \"$L\""
for round in 1 2; do
  run 60 "--kernel gauss:0.1 --precision fp32 --exponent direct --repeat 3"
  run 60 "--kernel gauss:0.1 --precision fp32 --exponent expanded --repeat 3"
done
for round in 1 2; do
  run 90 "--kernel gauss:0.1 --precision fp64 --exponent direct --repeat 2"
  run 60 "--kernel gauss:0.1 --precision fp64 --exponent expanded --repeat 2"
done
run 60 "--kernel gauss:0.01 --precision fp32 --block-sparse --cell 0.02 --cutoff 0.06 --repeat 5"
run 60 "--kernel gauss:0.01 --precision fp32 --block-sparse --cell 0.04 --cutoff 0.06 --repeat 5"
run 60 "--kernel gauss:0.01 --precision fp32 --block-sparse --cell 0.04 --cutoff 0.06 --exponent direct --repeat 5"
run 90 "--kernel gauss:0.01 --precision fp64 --tol 1e-6 --repeat 3"
step 90 "torch peer fp32" bash -c "PYTHONUNBUFFERED=1 python3 bench/peers/torch_ksum.py --n 1000000 --precision fp32 >> \"$OUT/torch-ksum.jsonl\" 2>> \"$L\""
step 120 "torch peer fp64" bash -c "PYTHONUNBUFFERED=1 python3 bench/peers/torch_ksum.py --n 1000000 --precision fp64 --reps 1 >> \"$OUT/torch-ksum.jsonl\" 2>> \"$L\""
step 150 "gpu-check ksum" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.KernelSumTest --select dev.squall.hmatrix.ksum.GaussSumKernelsTest --select dev.squall.hmatrix.ksum.BlockSparseSumTest --select dev.squall.hmatrix.ksum.TolerantKernelSumTest > \"$OUT/gpu-check.txt\" 2>&1"
python3 bench/peers/ksum_summary.py "$J" "$OUT/torch-ksum.jsonl" 2>&1 | tee "$OUT/ksum-summary.txt"
echo "total $((SECONDS - start)) s" | tee -a "$L"
