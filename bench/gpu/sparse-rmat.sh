#!/usr/bin/env bash
# csr-binned's knobs on rmat:20 and skewed:1000000, fp64 only, on the H100 host, from the bundle:
#   ./scripts/bundle                     # builds dist/squall-bundle.tar.gz
#   device run, carry dist/:  bash bench/gpu/sparse-rmat.sh
# `squall spmv` on cuda:0 runs csr-binned, csr-binned-two-launch and the candidate knobs (csr-binned/KNOBS, see
# `squall spmv --help`) on the same matrix, --verify'd, batches of 10 between two events, median of 30, and dumps
# the matrix; the CuPy/cuSPARSE peer (bench/peers/cupy_sparse.py) times the same dumped matrices.
# Writes under $OUT: spmv.jsonl, cupy.jsonl, stderr.txt, summary.txt (a table of GB/s with ratios to csr-binned,
# cuSPARSE and the gather limit). Budget: under 2.5 minutes (steps are skipped, and said so, past 140 s).
set -uo pipefail
. bench/gpu/lib.sh
start=$SECONDS
unpack_bundle /tmp/squall-sparse-rmat
S="$B/bin/squall"
BUDGET=140 STEP_MIN=10
DUMP=/tmp/squall-sparse-rmat-mats
rm -rf "$DUMP"
DEV=${SQUALL_SPARSE_DEVICE:-cuda:0}
# the candidates: 4 entries a lane with 4 in flight (also by row length, and 8 a lane), 4 in flight alone,
# bins by row length alone, groups of 512 (segments of 4096) and 128, rows up to 1024 on sub-groups
CANDS="csr-binned/e4/u4,csr-binned/e4/u4/len,csr-binned/e8/u4,csr-binned/u4,csr-binned/len,csr-binned/g512,csr-binned/g128,csr-binned/e4/u4/w1024"
FORMATS="csr-binned,csr-binned-two-launch,$CANDS"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/stderr.txt" 2>&1
for m in rmat:20 skewed:1000000; do
  n=${m//[:x]/_}
  step 60 "spmv fp64 $m" "$S" spmv --generate "$m" --device "$DEV" --format "$FORMATS" --repeat 30 --batch 10 --verify --json \
      --dump "$DUMP" --dump-name "$n" >> "$OUT/spmv.jsonl" 2>> "$OUT/stderr.txt"
done
export PYTHONUNBUFFERED=1
step 45 "cupy spmv" python3 bench/peers/cupy_sparse.py "$DUMP" rmat_20 skewed_1000000 >> "$OUT/cupy.jsonl" 2>> "$OUT/stderr.txt"
echo "total $((SECONDS - start)) s" >> "$OUT/stderr.txt"

python3 bench/peers/sparse_rmat_summary.py "$OUT" | tee "$OUT/summary.txt"
