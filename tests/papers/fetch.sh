#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/papers/fetch.sh DIR [NAME...]: the bench corpus of real paper sources
# (tests/papers/corpus.tsv) into DIR/<owner>+<repo>, each at its pinned commit,
# for tests/papers/papers.py DIR. Needs the network (GitHub) and ~400 MB; the
# papers stay their authors' (licences in corpus.tsv): nothing here ships them.
set -euo pipefail
dir=${1:?usage: tests/papers/fetch.sh DIR [NAME...]}
shift
manifest="$(dirname "$0")/corpus.tsv"
url=${PAPERS_GIT_URL:-https://github.com/%s}  # %s: owner/repo (a local mirror works too)
mkdir -p "$dir"
grep -v '^#' "$manifest" | tail -n +2 | while IFS=$'\t' read -r name repo commit _; do
  if (($# > 0)) && [[ " $* " != *" $name "* ]]; then continue; fi
  if [[ -d "$dir/$name" ]]; then echo "fetch.sh: $name: already there"; continue; fi
  tmp="$dir/.$name.partial"
  rm -rf "$tmp" && mkdir -p "$tmp"
  git -C "$tmp" init -q
  if git -C "$tmp" fetch -q --depth 1 "$(printf "$url" "$repo")" "$commit" && git -C "$tmp" checkout -q FETCH_HEAD; then
    rm -rf "$tmp/.git" && mv "$tmp" "$dir/$name"
    echo "fetch.sh: $name: $repo@${commit:0:12}"
  else
    rm -rf "$tmp"
    echo "fetch.sh: $name: cannot fetch $repo@$commit (skipped)" >&2
  fi
done
