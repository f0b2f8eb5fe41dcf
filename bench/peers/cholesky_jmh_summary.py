"""Summary of the JMH part of bench/gpu/linalg.sh: Squall's jvm device against EJML, fp64 Cholesky ms/op.

Usage: python3 bench/peers/cholesky_jmh_summary.py jvm-ejml.txt
Reads each trial's "Result" block, so a run cut short by its timeout still reports the trials it finished.
"""
import os
import re
import sys

ms, bench, n = {}, None, None
lines = open(sys.argv[1]).read().splitlines()
for i, l in enumerate(lines):
    m = re.match(r"# Benchmark: \S+\.(\w+)$", l)
    if m:
        bench = m.group(1)
    m = re.match(r"# Parameters: \(n = (\d+)\)", l)
    if m:
        n = int(m.group(1))
    if l.startswith("Result ") and i + 1 < len(lines) and bench and n:
        m = re.match(r"\s*([0-9.]+)", lines[i + 1])
        if m:
            ms[(bench, n)] = float(m.group(1))
nan = float("nan")
print(f"\nJVM (host CPU, {len(os.sched_getaffinity(0))} cores), fp64 Cholesky ms/op (JMH): Squall jvm device (fork-join pool) vs EJML 0.44")
print("single-threaded (ejml) and multi-threaded (ejml-mt); target ejml/squall >= 1")
print(f"{'n':>6} {'squall':>9} {'ejml':>9} {'ejml-mt':>9} {'ejml/squall':>12} {'ejml-mt/squall':>15}")
for n in sorted({k[1] for k in ms}):
    s, e, m = ms.get(("squallJvm", n), nan), ms.get(("ejml", n), nan), ms.get(("ejmlMt", n), nan)
    print(f"{n:>6} {s:>9.2f} {e:>9.2f} {m:>9.2f} {e / s:>12.2f} {m / s:>15.2f}")
if not ms:
    print("(no JMH results: see jvm-ejml.txt)")
