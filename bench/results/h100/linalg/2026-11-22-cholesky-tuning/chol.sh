set -uo pipefail
. bench/gpu/lib.sh; unpack_bundle /tmp/sq; S="$B/bin/squall"
J=$OUT/chol.jsonl; L=$OUT/chol.log; : > $J; : > $L
sq() { echo "+ squall $*" >> $L; timeout 150 "$S" "$@" --json >> $J 2>> $L; echo "exit $? : squall $*" | tee -a $L; }
sq gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5
sq cholesky --n 16384 --precision fp64 --device cuda:0 --verify --repeat 3
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 512 --profile
sq cholesky --n 8192 --precision fp64 --device cuda:0 --repeat 5
sq cholesky --n 32768 --precision fp64 --device cuda:0 --repeat 2
PYTHONUNBUFFERED=1 timeout 120 python3 - >> $OUT/torch.jsonl 2>>$L <<'PY'
import json, sys
sys.path.insert(0, "bench/peers")
import torch
from cuda_timing import median_ms
from torch_linalg import covariance
for n in (8192, 16384):
    gen = torch.Generator(device="cuda").manual_seed(42)
    a = covariance(n, 1, torch.float64, gen)[0]
    ms = median_ms(lambda: torch.linalg.cholesky(a), 5, warmup=2)
    print(json.dumps(dict(peer="torch", op="cholesky", n=n, ms=ms)), flush=True)
x = torch.randn(8192, 8192, dtype=torch.float64, device="cuda"); y = torch.randn(8192, 8192, dtype=torch.float64, device="cuda")
ms = median_ms(lambda: x @ y, 5, warmup=2)
print(json.dumps(dict(peer="torch", op="dgemm", n=8192, ms=ms, tflops=2 * 8192**3 / ms / 1e9)), flush=True)
PY
cat $J | python3 -c '
import json,sys
for l in sys.stdin:
    try: d=json.loads(l)
    except: continue
    print({k:d.get(k) for k in ("command","n","m","kernel","phase","launches","ms_median","gflops","tflops","residual") if k in d})'
cat $OUT/torch.jsonl
