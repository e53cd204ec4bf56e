#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""docs/corpus.md, recipe 2: Dask distributed. One task per shard; each task
runs pith-check on its shard with a joblog beside its output, --resume always
on, so a task Dask reruns (its worker died) continues where the shard stopped.

usage: dask_shards.py SCHEDULER SHARDS OUTDIR -- PITH-CHECK-ARGS...
(the PITH-CHECK-ARGS name the inputs: --tar corpus.tar.gz, --files-from ...)
"""
import subprocess
import sys

from distributed import Client


def run_shard(k, shards, outdir, check_args):
    out = f"{outdir}/shard-{k}"
    with open(out + ".jsonl", "ab") as stdout, open(out + ".err", "ab") as stderr:
        rc = subprocess.run(check_args + ["--json", "--shard", f"{k}/{shards}", "--joblog", out + ".joblog", "--resume"],
                            stdout=stdout, stderr=stderr).returncode
    if rc > 4 or rc < 0:  # 0..4 are verdicts; anything else is the run failing
        raise RuntimeError(f"shard {k}: pith-check exited {rc}")
    return k, rc


def main():
    scheduler, shards, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    check_args = sys.argv[sys.argv.index("--") + 1:]
    with Client(scheduler) as client:
        futures = [client.submit(run_shard, k, shards, outdir, check_args, key=f"pith-shard-{k}", retries=2)
                   for k in range(1, shards + 1)]
        for k, rc in client.gather(futures):
            print(f"shard {k}: exit {rc}", file=sys.stderr)


if __name__ == "__main__":
    main()
