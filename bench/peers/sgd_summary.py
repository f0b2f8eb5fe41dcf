"""Summary table of `squall sgd --json` lines (bench/gpu/sgd.sh): schedule, kernel, device, epochs, final test RMSE
against the planted noise floor and the reachable RMSE, the first epoch within 1% of the reachable RMSE and the
training time up to it, median updates/s and its ratio to the copy-bandwidth bound, time of one epoch, the schedule's
span (critical path in dependent updates) and the largest row."""
import sys

from jsonl import rows


def main(path):
    print(f"{'schedule':<11} {'kernel':<13} {'device':<9} {'epochs':>6} {'test RMSE':>9} {'floor':>6} {'reach':>6} "
          f"{'lr0':>6} {'1% at':>6} {'train s':>7} {'upd/s':>9} {'/bound':>6} {'epoch ms':>9} {'span':>9} {'row':>8}")
    for r in rows(path):
        ups = r.get("median_updates_per_s") or 0
        nnz = r.get("train") or 0
        epoch_ms = 1e3 * nnz / ups if ups and nnz else float("nan")
        reach = r.get("reachable_rmse") or float("nan")
        at, t_ms, hit = "-", 0.0, None
        for e in r.get("epochs", []):
            t_ms += e.get("kernel_ms") or 0
            if hit is None and e.get("test_rmse") is not None and e["test_rmse"] <= 1.01 * reach:
                hit = (e["epoch"], t_ms)
        if hit:
            at = str(hit[0])
        print(f"{str(r.get('schedule')):<11} {str(r.get('kernel')) + ('/fp16' if r.get('precision') == 'fp16-storage' else ''):<13} {str(r.get('device')):<9} "
              f"{len(r.get('epochs', [])):>6} {r.get('final_test_rmse', float('nan')):>9.4f} "
              f"{r.get('floor') or float('nan'):>6.3f} {reach:>6.4f} {(r.get('epochs') or [{}])[0].get('lr') or float('nan'):>6.3f} {at:>6} {(hit[1] / 1e3 if hit else float('nan')):>7.2f} "
              f"{ups:>9.3g} {r.get('ratio_to_bound', float('nan')):>6.2f} "
              f"{epoch_ms:>9.1f} {r.get('span') or 0:>9} {r.get('largest_row') or 0:>8}")


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    main(sys.argv[1])
