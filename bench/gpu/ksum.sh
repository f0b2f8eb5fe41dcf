#!/usr/bin/env bash
# Kernel sums on the reference problem (Gaussian, N = M = 10^6, d = 3) and block-sparse variants, with PyTorch's
# chunked dense route as the peer, in one device call of under 8 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/ksum.sh
# Squall: squall ksum ... --device cuda:0 --verify --sample 100 --json (kernel time = median of --repeat runs, CUDA
# events); the ksum test classes on CUDA and NVIDIA OpenCL through gpu-check; the peer: bench/peers/torch_ksum.py.
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
run 60 "--kernel gauss:0.1 --precision fp32 --repeat 5"
run 90 "--kernel gauss:0.1 --precision fp64 --repeat 2"
run 60 "--kernel gauss:0.1 --precision fp32 --dim 2 --repeat 3"
run 60 "--kernel gauss:0.01 --precision fp32 --block-sparse --cell 0.02 --cutoff 0.06 --repeat 5"
run 60 "--kernel gauss:0.01 --precision fp32 --block-sparse --cell 0.04 --cutoff 0.06 --repeat 5"
run 90 "--kernel gauss:0.01 --precision fp64 --tol 1e-6 --repeat 3"
step 60 "first call in a fresh process" bash -c "\"$S\" ksum --n 1000000 --device cuda:0 --repeat 1 --json >> \"$J\" 2>> \"$L\""
step 90 "torch peer fp32" bash -c "PYTHONUNBUFFERED=1 python3 bench/peers/torch_ksum.py --n 1000000 --precision fp32 >> \"$OUT/torch-ksum.jsonl\" 2>> \"$L\""
step 120 "gpu-check ksum" bash -c "\"$B/bin/gpu-check\" --select dev.squall.hmatrix.ksum.KernelSumTest --select dev.squall.hmatrix.ksum.BlockSparseSumTest --select dev.squall.hmatrix.ksum.TolerantKernelSumTest > \"$OUT/gpu-check.txt\" 2>&1"
python3 - "$J" "$OUT/torch-ksum.jsonl" <<'PY' 2>&1 | tee "$OUT/ksum-summary.txt"
import json, sys
sys.path.insert(0, "bench/peers")
from jsonl import rows  # one JSON-lines reader for every summary
sfu = 4.2e12
print("squall ksum, N = M = 10^6 (kernel ms: median; pairs/s over the SFU bound 4.2e12)")
print(f"{'method':<13} {'kernel':<14} {'prec':<5} {'d':>2} {'kernel ms':>10} {'pairs/s':>10} {'/SFU':>6} {'kept':>8} "
      f"{'first ms':>9} {'total ms':>9} {'rel err':>9} ok")
for r in rows(sys.argv[1]):
    print(f"{r['method']:<13} {r['kernel']:<14} {r['precision']:<5} {r['dim']:>2} {r['kernel_ms']:>10.2f} {r['pairs_per_s']:>10.3g} "
          f"{r['pairs_per_s'] / sfu:>6.2f} {r['kept_fraction']:>8.4f} {r['first_call_ms']:>9.1f} {r['total_ms']:>9.1f} "
          f"{str(r.get('rel_error')):>9} {r.get('verified')}")
for t in rows(sys.argv[2]):
    print(f"torch chunked dense {t['precision']}: {t['ms']:.1f} ms, {t['pairs_per_s']:.3g} pairs/s ({t['torch']})")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
