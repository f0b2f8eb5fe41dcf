#!/usr/bin/env bash
# Blocked fp64 Cholesky with and without look-ahead (second, high-priority CUDA stream for the diagonal blocks),
# against cuSOLVER through torch.linalg.cholesky, in about 3 minutes:
#   ./scripts/bundle            # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/cholesky-lookahead.sh
# squall cholesky --n N --precision fp64 --device cuda:0 [--lookahead] [--block B] --repeat 5 --json: the single-queue
# path and --lookahead at n = 16384 (default block 2048, --verify on both) and 8192, and --lookahead with --block 1024
# and 4096 at 16384 (the time with look-ahead spans both queues: CUDA events from the first launch to the last).
# Writes under $OUT: lookahead.jsonl, torch-lookahead.jsonl, lookahead.log, lookahead-summary.txt.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-lookahead-run
S="$B/bin/squall"
J="$OUT/lookahead.jsonl"
L="$OUT/lookahead.log"
: > "$J"
: > "$L"
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" | tee -a "$L"
sq() {
  echo "+ squall $* ($((SECONDS - start)) s)" >> "$L"
  timeout 60 "$S" cholesky --precision fp64 --device cuda:0 --repeat 5 --json "$@" >> "$J" 2>> "$L"
  echo "exit $? : squall cholesky $* ($((SECONDS - start)) s)" | tee -a "$L"
}
sq --n 16384 --verify
sq --n 16384 --verify --lookahead
sq --n 16384 --lookahead --block 1024
sq --n 16384 --lookahead --block 4096
sq --n 8192
sq --n 8192 --lookahead
PYTHONUNBUFFERED=1 timeout 60 python3 - > "$OUT/torch-lookahead.jsonl" 2>> "$L" <<'PY'
import json, sys
sys.path.insert(0, "bench/peers")
import torch
from cuda_timing import median_ms
from torch_linalg import covariance
gen = torch.Generator(device="cuda").manual_seed(42)
for n in (8192, 16384):
    a = covariance(n, 1, torch.float64, gen)[0]
    ms = median_ms(lambda: torch.linalg.cholesky(a), 5, warmup=2)
    print(json.dumps(dict(peer="torch", op="cholesky", n=n, precision="fp64", ms=ms, device=torch.cuda.get_device_name(0))), flush=True)
PY
echo "torch peer exit: $? ($((SECONDS - start)) s)" | tee -a "$L"
python3 - "$J" "$OUT/torch-lookahead.jsonl" <<'PY' 2>&1 | tee "$OUT/lookahead-summary.txt"
import json, sys
sys.path.insert(0, "bench/peers")
from jsonl import rows  # one JSON-lines reader for every summary
squall, peer = rows(sys.argv[1]), rows(sys.argv[2])
torch_ms = {r["n"]: r["ms"] for r in peer}
print("blocked Cholesky fp64 (median of 5); ratio = squall ms / cuSOLVER (torch) ms, target <= 1.3")
print(f"{'n':>6} {'block':>6} {'kernel':<22} {'ms':>8} {'torch ms':>9} {'ratio':>6} {'residual':>12} ok")
for r in squall:
    t = torch_ms.get(r["n"], float("nan"))
    print(f"{r['n']:>6} {r['block']:>6} {r['kernel']:<22} {r['ms_median']:>8.2f} {t:>9.2f} {r['ms_median'] / t:>6.2f} {str(r.get('residual')):>12} {r.get('ok')}")
if not squall:
    print("(no Squall results: see lookahead.log)")
PY
echo "total $((SECONDS - start)) s" | tee -a "$L"
