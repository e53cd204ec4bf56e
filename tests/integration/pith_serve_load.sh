#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-serve under a short load on loopback: bench/serve_load.sh for 5 s with
# 64 clients (valid, tampered, hostile, oversize, slow senders). Asserts only
# status codes (200/413/503), no resets, /healthz answered throughout and the
# RSS bound; never times (the 30 s run with figures is bench/serve_load.sh).
set -euo pipefail
src=${PITH_SOURCE_DIR:?PITH_SOURCE_DIR must be set}
PITH_LOAD_ONLY=1 PITH_SERVE_JOBS=2 bash "$src/bench/serve_load.sh" 5 64
