#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the seeds of the pdf_facts_wire fuzz target from real PDFs, so
# they follow the wire (its tag, its fields) whenever pdf/facts changes:
#   bundle        the sample paper (samples/) built and stamped offline: the
#                 embedded bundle and XMP, page 1's text
#   fingerprints  the same PDF rewritten whole by qpdf: every page's text
#                 fingerprint is read too
#   empty         a PDF that carries nothing
# Each is the message the parsing child sends (tests/tools/pdf_facts_seed.cpp).
#
#   fuzz/pdf_facts_wire_seeds.sh BUILD_DIR     (a normal build: tools and tests)
set -euo pipefail
build=$(cd "${1:?usage: fuzz/pdf_facts_wire_seeds.sh BUILD_DIR}" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
out=$source_dir/fuzz/corpus/pdf_facts_wire
seed=$build/tests/pith-test-facts-seed
[[ -x $seed ]] || { echo "pdf_facts_wire_seeds: $seed missing (cmake --build $build --target pith-test-facts-seed)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pith-seeds.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/samples/paper.tex" "$source_dir/samples/registry" "$work/"
cd "$work"
# The paper built without its record (a pith.sty that only takes the number),
# then stamped by pith-stamp from the sample registry: the update carries the
# bundle, the XMP and every page's text fingerprint.
printf '%s\n' '\ProvidesPackage{pith}' '\newcommand\pithnumber[1]{}' >pith.sty
export SOURCE_DATE_EPOCH=1767225600 FORCE_SOURCE_DATE=1
pdflatex -interaction=nonstopmode paper.tex >pdflatex.log 2>&1 || { cat pdflatex.log >&2; exit 2; }
"$build/tools/pith-stamp" --resolver "file://$work/registry" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 \
  -o stamped.pdf paper.pdf
"$build/tools/pith-check" --offline stamped.pdf >/dev/null  # verified, or stop here
qpdf stamped.pdf rewritten.pdf

mkdir -p "$out"
"$seed" stamped.pdf "$out/bundle"
"$seed" rewritten.pdf "$out/fingerprints"
"$seed" --empty "$out/empty"
ls -l "$out"
