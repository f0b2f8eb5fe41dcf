#!/usr/bin/env bash
# Sparse SpMV/SpMM against cuSPARSE on the H100 host, from the bundle, run from the repository root:
#   ./scripts/bundle                     # builds dist/squall-bundle.tar.gz
#   device run, carry dist/:  bash bench/gpu/sparse.sh
# SpMV: for each matrix (Bell & Garland stencils at n ~ 10^6, HPCG 104^3, skewed rows 0.1% x 5000, R-MAT
# scale 20, banded), `squall spmv` on cuda:0 in fp64 runs `auto` and every format, --verify'd against the JVM
# reference, and dumps the matrix so the CuPy/cuSPARSE peer (bench/peers/cupy_sparse.py) times the same
# matrix. fp32 for 27pt, skewed and R-MAT. SpMM (K = 8, row- and column-major X) on 27pt, skewed and R-MAT,
# peer CuPy csr_matrix @ X (cusparseSpMM). Timing on both sides: batches of 10 back-to-back products
# between two CUDA events (the peer captures its batch in a CUDA graph when CuPy can), median of 30.
# Counted bytes are identical for squall and the peer. BCSR on a block matrix (1M rows of 4x4 blocks; auto should
# pick bcsr), no peer. Last, the JVM target on the host's CPU: JMH SpmvJvmBenchmark, Squall CSR on the jvm device
# against EJML's CSC product (27pt and skewed, 1M rows).
# Order: fp64 SpMV, the CuPy peer, then fp32, SpMM, BCSR, JMH (so a slow host cannot cost the comparison).
# Writes under $OUT (8 files): devices.txt, spmv-fp64.jsonl, spmv-fp32.jsonl, spmm.jsonl, cupy.jsonl,
# jvm-ejml.txt, stderr.txt, summary.txt. Budget: under 8 minutes; steps are skipped (and said so) past 7.
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-sparse-run
S="$B/bin/squall"
BUDGET=420 STEP_MIN=15
DUMP=/tmp/squall-sparse-mats
rm -rf "$DUMP"
DEV=${SQUALL_SPARSE_DEVICE:-cuda:0}
REP="--repeat 30 --batch 10"
{
  echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"
  "$S" devices
} 2>&1 | tee "$OUT/devices.txt"

# time left before the 7-minute mark, in seconds (0 when past it)

MATS="27pt:100x100x100 7pt:100x100x100 5pt:1000x1000 9pt:1000x1000 3pt:1000000 hpcg:104x104x104 skewed:1000000 rmat:20 banded:1000000x4"
FORMATS="auto,csr,csr-vector,csr-merge,csr-binned,coo,ell,sell,dia,hyb"
names=()
for m in $MATS; do
  n=${m//[:x]/_}
  names+=("$n")
  F=$FORMATS
  # one launch (csr-binned) against the two-launch long-row path, where long rows exist; CSR-stream blocks for short rows;
  # csr-binned's knobs (round 6: 4 entries a lane with 4 in flight, 4 in flight alone, bins by row length, groups of 512)
  case $m in skewed*|rmat*) F="$FORMATS,csr-binned-two-launch,csr-stream,csr-stream-64,csr-binned/e4/u4,csr-binned/e4/u4/len,csr-binned/u4,csr-binned/g512" ;; esac
  step 120 "spmv fp64 $m" "$S" spmv --generate "$m" --device "$DEV" --format "$F" $REP --verify --json \
      --dump "$DUMP" --dump-name "$n" >> "$OUT/spmv-fp64.jsonl" 2>> "$OUT/stderr.txt"
done
export PYTHONUNBUFFERED=1
step 150 "cupy spmv" python3 bench/peers/cupy_sparse.py "$DUMP" "${names[@]}" --fp32-only 27pt_100_100_100,skewed_1000000,rmat_20 \
    >> "$OUT/cupy.jsonl" 2>> "$OUT/stderr.txt"
step 90 "cupy spmm" python3 bench/peers/cupy_sparse.py "$DUMP" 27pt_100_100_100 skewed_1000000 rmat_20 --spmm 8 \
    >> "$OUT/cupy.jsonl" 2>> "$OUT/stderr.txt"
for m in 27pt:100x100x100 skewed:1000000 rmat:20; do
  step 60 "spmv fp32 $m" "$S" spmv --generate "$m" --device "$DEV" --precision fp32 \
      --format auto,csr-vector,csr-merge,csr-binned,csr-binned-two-launch,csr-stream,csr-stream-64,sell,dia $REP --verify --json >> "$OUT/spmv-fp32.jsonl" 2>> "$OUT/stderr.txt"
done
for m in 27pt:100x100x100 skewed:1000000 rmat:20; do
  step 60 "spmm K=8 $m" "$S" spmm --generate "$m" --device "$DEV" --vectors 8 --layout row,col $REP --verify --json \
      >> "$OUT/spmm.jsonl" 2>> "$OUT/stderr.txt"
done
# BCSR (R x C picked by the inspector) on a matrix of dense 4x4 blocks, with the other formats (no peer)
step 60 "spmv fp64 blocks:250000x4" "$S" spmv --generate blocks:250000x4 --device "$DEV" --format auto,csr,csr-binned,sell,bcsr $REP --verify \
    --json >> "$OUT/spmv-fp64.jsonl" 2>> "$OUT/stderr.txt"
# the JVM target: Squall CSR on the jvm device vs EJML 0.44 CSC (single-threaded), same matrices, one JMH run
# libjsig: the drivers the device discovery loads (PoCL's LLVM) replace the JVM's signal handlers (forks crashed with 139)
step 150 "jmh SpmvJvmBenchmark" env LD_PRELOAD="$B/runtime/lib/libjsig.so" "$B/runtime/bin/java" --enable-native-access=ALL-UNNAMED -cp "$B/lib/*" \
    org.openjdk.jmh.Main SpmvJvmBenchmark -f 1 -wi 3 -i 5 > "$OUT/jvm-ejml.txt" 2>&1
echo "total $((SECONDS - start)) s" >> "$OUT/stderr.txt"

python3 bench/peers/sparse_summary.py "$OUT" | tee "$OUT/summary.txt"
