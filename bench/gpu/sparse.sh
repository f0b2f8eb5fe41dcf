#!/usr/bin/env bash
# Issue 4 (sparse) GPU run on the H100 host, from the bundle, run from the repository root:
#   ./scripts/bundle                     # builds dist/squall-bundle.tar.gz
#   device run, carry dist/:  bash bench/gpu/sparse.sh
# For each matrix (Bell & Garland stencils at n ~ 10^6, HPCG 104^3, skewed rows 0.1% x 5000, R-MAT scale 20,
# banded), `squall spmv` on cuda:0 in fp64 runs every format and `auto`, --verify'd against the JVM reference,
# and dumps the matrix so the CuPy/cuSPARSE peer (bench/peers/cupy_spmv.py) times the same matrix.
# Counted bytes are identical for squall and the peer. Also fp32 for the stencil and skewed matrices.
# Writes under $OUT (6 files): devices.txt, spmv-fp64.jsonl, spmv-fp32.jsonl, cupy-spmv.jsonl, stderr.txt, summary.txt
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
work=/tmp/squall-sparse-run
rm -rf "$work" && mkdir -p "$work"
tar xzf dist/squall-bundle.tar.gz -C "$work"
S="$work/squall/bin/squall"
export SQUALL_CACHE=/tmp/squall-cache
DUMP=/tmp/squall-sparse-mats
rm -rf "$DUMP"
DEV=${SQUALL_SPARSE_DEVICE:-cuda:0}
{
  echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"
  "$S" devices
} 2>&1 | tee "$OUT/devices.txt"

MATS="27pt:100x100x100 7pt:100x100x100 5pt:1000x1000 9pt:1000x1000 3pt:1000000 hpcg:104x104x104 skewed:1000000 rmat:20 banded:1000000x4"
FORMATS="auto,csr,csr-vector,csr-merge,coo,ell,sell,dia,hyb"
names=()
for m in $MATS; do
  n=${m//[:x]/_}
  names+=("$n")
  echo "== $m" >&2
  timeout 150 "$S" spmv --generate "$m" --device "$DEV" --format "$FORMATS" --repeat 50 --verify --json \
      --dump "$DUMP" --dump-name "$n" >> "$OUT/spmv-fp64.jsonl" 2>> "$OUT/stderr.txt" || echo "spmv $m exit $?" | tee -a "$OUT/stderr.txt"
done
for m in 27pt:100x100x100 skewed:1000000; do
  timeout 90 "$S" spmv --generate "$m" --device "$DEV" --precision fp32 --format auto,csr-vector,csr-merge,sell --repeat 50 \
      --verify --json >> "$OUT/spmv-fp32.jsonl" 2>> "$OUT/stderr.txt" || echo "spmv fp32 $m exit $?" | tee -a "$OUT/stderr.txt"
done
PYTHONUNBUFFERED=1 timeout 150 python3 bench/peers/cupy_spmv.py "$DUMP" "${names[@]}" > "$OUT/cupy-spmv.jsonl" 2>> "$OUT/stderr.txt" \
  || echo "cupy peer exit $?" | tee -a "$OUT/stderr.txt"

python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, sys, collections
out = sys.argv[1]
def rows(f):
    try:
        return [json.loads(l) for l in open(f"{out}/{f}") if l.strip().startswith("{")]
    except FileNotFoundError:
        return []
peer = {(r["matrix"], r["precision"]): r for r in rows("cupy-spmv.jsonl")}
for prec, f in (("fp64", "spmv-fp64.jsonl"), ("fp32", "spmv-fp32.jsonl")):
    by = collections.OrderedDict()
    for r in rows(f):
        if "error" in r:
            continue
        key = r["matrix"].replace(":", "_").replace("x", "_")
        by.setdefault(key, []).append(r)
    print(f"\n{prec}: GB/s of counted bytes (median of 50); peer = CuPy csr_matrix @ x (cusparseSpMV)")
    print(f"{'matrix':24} {'nnz':>10} {'auto (pick)':>22} {'best format':>22} {'cuSPARSE':>9} {'best/cuSP':>9} {'auto/best':>9} {'copy%':>6} {'verify':>6}")
    for m, rs in by.items():
        auto = next((r for r in rs if r["reason"].startswith("auto")), None)
        named = [r for r in rs if not r["reason"].startswith("auto")] or rs
        best = max(named, key=lambda r: r["gbs"])
        p = peer.get((m, prec))
        ok = all(r.get("verified") for r in rs)
        a = f"{auto['gbs']:.0f} ({auto['format']})" if auto else "-"
        print(f"{m:24} {rs[0]['nnz']:>10} {a:>22} {best['gbs']:>12.0f} ({best['format']:>7}) "
              f"{(p['gbs'] if p else float('nan')):>9.0f} {(best['gbs'] / p['gbs'] if p else float('nan')):>9.2f} "
              f"{(auto['gbs'] / best['gbs'] if auto else float('nan')):>9.2f} {100 * best['ratio_to_copy']:>5.0f}% {'ok' if ok else 'FAIL':>6}")
PY
