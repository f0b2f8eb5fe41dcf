"""Summary table for bench/gpu/tornado.sh: each TornadoVM example program's time through bin/tornado beside its
plain-Java time, with the largest difference between the two results and its tolerance.

Usage: python3 bench/peers/tornado_summary.py tornado.jsonl
"""
import sys

from jsonl import rows

print("TornadoVM example programs on Squall through bin/tornado (ms: best of the repeats; Java: one thread)")
print(f"{'device':<14} {'program':<24} {'size':>10} {'tornado ms':>11} {'java ms':>10} {'speedup':>8} {'max err':>10} {'tol':>10} ok")
for r in rows(sys.argv[1]):
    if "tornado_ms" not in r:
        print(f"{r['device']:<14} {r['program']:<24} {r['size']:>10} FAILED (exit {r['exit']}): {r.get('error')}")
        continue
    print(f"{r['device']:<14} {r['program']:<24} {r['size']:>10} {r['tornado_ms']:>11.3f} {r['java_ms']:>10.3f} {r['speedup']:>8.1f} "
          f"{r['max_error']:>10.3g} {r['tolerance']:>10.3g} {r['passed']}")
