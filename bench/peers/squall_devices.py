"""Device ids from `squall devices --json` on stdin, for the GPU scripts that pick devices by backend or name.

Usage: squall devices --json | python3 bench/peers/squall_devices.py [--backend B | --not-backend B] [--name-contains S] [--name-excludes S] [--first]
Prints the ids of the available devices that match, joined by commas; with --first only the first one ("" when none).
"""
import argparse
import json
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--backend", help="keep devices of this backend only (jvm, opencl, cuda)")
    p.add_argument("--not-backend", help="drop devices of this backend")
    p.add_argument("--name-contains", help="keep devices whose name contains this text")
    p.add_argument("--name-excludes", help="drop devices whose name contains this text")
    p.add_argument("--first", action="store_true", help="print the first match only")
    a = p.parse_args()
    ids = [d["id"] for d in json.load(sys.stdin)["devices"]
           if d.get("available")
           and (a.backend is None or d["backend"] == a.backend)
           and (a.not_backend is None or d["backend"] != a.not_backend)
           and (a.name_contains is None or a.name_contains in d["name"])
           and (a.name_excludes is None or a.name_excludes not in d["name"])]
    print(ids[0] if a.first and ids else "" if a.first else ",".join(ids))


if __name__ == "__main__":
    main()
