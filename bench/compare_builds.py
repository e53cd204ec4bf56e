#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two (or more) builds of pith-check on the same corpus run, alternating, so
that a shared machine's drift falls on each alike: wall time, the parent's
own CPU (pith-check itself, read from /proc while it runs) and the CPU of the
whole run (pith-check and its workers), min and median over RUNS.

  bench/compare_builds.py RUNS LABEL=BINARY ... -- PITH-CHECK-ARGS
  e.g. bench/compare_builds.py 5 start=/tmp/base-build/tools/pith-check \\
         now=build/tools/pith-check -- --offline --json -j 2 --files-from paths
"""
import os
import resource
import subprocess
import sys
import time


def one_run(binary, args, ticks):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    process = subprocess.Popen([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent_cpu = 0.0
    while process.poll() is None:
        try:
            fields = open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()
            parent_cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.005)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, parent_cpu, total_cpu


def main():
    if "--" not in sys.argv or len(sys.argv) < 4:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    runs = int(sys.argv[1])
    builds = [a.split("=", 1) for a in sys.argv[2:split]]
    args = sys.argv[split + 1:]
    ticks = os.sysconf("SC_CLK_TCK")
    results = {label: [] for label, _ in builds}
    for _ in range(runs):
        for label, binary in builds:
            results[label].append(one_run(binary, args, ticks))
    print(f"{'build':10} {'wall min':>9} {'median':>7} {'parent CPU min':>15} {'total CPU min':>14} {'median':>7}")
    for label, samples in results.items():
        walls = sorted(s[0] for s in samples)
        totals = sorted(s[2] for s in samples)
        parents = min(s[1] for s in samples)
        print(f"{label:10} {walls[0]:9.2f} {walls[len(walls) // 2]:7.2f} {parents:15.2f} "
              f"{totals[0]:14.2f} {totals[len(totals) // 2]:7.2f}")


if __name__ == "__main__":
    main()
