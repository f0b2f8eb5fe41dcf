set -uo pipefail
. bench/gpu/lib.sh; unpack_bundle /tmp/sq; S="$B/bin/squall"
J=$OUT/chol.jsonl; L=$OUT/chol.log; : > $J; : > $L
sq() { echo "+ squall $*" >> $L; timeout 150 "$S" "$@" --json >> $J 2>> $L; echo "exit $? : squall $*" | tee -a $L; }
sq gemm --m 8192 --batch 1 --precision fp64 --device cuda:0 --repeat 5
sq cholesky --n 16384 --precision fp64 --device cuda:0 --verify --repeat 3
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 512 --profile
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 1024
sq cholesky --n 16384 --precision fp64 --device cuda:0 --repeat 3 --block 256
sq cholesky --n 4096 --precision fp64 --device cuda:0 --verify --repeat 5
sq cholesky --n 8192 --precision fp64 --device cuda:0 --verify --repeat 5
sq cholesky --n 32768 --precision fp64 --device cuda:0 --repeat 2
PYTHONUNBUFFERED=1 timeout 120 python3 - >> $OUT/torch.jsonl 2>>$L <<'PY'
import json, sys
sys.path.insert(0, "bench/peers")
import torch
from cuda_timing import median_ms
from torch_linalg import covariance
for n in (4096, 8192, 16384):
    gen = torch.Generator(device="cuda").manual_seed(42)
    a = covariance(n, 1, torch.float64, gen)[0]
    ms = median_ms(lambda: torch.linalg.cholesky(a), 5, warmup=2)
    print(json.dumps(dict(peer="torch", op="cholesky", n=n, ms=ms)), flush=True)
PY
python3 - $J <<'PY'
import json,sys
for l in open(sys.argv[1]):
    try: d=json.loads(l)
    except: continue
    print({k:d.get(k) for k in ("command","n","m","block","kernel","phase","launches","ms_median","gflops","residual") if k in d})
PY
cat $OUT/torch.jsonl
SQUALL_CHECK_DETAILS=testfeed timeout 400 "$B/bin/gpu-check" --select dev.squall.linalg.cholesky.PanelCholeskyKernelsTest --select dev.squall.linalg.cholesky.BlockedCholeskyTest --select dev.squall.tasks.runtime.conformance.ConformanceTest --select dev.squall.linalg.gemm.BatchedGemmTest > $OUT/check-console.txt 2>&1
echo "gpu-check exit $?"; grep -E "tests (successful|failed|aborted)" $OUT/gpu-check.txt; grep -E "✘" $OUT/gpu-check.txt | head; grep -c "mma16" $OUT/check-console.txt
