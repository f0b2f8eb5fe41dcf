"""Summary of squall h2 --json lines with compressions (bench/gpu/h2d-*.sh): build, product, and each compression's
steps and per-plan parts (plans, wall, prepare, device ms)."""
import json, sys
for i, line in enumerate(open(sys.argv[1]), 1):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    cb = r.get("cold_build") or {}
    print(f"{r['dim']}D n={r['n']} (line {i}): build {r['build_ms']:.0f} ms (host {r['build_host_ms']:.0f}, device {r['build_device_ms']:.0f}),"
          f" first build {cb.get('ms', 0):.0f} ms (host {cb.get('host_ms', 0):.0f}, device {cb.get('device_ms', 0):.0f}),"
          f" product {r['product_device_ms']:.2f} ms, verified {r['verified']} rel err {r['rel_error']}")
    for label, z in (("first", r.get("cold_compression")), ("second", r.get("compression"))):
        if not z:
            continue
        print(f"  {label} compression {z['tolerance']:g}: {z['ms']:.0f} ms {z['steps_ms']}, estimate {z['error_estimate']:.2e},"
              f" memory {z['memory_before'] / 1e9:.2f} -> {z['memory_after'] / 1e9:.2f} GB, row ranks {z['row_ranks']},"
              f" projections {z['projection_gflop']:.0f} GFLOP in {z['projection_device_ms']:.1f} ms (gemm {z['projection_gemm']})")
        for name, p in (z.get("parts") or {}).items():
            print(f"    {name:44s} {p['plans']:5d} plans {p['wall_ms']:9.1f} ms wall {p['prepare_ms']:8.1f} prepare {p['kernel_ms']:9.1f} device")
