#!/usr/bin/env bash
# Matrix permanents on the H100 host, from the bundle (no JDK there):
#   ./scripts/bundle              # here: builds dist/squall-bundle.tar.gz
#   on the GPU host, from the repository root:   bash bench/gpu/permanent.sh
# Measures, on cuda:0 with decomposition OFF (the raw Gray-code phase, as the paper times it):
#   CodeGen-Hybrid  n=40 p=0.1, n=40 p=0.5, n=45 p=0.1   (paper, A100: 3.18 s, 6.51 s, 92 s; targets <= 1.59 s, 3.26 s, 50 s)
#   CodeGen-PureReg n=40 p=0.1 and p=0.5; the generic sparse kernel (x in private memory) at n=36 p=0.1; the generic
#   dense kernel with x in local memory (dense-local) against x in private memory at n=34
#   the exact 0/1 kernel (--exact: 2^n Ryser steps in 64-bit integers, generated per matrix), verified at n=28 against
#   the JVM's 128-bit path, timed at n=32 p=0.5 (a residue mod 2^64: that count exceeds 64 bits), n=36 p=0.15 (also
#   with the generic exact kernel) and n=40 p=0.15
#   the JVM backend (multi-threaded Java, all host cores) at n=32 p=0.1; GPU/JVM ratio extrapolated by 2^(n-1)
#   correctness on the GPU: every method at n=28 with --verify, and the module's device tests (gpu-check, skipped
#   with SQUALL_SKIP_GPU_CHECK=1)
#   peers: bench/peers/cupy_permanent.py (independent dense Gray-code kernel in CuPy),
#          bench/peers/cupy_exact_permanent.py (independent exact 0/1 Ryser kernel, 64-bit, in CuPy)
# Each run has its own timeout, so one slow run cannot push the whole script past 8 minutes in the usual case.
# Writes under $OUT (6 files): runs.jsonl, console.txt, gpu-check-reports.tgz, cupy-peer.txt, cupy-exact-peer.txt,
# summary.txt (bench/peers/permanent_summary.py)
set -uo pipefail
. bench/gpu/lib.sh
unpack_bundle /tmp/squall-run
S="$B/bin/squall"
log() { echo "$@" | tee -a "$OUT/console.txt" >&2; }
log "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(nproc) host cores"

# run LABEL TIMEOUT ARGS...: one JSON line per run into runs.jsonl (label added), console output kept
run() {
  local label=$1 limit=$2; shift 2
  log "== $label: squall permanent $*"
  local js
  js=$(timeout "$limit" "$S" permanent "$@" --json 2>>"$OUT/console.txt")
  local rc=$?
  if [ $rc -eq 0 ] && [ -n "$js" ]; then
    echo "{\"label\":\"$label\",${js#\{}" >> "$OUT/runs.jsonl"
    echo "$js" | head -c 1500 >> "$OUT/console.txt"; echo >> "$OUT/console.txt"
  else
    echo "{\"label\":\"$label\",\"failed\":true,\"exit\":$rc}" >> "$OUT/runs.jsonl"
    log "   FAILED (exit $rc; 124 = timed out after ${limit}s)"
  fi
}

# 1. correctness on the GPU (small, fast): every method verified against the JVM dense sweep
for m in codegen-hybrid codegen-reg sparse dense; do
  run "verify-$m-n28" 40 --random 28:0.3:2 --device cuda:0 --method "$m" --no-decompose --verify
done
run "verify-auto-decompose-n30" 40 --random 30:0.15:3 --device cuda:0 --verify

# 2. the paper's sizes, decomposition off (generation and NVRTC build are included in sweep time; reported separately)
run "hybrid-n40-p0.1" 60  --random 40:0.1:1 --device cuda:0 --method codegen-hybrid --no-decompose
run "hybrid-n40-p0.5" 60  --random 40:0.5:1 --device cuda:0 --method codegen-hybrid --no-decompose
run "purereg-n40-p0.1" 60 --random 40:0.1:1 --device cuda:0 --method codegen-reg --no-decompose
run "purereg-n40-p0.5" 60 --random 40:0.5:1 --device cuda:0 --method codegen-reg --no-decompose
run "generic-sparse-n36-p0.1" 60 --random 36:0.1:1 --device cuda:0 --method sparse --no-decompose
# the generic dense kernel: x in private memory vs x in local (shared) memory
run "generic-dense-n34-p0.5" 60 --random 34:0.5:1 --device cuda:0 --method dense --no-decompose
run "generic-dense-local-n34-p0.5" 60 --random 34:0.5:1 --device cuda:0 --method dense-local --no-decompose
run "hybrid-n45-p0.1" 170 --random 45:0.1:1 --device cuda:0 --method codegen-hybrid --no-decompose
# the same n=40 matrix with decomposition on (what the blocks/elimination save)
run "auto-n40-p0.1-decompose" 60 --random 40:0.1:1 --device cuda:0

# 2b. the exact 0/1 kernel (the float solve runs too; exact_* fields time the exact kernel alone; --no-decompose: raw 2^n steps)
# The exact kernel is generated per matrix (row sums in registers); --repeat 2 keeps the faster run, whose build
# comes from the cache, so exact_seconds is the sweep; the generic kernel runs once more at n=36 for comparison.
run "verify-exact-n28-p0.5" 60 --random 28:0.5:2 --binary --exact --device cuda:0 --verify
run "exact-n32-p0.5" 60 --random 32:0.5:1 --binary --exact --device cuda:0 --no-decompose --repeat 2
run "exact-n36-p0.15" 60 --random 36:0.15:1 --binary --exact --device cuda:0 --no-decompose --repeat 2
run "exact-generic-n36-p0.15" 60 --random 36:0.15:1 --binary --exact --exact-kernel generic --device cuda:0 --no-decompose
run "exact-n40-p0.15" 90 --random 40:0.15:1 --binary --exact --device cuda:0 --no-decompose

# 3. JVM backend on this host's cores, smaller n
run "jvm-sparse-n32-p0.1" 60 --random 32:0.1:1 --device jvm --method sparse --no-decompose
run "jvm-dense-n32-p0.5" 60 --random 32:0.5:1 --device jvm --method dense --no-decompose
run "jvm-accurate-n28-p0.2" 90 --random 28:0.2:1 --device jvm --accurate --no-decompose --verify

# 4. the module's device tests on CUDA (and NVIDIA OpenCL)
if [ "${SQUALL_SKIP_GPU_CHECK:-0}" != "1" ]; then  # check.sh runs every class when called first
"$B/bin/gpu-check" --select dev.squall.permanent.kernel.GenericKernelPermanentTest \
  --select dev.squall.permanent.codegen.GeneratedKernelPermanentTest \
  --select dev.squall.permanent.PermanentSolverTest \
  --select dev.squall.permanent.exact.BinaryKernelPermanentTest > /tmp/perm-gpu-check-console.txt 2>&1
log "gpu-check exit: $?"
pack_reports /tmp/perm-gpu-check-console.txt
fi

# 5. peer: CuPy dense Gray-code kernel
PYTHONUNBUFFERED=1 timeout 90 python3 bench/peers/cupy_permanent.py 32:0.1 36:0.1 36:0.5 > "$OUT/cupy-peer.txt" 2>&1
log "cupy peer exit: $?"
PYTHONUNBUFFERED=1 timeout 120 python3 bench/peers/cupy_exact_permanent.py 28:0.5 32:0.5 36:0.15 > "$OUT/cupy-exact-peer.txt" 2>&1
log "cupy exact peer exit: $?"

# 6. summary table (last)
python3 bench/peers/permanent_summary.py "$OUT/runs.jsonl" "$OUT/cupy-peer.txt" "$OUT/cupy-exact-peer.txt" > "$OUT/summary.txt"
cat "$OUT/summary.txt"
