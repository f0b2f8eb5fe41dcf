"""Summary table of `squall sgd --json` lines (bench/gpu/sgd.sh): schedule, device, epochs, best test RMSE against the
planted noise floor, median updates/s and its ratio to the copy-bandwidth bound, time of one epoch."""
import sys

from jsonl import rows


def main(path):
    print(f"{'schedule':<11} {'device':<9} {'blocks':>6} {'epochs':>6} {'test RMSE':>9} {'floor':>6} "
          f"{'upd/s':>9} {'/bound':>6} {'epoch ms':>9} {'inspect ms':>10}")
    for r in rows(path):
        ups = r.get("median_updates_per_s") or 0
        nnz = r.get("train") or 0
        epoch_ms = 1e3 * nnz / ups if ups and nnz else float("nan")
        print(f"{str(r.get('schedule')):<11} {str(r.get('device')):<9} {str(r.get('detail', ''))[:6]:>6} "
              f"{len(r.get('epochs', [])):>6} {r.get('final_test_rmse', float('nan')):>9.4f} "
              f"{r.get('floor') or float('nan'):>6.3f} {ups:>9.3g} {r.get('ratio_to_bound', float('nan')):>6.2f} "
              f"{epoch_ms:>9.1f} {r.get('inspector_ms', float('nan')):>10.1f}")


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    main(sys.argv[1])
