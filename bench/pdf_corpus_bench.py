#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/pdf_corpus_bench.py BUILD_DIR CORPUS_DIR [--jobs N] [--tsv OUT] [--badge]

Issue 26's corpus run: every file under CORPUS_DIR (other projects' PDF test
suites, fetched; docs/corpus.md says which and how) that poppler opens
(`pdfinfo` exits 0) goes through both tools, and what they did is checked with
tools we did not write:

  check     pith-check --offline reads it: exit 0/1/3/4 (3: no number), never
            2 ("unreadable");
  stamp     pith-stamp --force -o OUT stamps it with the bundled test record,
            or refuses only a damaged cross-reference table (naming the qpdf
            repair command) or encryption (saying so);
  prefix    the original is an exact prefix of OUT;
  qpdf      `qpdf --check OUT` is no worse than on the original;
  readers   pdfinfo and exiftool read OUT without an error they did not
            report for the original;
  render    page 1 of OUT renders (pdftoppm, 36 dpi, grey, no anti-aliasing,
            as pith-stamp's own check) exactly as page 1 of the original
            (render_aa: the same anti-aliased, counted apart; with --badge
            the badge is drawn, so both are skipped);
  signed    every signature pdfsig finds in the original is found, and as
            valid, in OUT.

Prints the counts (Markdown) and, with --tsv, one row per file. The goals of
issue 26: 0 unreadable, 0 renders changed, 0 signatures invalidated, refusals
only for damaged xref and encryption. Files poppler refuses are counted and
only run through pith-check (which must not crash or hang: exit 0-4).
"""
import argparse
import collections
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import statistics
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
BUNDLE = HERE.parent / "tests" / "data" / "JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
NUMBER = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
TIMEOUT = 120


def run(cmd, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env=dict(os.environ, SOURCE_DATE_EPOCH="1700000000"))
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b"timeout"


def render_page1(pdf, out_prefix, antialias=False):
    aa = [] if antialias else ["-aa", "no", "-aaVector", "no"]
    code, _, _ = run(["pdftoppm", "-r", "36", "-f", "1", "-l", "1", "-gray", "-singlefile"] + aa +
                     [str(pdf), str(out_prefix)])
    path = pathlib.Path(str(out_prefix) + ".pgm")
    if code != 0 or not path.exists():
        return None
    return path.read_bytes()


def signatures(pdf):
    """(count, valid count) as pdfsig reports them; (0, 0) when it finds none."""
    code, out, _ = run(["pdfsig", "-nocert", str(pdf)])
    text = out.decode("utf-8", "replace")
    count = len(re.findall(r"^Signature #\d+:", text, re.M))
    valid = text.count("Signature Validation: Signature is Valid.")
    return count, valid


def exiftool_errors(*pdfs):
    """For each file, whether exiftool reports an error reading it (one exiftool run)."""
    _, out, _ = run(["exiftool", "-q", "-q", "-T", "-Error"] + [str(p) for p in pdfs])
    lines = out.decode("utf-8", "replace").splitlines()
    lines += ["-"] * (len(pdfs) - len(lines))
    return [line.strip() not in ("", "-") for line in lines[: len(pdfs)]]


def qpdf_check(pdf):
    code, _, _ = run(["qpdf", "--check", str(pdf)])
    return code  # 0 clean, 3 warnings, 2 errors


def examine(build, path, badge):
    row = collections.OrderedDict(file=str(path))
    tools = pathlib.Path(build) / "tools"
    info, _, _ = run(["pdfinfo", str(path)])
    row["poppler"] = "opens" if info == 0 else "refuses"
    started = time.monotonic()
    code, out, err = run([str(tools / "pith-check"), "--offline", str(path)])
    row["check_seconds"] = time.monotonic() - started
    row["check_exit"] = code
    row["check_message"] = err.decode("utf-8", "replace").strip().replace("\n", " | ")[:300]
    if info != 0:
        return row
    with tempfile.TemporaryDirectory(prefix="pith-corpus-") as tmp:
        tmp = pathlib.Path(tmp)
        out_pdf = tmp / "stamped.pdf"
        cmd = [str(tools / "pith-stamp"), "--offline", "--force", "--bundle", str(BUNDLE), "--pith", NUMBER,
               "-o", str(out_pdf), str(path)]
        if badge:
            cmd.insert(1, "--badge")
        started = time.monotonic()
        code, _, err = run(cmd)
        row["stamp_seconds"] = time.monotonic() - started
        message = err.decode("utf-8", "replace").strip().replace("\n", " | ")
        row["stamp_exit"] = code
        row["stamp_message"] = message[:300]
        if code != 0 or not out_pdf.exists():
            low = message.lower()
            if "cross-reference" in low and "qpdf" in low:
                row["stamp"] = "refused: damaged xref"
            elif "encrypted" in low:
                row["stamp"] = "refused: encrypted"
            else:
                row["stamp"] = "refused: other"
            return row
        row["stamp"] = "stamped"
        original = path.read_bytes()
        row["prefix"] = "intact" if out_pdf.read_bytes()[: len(original)] == original else "CHANGED"
        before_q, after_q = qpdf_check(path), qpdf_check(out_pdf)
        # 0 clean, 3 warnings, 2 errors; a signal (negative) or a timeout on the original is worse than any.
        rank = {0: 0, 3: 1, 2: 2}
        before_rank = rank.get(before_q, 3)
        row["qpdf"] = "ok" if rank.get(after_q, 3) <= before_rank else f"worse ({before_q}->{after_q})"
        info_before = False  # poppler opened it: that is why we are here
        info_after = run(["pdfinfo", str(out_pdf)])[0] != 0
        exif_before, exif_after = exiftool_errors(path, out_pdf)
        row["readers"] = "ok" if (not info_after or info_before) and (not exif_after or exif_before) else \
            f"worse (pdfinfo {info_before}->{info_after}, exiftool {exif_before}->{exif_after})"
        if badge:
            row["render"] = "skipped (badge)"
        else:
            a = render_page1(path, tmp / "before")
            b = render_page1(out_pdf, tmp / "after")
            row["render"] = "same" if a == b else ("unrenderable" if a is None else "DIFFERENT")
            # Anti-aliased too, as viewers show it. poppler's anti-aliasing of a
            # few files moves pixels after any incremental update (exiftool's
            # too: pdf.js's issue6961.pdf), and of some from run to run.
            a = render_page1(path, tmp / "before-aa", antialias=True)
            b = render_page1(out_pdf, tmp / "after-aa", antialias=True)
            row["render_aa"] = "same" if a == b else ("unrenderable" if a is None else "different")
        sig_before = signatures(path)
        if sig_before[0]:
            sig_after = signatures(out_pdf)
            row["signed"] = "kept" if sig_after[0] == sig_before[0] and sig_after[1] >= sig_before[1] else \
                f"LOST ({sig_before} -> {sig_after})"
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("corpus")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tsv")
    ap.add_argument("--badge", action="store_true")
    args = ap.parse_args()
    for tool in ("pdfinfo", "pdftoppm", "pdfsig", "qpdf", "exiftool"):
        if not shutil.which(tool):
            sys.exit(f"pdf_corpus_bench: {tool} is missing (scripts/install-deps)")
    files = sorted(p for p in pathlib.Path(args.corpus).rglob("*") if p.is_file() and not p.is_symlink())
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for row in pool.map(lambda p: examine(args.build, p, args.badge), files):
            rows.append(row)
    if args.tsv:
        keys = ["file", "poppler", "check_exit", "stamp", "stamp_exit", "prefix", "qpdf", "readers", "render",
                "render_aa", "signed", "check_seconds", "stamp_seconds", "check_message", "stamp_message"]
        with open(args.tsv, "w") as out:
            out.write("\t".join(keys) + "\n")
            for r in rows:
                out.write("\t".join(str(r.get(k, "")) for k in keys) + "\n")
    opened = [r for r in rows if r["poppler"] == "opens"]
    count = collections.Counter()
    for r in rows:
        if r["check_exit"] not in (0, 1, 2, 3, 4):
            count["pith-check crashed or hung (any file)"] += 1
    for r in opened:
        count["files poppler opens"] += 1
        if r["check_exit"] == 2:
            count["pith-check: unreadable (exit 2)"] += 1
        count["pith-stamp: " + r.get("stamp", "?")] += 1
        for k, bad in (("prefix", "CHANGED"), ("qpdf", "worse"), ("readers", "worse"), ("render", "DIFFERENT"),
                       ("render_aa", "different"), ("signed", "LOST")):
            if str(r.get(k, "")).startswith(bad):
                count[f"stamped: {k} {bad.lower()}"] += 1
        if "signed" in r:
            count["signed files stamped"] += 1
    print(f"| corpus: {args.corpus} ({len(rows)} files) | count |")
    print("|---|---|")
    for k in sorted(count):
        print(f"| {k} | {count[k]} |")
    for key, label in (("check_seconds", "pith-check --offline"), ("stamp_seconds", "pith-stamp -o")):
        times = [r[key] for r in opened if key in r]
        if times:
            print(f"| {label}: median / 95th percentile wall time (s, --jobs {args.jobs}) | "
                  f"{statistics.median(times):.3f} / {sorted(times)[int(0.95 * (len(times) - 1))]:.3f} |")


if __name__ == "__main__":
    main()
