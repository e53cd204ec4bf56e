#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check resolving numbers and arXiv ids like a user would: a record that
# is only on a (loopback) registry is fetched, verified and cached; with the
# server stopped, --offline verifies it from the cache. Substituted records
# are refused. Needs PITH_BIN (built tools) and PITH_TEST_DATA (tests/data);
# pith-test-sign and pith-test-server are next to the tests.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check
key="$data/test-signing-key.json"
unset PITH_RESOLVER

source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err

# Two signed papers, served by the registry paths.
"$signer" --title "Resolver CLI paper" --arxiv 2401.77777 --version 2 >"$work/a.json"
"$signer" --title "Another paper" --arxiv 2401.88888 >"$work/b.json"
number_a=$("$signer" --title "Resolver CLI paper" --arxiv 2401.77777 --version 2 --output number)
number_b=$("$signer" --title "Another paper" --arxiv 2401.88888 --output number)
body_a=${number_a##*:}
body_b=${number_b##*:}
root="$work/root"
mkdir -p "$root/pith/$body_a" "$root/pith/${body_a:0:8}" "$root/pith/2401.77777v2"
cp "$work/a.json" "$root/pith/$body_a/bundle.json"
cp "$work/a.json" "$root/pith/${body_a:0:8}/bundle.json"
cp "$work/a.json" "$root/pith/2401.77777v2/bundle.json"
# A registry that answers A's number with B's (valid, signed) bundle.
mkdir -p "$work/evil/pith/$body_a"
cp "$work/b.json" "$work/evil/pith/$body_a/bundle.json"

cache="$work/cache"
common=(--trust-key "$key" --cache-dir "$cache" --timeout 2)

start_test_server "$root"

# 1. A number only on the server: resolved, verified, cached.
expect_exit 0 --resolver "$base" "${common[@]}" "$number_a"
expect_out "verified $number_a"
expect_out "resolver.source"
expect_out "from server $base/pith/$body_a/bundle.json"
[[ -f "$cache/$body_a.json" ]] || fail "no cache entry for $number_a"

# 2. A short form says which full number it resolved to; --json names the source.
expect_exit 0 --resolver "$base" "${common[@]}" --refresh --json "pith:${body_a:0:8}"
expect_out "\"resolved_number\":\"$number_a\""
expect_out "resolved to $number_a"
expect_out "\"origin\":\"server\""

# 3. An arXiv id with version.
expect_exit 0 --resolver "$base" "${common[@]}" --refresh "arXiv:2401.77777v2"
expect_out "resolver.arxiv"

# 4. Not on the registry: a clear error naming the input, exit 2.
expect_exit 2 --resolver "$base" "${common[@]}" "$number_b"
expect_err "pith-check: $number_b: no record for $number_b at $base; check the number"
# One line naming the base, not every URL's "HTTP 404" (issue 25).
[[ $(grep -c . "$work/err") == 1 ]] || fail "the not-found error is not one line: $(cat "$work/err")"
grep -q "HTTP 404" "$work/err" && fail "the not-found error lists per-URL statuses: $(cat "$work/err")"

stop_test_server

# 5. Server gone: --offline verifies from the cache and says so.
expect_exit 0 --resolver "$base" "${common[@]}" --offline "$number_a"
expect_out "verified $number_a"
expect_out "resolver.offline"
expect_out "from the cache"

# 6. Offline and not cached: exit 2, says so.
expect_exit 2 --resolver "$base" "${common[@]}" --offline "$number_b"
expect_err "$number_b is not in the cache"

# 6b. pith-stamp takes the same flags and stamps a PDF with the record it
#     resolves (here from the cache, offline), verified by pith-check after.
stamp="$PITH_BIN/pith-stamp"
if [[ -x "$stamp" ]] && command -v pdflatex >/dev/null; then
  mkdir -p "$work/tex"
  # The paper shows its title: what binds the record to this PDF.
  printf '\\documentclass{article}\\title{Resolver CLI paper}\\begin{document}\\maketitle Resolver.\\end{document}\n' >"$work/tex/p.tex"
  (cd "$work/tex" && pdflatex -interaction=batchmode p.tex >/dev/null 2>&1) || fail "pdflatex"
  "$stamp" --resolver "$base" "${common[@]}" --offline --pith "$number_a" "$work/tex/p.pdf" >"$work/out" 2>"$work/err" ||
    fail "pith-stamp --offline from the cache: $(cat "$work/err")"
  expect_exit 0 --trust-key "$key" "$work/tex/p.pdf"
  expect_out "verified $number_a"
else
  echo "resolver_cli: SKIP pith-stamp step (no pith-stamp or pdflatex)" >&2
fi

# 7. A substituting registry: refused, exit 1, nothing cached for it.
start_test_server "$work/evil"
expect_exit 1 --resolver "$base" --trust-key "$key" --cache-dir "$work/cache2" --timeout 2 "$number_a"
expect_out "resolver.rejected"
expect_out "substitution"
[[ ! -e "$work/cache2/$body_b.json" ]] || fail "a substituted bundle was cached"

# 8. A mirror after the substituting registry: the mirror's record is used.
mirror="file://$root"
expect_exit 0 --resolver "$base" --mirror "$mirror" --trust-key "$key" --cache-dir "$work/cache3" --timeout 2 "$number_a"
expect_out "from mirror $mirror/pith/$body_a/bundle.json"
stop_test_server

# 9. A mistyped number gets the parser's message, not "no such file".
expect_exit 2 "${common[@]}" --offline "pith:2024:ABCDEFGH0JKLMNOPQRSTUVWXYZ"
expect_err "invalid character '0' at position 19"

# 9b. The right body under the wrong year: the asker's typo, exit 2 like
# any other, saying which number has that body (not "substitution", exit 1).
year=${number_a:5:4}
wrong_year="pith:$((year == 2020 ? 2021 : 2020)):$body_a"
expect_exit 2 --resolver "$mirror" --trust-key "$key" --cache-dir "$work/cache-year" --offline "$wrong_year"
expect_err "no record is $wrong_year: the record with this body is $number_a; check the year"
grep -q substitution "$work/err" "$work/out" && fail "a wrong year reads as a substitution"

# 10. A file that exists is still a file, whatever its name.
cp "$work/a.json" "$work/$body_a"
(cd "$work" && expect_exit 0 --trust-key "$key" --offline "$body_a")
grep -q "resolver.source" "$work/out" && fail "an existing file was resolved instead of read"

# 11. A short form from a plain file:// mirror (only pith/<BODY>/bundle.json,
#     no short-form paths, no index): found by a scan, offline.
plain="$work/plain"
mkdir -p "$plain/pith/$body_a" "$plain/pith/$body_b"
cp "$work/a.json" "$plain/pith/$body_a/bundle.json"
cp "$work/b.json" "$plain/pith/$body_b/bundle.json"
expect_exit 0 --trust-key "$key" --cache-dir "$work/cache-plain" --offline --resolver "file://$plain" "pith:${body_a:0:8}"
expect_out "verified $number_a"
expect_out "resolver.short_form: pith:${body_a:0:8} resolved to $number_a"
# Two records there start with it: exit 2, naming them, nothing guessed.
twin="${body_a:0:8}AAAAAAAAAAAAAAAAAA"
mkdir -p "$plain/pith/$twin"
expect_exit 2 --trust-key "$key" --cache-dir "$work/cache-plain2" --offline --resolver "file://$plain" "pith:${body_a:0:8}"
expect_err "pith:${body_a:0:8} is ambiguous: 2 records in file://$plain start with it"
expect_err "give more characters"

if ((failures > 0)); then
  echo "resolver_cli: $failures failure(s)" >&2
  exit 1
fi
echo "resolver_cli: all checks passed"
