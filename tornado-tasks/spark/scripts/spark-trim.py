#!/usr/bin/env python3
"""Trims Spark's jars to what Squall's jobs load, and stores them uncompressed so that one solid xz archive packs them.

    spark-trim.py OUT_DIR CLASSLOAD_LOGS_DIR JAR...

CLASSLOAD_LOGS_DIR holds -Xlog:class+load logs of driver and executor JVMs running the jobs (spark-dist runs them).
Each JAR is then
  * dropped when no class was loaded from it, except netty's Linux x86-64 epoll library (a jar of resources only: the
    native transport loads it as a file);
  * for Hadoop's shaded client jars (50 MB, of which Spark's local and local-cluster runs touch a few packages: the
    configuration, UserGroupInformation, file-system statics and their shaded helpers), cut to the packages a class was
    loaded from, plus META-INF and the resources at the top level;
  * for zstd-jni and netty's native transports, cut to the Linux x86-64 native libraries;
  * written with every entry stored (no deflate): jars compress badly a second time, stored ones well, and the JVM reads
    them either way. Signature files of a cut jar are removed (its digests would no longer match).
Prints one line per jar kept: its name, entries kept of all, bytes.
"""
import os
import re
import sys
import zipfile

LOAD = re.compile(r"\[class,load\] (\S+) source: (?:jar:)?file:([^ !]+\.jar)")
CUT_TO_PACKAGES = ("hadoop-client-api", "hadoop-client-runtime")
NATIVE_PLATFORMS = ("zstd-jni",)
RESOURCES_ONLY = re.compile(r"^netty-transport-native-epoll-.*-linux-x86_64\.jar$")
OTHER_PLATFORMS = re.compile(r"^(aix|darwin|freebsd|win|linux/(?!amd64/)[^/]+)/")


def loaded(log_dir):
    """jar path -> set of package paths (a/b/c) of the classes loaded from it."""
    found = {}
    for name in os.listdir(log_dir):
        with open(os.path.join(log_dir, name), errors="replace") as f:
            for line in f:
                m = LOAD.search(line)
                if m:
                    cls, jar = m.group(1), os.path.realpath(m.group(2))
                    found.setdefault(jar, set()).add(cls.rpartition(".")[0].replace(".", "/"))
    return found


def keep_entry(name, jar_kind, packages):
    if jar_kind == "native":
        return not OTHER_PLATFORMS.match(name)
    if jar_kind != "packages":
        return True
    if re.match(r"META-INF/[^/]+\.(SF|RSA|DSA|EC)$", name):
        return False
    path = re.sub(r"^META-INF/versions/\d+/", "", name)
    if path.startswith("META-INF/") or "/" not in path:
        return True
    directory = path.rpartition("/")[0] if not path.endswith("/") else path.rstrip("/")
    if path.endswith("/"):  # a folder: kept when a kept package lies in it
        return any(p == directory or p.startswith(directory + "/") for p in packages)
    return directory in packages


def main():
    out, logs, jars = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    used = loaded(logs)
    for jar in jars:
        packages = used.get(os.path.realpath(jar))
        base = os.path.basename(jar)
        if not packages and not RESOURCES_ONLY.match(base):
            continue
        kind = "packages" if base.startswith(CUT_TO_PACKAGES) else "native" if base.startswith(NATIVE_PLATFORMS) else "whole"
        kept = total = 0
        with zipfile.ZipFile(jar) as src, zipfile.ZipFile(os.path.join(out, base), "w", zipfile.ZIP_STORED) as dst:
            for info in src.infolist():
                total += 1
                if not keep_entry(info.filename, kind, packages):
                    continue
                kept += 1
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.external_attr = info.external_attr
                dst.writestr(copy, src.read(info), zipfile.ZIP_STORED)
        print(f"{base} {kept}/{total} entries {os.path.getsize(os.path.join(out, base))} bytes")


if __name__ == "__main__":
    main()
