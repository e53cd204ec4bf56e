#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-serve under load and attack on loopback (issue 23): bench/serve_load.sh
# for 5 s of 32 uploaders (valid, tampered, hostile, oversize, slow senders),
# then 5 s more while 64 slow connections attack (slowloris and slow body),
# with short deadlines so the attackers are cut and come back. Asserts only
# what must never happen: an upload answered other than 200, 413 or 503, or
# not at all; /healthz unanswered; the service's process tree over its
# --memory-budget. Never times (bench/serve_load.sh has the figures).
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-serve pith-stamp
PITH_LOAD_ONLY=1 PITH_SERVE_JOBS=2 PITH_SERVE_BUDGET_MIB=1536 PITH_SLICES=1 \
  PITH_SERVE_ARGS="--head-timeout 2 --upload-deadline 4 --keep-alive-timeout 2" \
  bash "$src/bench/serve_load.sh" 5 32 64
