"""One run of a TornadoVM example program as a JSON line, for bench/gpu/tornado.sh: parses the program's RESULT line
(or keeps the last line of output as the error when there is none) from stdin and appends the row to a JSON-lines file.

Usage: tornado ... | python3 bench/peers/tornado_row.py DEVICE_LABEL B:D PROGRAM SIZE EXIT_CODE tornado.jsonl
"""
import json
import re
import sys

label, bd, prog, size, rc, path = sys.argv[1:]
text = sys.stdin.read()
m = re.search(r"RESULT program=(\S+) size=(\d+) device=(\S+) backend=(\S+) repeat=(\d+) tornadoMs=(\S+) javaMs=(\S+) "
              r"maxError=(\S+) tolerance=(\S+) (PASS|FAIL)", text)
row = {"program": prog, "size": int(size), "device": label, "tornado_device": bd, "exit": int(rc)}
if m:
    row.update(backend=m.group(4), repeat=int(m.group(5)), tornado_ms=float(m.group(6)), java_ms=float(m.group(7)),
               speedup=float(m.group(7)) / max(float(m.group(6)), 1e-9), max_error=float(m.group(8)),
               tolerance=float(m.group(9)), passed=m.group(10) == "PASS" and rc == "0")
else:
    lines = text.strip().splitlines()
    row.update(passed=False, error=lines[-1] if lines else "no output")
with open(path, "a") as f:
    f.write(json.dumps(row) + "\n")
