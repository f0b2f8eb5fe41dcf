#!/usr/bin/env bash
# Round 7 (sparse): csr-binned with 21-bit packed column indices (knob p21) on skewed:1000000 and rmat:20, fp64
# only, on the H100 host, from the bundle:
#   ./scripts/bundle                     # builds dist/squall-bundle.tar.gz
#   device run, carry dist/:  bash bench/gpu/sparse-packed.sh
# `squall spmv` on cuda:0 runs csr-binned, csr-binned/u4 and their packed twins csr-binned/p21, csr-binned/u4/p21
# on the same matrix, --verify'd, batches of 10 between two events, median of 30, with the gather-limit kernel
# (12 bytes an entry streamed: the ceiling p21 should pass), and dumps the matrix; the CuPy/cuSPARSE peer
# (bench/peers/cupy_sparse.py) times the same dumped matrices. Counted bytes are CSR's for every format.
# Writes under $OUT: spmv.jsonl, cupy.jsonl, stderr.txt, summary.txt (a table of GB/s with ratios to csr-binned,
# to the unpacked twin, cuSPARSE and the gather limit). Budget: under 100 s (steps are skipped, and said so,
# past 95 s).
set -uo pipefail
OUT=${OUT:-/tmp/squall-out}
mkdir -p "$OUT"
start=$SECONDS
work=/tmp/squall-sparse-packed
rm -rf "$work" && mkdir -p "$work"
tar xzf dist/squall-bundle.tar.gz -C "$work"
S="$work/squall/bin/squall"
export SQUALL_CACHE=/tmp/squall-cache
DUMP=/tmp/squall-sparse-packed-mats
rm -rf "$DUMP"
DEV=${SQUALL_SPARSE_DEVICE:-cuda:0}
FORMATS="csr-binned,csr-binned/u4,csr-binned/p21,csr-binned/u4/p21"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/stderr.txt" 2>&1
left() { local l=$((95 - (SECONDS - start))); echo $((l > 0 ? l : 0)); }
step() { # step TIMEOUT_S DESCRIPTION CMD...
  local t=$1 what=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 10 ]; then echo "SKIPPED (time budget): $what" | tee -a "$OUT/stderr.txt"; return; fi
  [ "$t" -gt "$l" ] && t=$l
  echo "== $what ($((SECONDS - start)) s)" >&2
  timeout "$t" "$@" || echo "$what: exit $?" | tee -a "$OUT/stderr.txt"
}
for m in skewed:1000000 rmat:20; do
  n=${m//[:x]/_}
  step 35 "spmv fp64 $m" "$S" spmv --generate "$m" --device "$DEV" --format "$FORMATS" --repeat 30 --batch 10 --verify --json \
      --dump "$DUMP" --dump-name "$n" >> "$OUT/spmv.jsonl" 2>> "$OUT/stderr.txt"
done
export PYTHONUNBUFFERED=1
step 25 "cupy spmv" python3 bench/peers/cupy_sparse.py "$DUMP" skewed_1000000 rmat_20 >> "$OUT/cupy.jsonl" 2>> "$OUT/stderr.txt"
echo "total $((SECONDS - start)) s" >> "$OUT/stderr.txt"

python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, sys
out = sys.argv[1]
def rows(f):
    try:
        return [json.loads(l) for l in open(f"{out}/{f}") if l.strip().startswith("{")]
    except FileNotFoundError:
        return []
peer = {r["matrix"]: r["gbs"] for r in rows("cupy.jsonl") if r["op"] == "spmv" and r["precision"] == "fp64"}
by = {}
for r in rows("spmv.jsonl"):
    by.setdefault(r["matrix"].replace(":", "_").replace("x", "_"), []).append(r)
print("SpMV fp64, GB/s of counted (CSR) bytes (batches of 10, median of 30); /binned: to csr-binned (one launch);")
print("/unpacked: a p21 format to the same knobs without p21; cuSPARSE: CuPy csr_matrix @ x; /limit: to the gather limit")
for m, rs in by.items():
    ok = {r["format"]: r["gbs"] for r in rs if "error" not in r}
    base = ok.get("csr-binned", float("nan"))
    p = peer.get(m, float("nan"))
    lim = next((r["gather_limit_gbs"] for r in rs if r.get("gather_limit_gbs")), float("nan"))
    print(f"\n{m}: cuSPARSE {p:.0f} GB/s, gather limit {lim:.0f} GB/s")
    print(f"  {'format':28} {'GB/s':>7} {'/binned':>8} {'/unpacked':>9} {'/cuSP':>6} {'/limit':>7} {'verify':>6}")
    for r in rs:
        if "error" in r:
            print(f"  {r['format']:28} error: {r['error']}")
            continue
        g = r["gbs"]
        f = r["format"]
        twin = ok.get(f.replace("/p21", "")) if f.endswith("/p21") else None
        un = f"{g / twin:>9.3f}" if twin else f"{'':>9}"
        print(f"  {f:28} {g:>7.0f} {g / base:>8.3f} {un} {g / p:>6.2f} {g / lim:>7.2f} {'ok' if r.get('verified') else 'FAIL':>6}")
PY
