"""Writes a peer's results in the schema of `squall bench --out` (tornado-tasks/cli/JSON.md, "demo and bench rows";
dev.squall.bench.cli.BenchCommand.SuiteResult), so that `squall bench --peers FILE` puts them in its table, CSV and
charts next to Squall's devices, and scripts/docs reads them like Squall's own files.

A peer is a device of its own in that schema: its id names the library and the GPU (cusparse:0, cusolver:0,
torch:cuda:0). Its limit and ratio come from the Squall run on the same host (--limits FILE, that run's --out JSON:
the copy GB/s and multiply-add GFLOP/s of cuda:0), so both sides are measured against one yardstick; without it
they are null.
"""
import json
import statistics

import numpy as np


def limits(path, device="cuda:0"):
    """(copy GB/s, multiply-add GFLOP/s) of `device` in a `squall bench --out` JSON file, or (None, None)."""
    if not path:
        return None, None
    for d in json.load(open(path)).get("devices", []):
        if d["device"] == device:
            return d["copy_gbs"], d["fma_gflops"]
    return None, None


def row(workload, title, size, scale, scale_unit, device, precision, samples_ms, bound, work, note, error, tolerance, checked_against,
        lims=(None, None), wall_ms=None):
    """One row: samples in ms, work in bytes (memory-bound) or flops (compute-bound) of one sample."""
    median = sorted(samples_ms)[len(samples_ms) // 2]
    spread = (max(samples_ms) - min(samples_ms)) / median
    rate = work / (median * 1e-3) / 1e9
    limit = lims[0] if bound == "memory" else lims[1]
    return {"workload": workload, "title": title, "size": size, "scale": float(scale), "scale_unit": scale_unit, "device": device,
            "precision": precision, "samples_ms": [float(s) for s in samples_ms], "median_ms": median, "spread": spread, "bound": bound,
            "work": float(work), "rate": rate, "rate_unit": "GB/s" if bound == "memory" else "GFLOP/s", "limit": limit,
            "ratio_to_limit": None if limit is None else rate / limit, "speedup_over_jvm": None, "note": note, "error": float(error),
            "tolerance": float(tolerance), "checked_against": checked_against, "ok": bool(error <= tolerance),
            "wall_ms": float(wall_ms if wall_ms is not None else sum(samples_ms))}


def write(path, suite, device, name, rows, lims=(None, None), software=""):
    """The file: the peer as the one device, its rows, ok when every row is."""
    doc = {"command": "bench", "suite": suite, "java": software, "devices": [
        {"device": device, "name": name, "copy_gbs": lims[0], "fma_gflops": lims[1], "measure_ms": 0.0}],
           "rows": rows, "compared_with": None, "comparison": [], "regressions": 0, "files": [path], "ok": all(r["ok"] for r in rows)}
    with open(path, "w") as f:
        json.dump(doc, f, allow_nan=False)
        f.write("\n")
    for r in rows:
        print(f"{device} {r['workload']} {r['size']}: {r['median_ms']:.4g} ms, {r['rate']:.4g} {r['rate_unit']}, "
              f"error {r['error']:.1e} {'ok' if r['ok'] else 'WRONG'}", flush=True)


def relative_error(got, want):
    """||got - want|| / ||want||, infinity for NaN."""
    e = float(np.linalg.norm(np.asarray(got, dtype=np.float64) - want) / max(np.linalg.norm(want), 1e-300))
    return e if e == e else float("inf")


def median(xs):
    return statistics.median(xs)
