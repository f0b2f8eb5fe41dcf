"""JSON lines as Squall's GPU scripts collect them: one object per line; other lines (progress, errors) are skipped.

Usage: from jsonl import rows; rows("spmv.jsonl") -> list of dicts ([] when the file is missing).
"""
import json


def rows(path):
    out = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return out
