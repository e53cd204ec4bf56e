#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real paper sources through pith, end to end (issue 26).

    tests/papers/papers.py [options] SOURCES_DIR

Each subdirectory of SOURCES_DIR is one paper's source tree (never changed:
every step works on a copy). For each paper:

  baseline  the paper as it is, built with latexmk and its engine
            (-interaction=nonstopmode -f): the LaTeX errors it already has;
  first     \\usepackage{pith} added right after \\documentclass,
  last      \\usepackage{pith} added right before \\begin{document};
            for each: pith-stamp paper.tex (a record signed by the TEST key,
            whose title is the paper's), latexmk again, then
  build     a PDF with no LaTeX error the baseline did not have,
  stamp     pith-stamp paper.tex exited 0,
  check     pith-check --offline: its verdict (verified, unbound, ...),
  arxiv     pith-stamp --arxiv: what arXiv will build verifies.

The main file, engine and title come from the manifest (--manifest, default
tests/papers/corpus.tsv beside this script) when it names the paper, else
they are guessed: the .tex at the top with \\documentclass and
\\begin{document} (main.tex, ms.tex, paper.tex... first), the engine from a
`% !TEX program` line, the latexmkrc, or fontspec (xelatex), and the title
from \\title{...} with its macros dropped.

Prints a table per paper, counts per document class, and every failure with
its reason; --json FILE writes all of it. Exit 0, or 1 with --require-all
when a paper that built at baseline misses any step (make papers-test).
Needs the built tools: --bin (default $PITH_BIN, else build/tools) and
pith-test-sign (default <bin>/../tests/pith-test-sign).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
POSITIONS = ("first", "last")
ENGINES = {  # engine -> latexmk option
    "pdflatex": "-pdf",
    "xelatex": "-xelatex",
    "lualatex": "-lualatex",
    "latex": "-pdfps",  # latex -> dvips -> ps2pdf
}
BUILD_PRODUCTS = {".aux", ".log", ".fls", ".fdb_latexmk", ".out", ".toc", ".blg", ".bcf", ".run.xml", ".xdv",
                  ".dvi", ".synctex.gz", ".nav", ".snm", ".lof", ".lot"}
MAIN_NAMES = ("main", "ms", "paper", "article", "manuscript", "draft")
NOT_MAIN = re.compile(r"(response|rebuttal|reply|cover|letter|poster|slides|supplement|diff|review|abstract)", re.I)
NOT_MAIN_CLASSES = {"beamer", "a0poster", "standalone", "letter", "moderncv"}
TIMEOUT = 900  # seconds for one latexmk or one --arxiv


# ------------------------------------------------------------------ reading LaTeX

def strip_comments(text: str) -> str:
    out = []
    for line in text.split("\n"):
        i, cut = 0, len(line)
        while i < len(line):
            if line[i] == "\\":
                i += 2
                continue
            if line[i] == "%":
                cut = i
                break
            i += 1
        out.append(line[:cut])
    return "\n".join(out)


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def braced(text: str, pos: int) -> tuple[str, int] | None:
    """The {...} argument at text[pos] (after spaces): (content, end)."""
    while pos < len(text) and text[pos] in " \t\n":
        pos += 1
    if pos >= len(text) or text[pos] != "{":
        return None
    depth, i = 0, pos
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[pos + 1:i], i + 1
        i += 1
    return None


def command_end(text: str, start: int, name: str) -> int | None:
    """End of \\name[opt]{arg} starting at text[start]."""
    pos = start + len(name) + 1
    while pos < len(text) and text[pos] in " \t\n":
        pos += 1
    while pos < len(text) and text[pos] == "[":
        depth, i = 0, pos
        while i < len(text):
            if text[i] == "[":
                depth += 1
            elif text[i] == "]":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        pos = i + 1
        while pos < len(text) and text[pos] in " \t\n":
            pos += 1
    arg = braced(text, pos)
    return arg[1] if arg else None


def document_class(text: str) -> str | None:
    m = re.search(r"\\documentclass\s*(\[[^\]]*\])?\s*\{([^}]*)\}", strip_comments(text), re.S)
    return m.group(2).strip() if m else None


def inputs_of(text: str) -> list[str]:
    return re.findall(r"\\(?:input|include)\s*\{([^}]+)\}", strip_comments(text))


def local_file(root: Path, name: str, base: Path | None = None) -> Path | None:
    for d in ([base] if base else []) + [root]:
        for candidate in (d / name, d / (name + ".tex")):
            if candidate.is_file():
                return candidate
    return None


def files_of_paper(root: Path, main: Path, limit: int = 64) -> list[Path]:
    """main and the .tex files it inputs, transitively (bounded)."""
    seen, todo = [], [main]
    while todo and len(seen) < limit:
        f = todo.pop(0)
        if f in seen:
            continue
        seen.append(f)
        for name in inputs_of(read_text(f)):
            g = local_file(root, name.strip(), f.parent)
            if g and g.suffix == ".tex" and g not in seen:
                todo.append(g)
    return seen


def latex_to_text(arg: str) -> str:
    """A \\title's text the way a reader sees it, approximately."""
    s = arg
    for drop in ("thanks", "footnote", "label", "titlenote", "tnoteref", "fnref", "vspace", "hspace"):
        while True:
            m = re.search(r"\\" + drop + r"\*?\s*(\[[^\]]*\])?\s*\{", s)
            if not m:
                break
            b = braced(s, m.end() - 1)
            s = s[:m.start()] + (s[b[1]:] if b else s[m.end():])
    s = re.sub(r"\\\\\*?(\[[^\]]*\])?", " ", s)
    s = re.sub(r"\\(newline|linebreak|protect|relax|ignorespaces)\b", " ", s)
    s = s.replace("~", " ").replace("\\&", "&").replace("\\%", "%").replace("\\_", "_").replace("\\#", "#")
    s = re.sub(r"\\[a-zA-Z]+\*?\s*(\[[^\]]*\])?", "", s)  # other macros: their arguments stay as text
    s = s.replace("$", "").replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", s).strip()


# ------------------------------------------------------------------ the paper

@dataclass
class Paper:
    name: str
    source: Path
    main: str = ""            # relative to source
    engine: str = ""
    cls: str = ""
    title: str = ""
    guessed: list[str] = field(default_factory=list)  # what was guessed rather than given
    problem: str = ""         # why it cannot be run at all


def find_main(root: Path) -> Path | None:
    candidates = []
    for f in sorted(root.glob("*.tex")):
        text = strip_comments(read_text(f))
        cls = document_class(text)
        if not cls or "\\begin{document}" not in text or cls in NOT_MAIN_CLASSES:
            continue
        candidates.append(f)
    if not candidates:  # \documentclass in an \input preamble
        for f in sorted(root.glob("*.tex")):
            text = strip_comments(read_text(f))
            if "\\begin{document}" in text and any(document_class(read_text(g)) for g in files_of_paper(root, f)):
                candidates.append(f)
    if not candidates:
        return None
    for name in MAIN_NAMES + (root.name,):
        for f in candidates:
            if f.stem == name:
                return f
    preferred = [f for f in candidates if not NOT_MAIN.search(f.stem)] or candidates
    return max(preferred, key=lambda f: f.stat().st_size)


def guess_engine(root: Path, main: Path) -> str:
    head = read_text(main)[:2000]
    m = re.search(r"%\s*!\s*T[eE]X\s+(?:TS-)?program\s*=\s*(\w+)", head)
    if m and m.group(1).lower() in ENGINES:
        return m.group(1).lower()
    for rc in (root / "latexmkrc", root / ".latexmkrc"):
        if rc.is_file():
            t = read_text(rc)
            m = re.search(r"\$pdf_mode\s*=\s*(\d)", t)
            if m:
                return {"1": "pdflatex", "2": "latex", "3": "latex", "4": "lualatex", "5": "xelatex"}.get(m.group(1), "pdflatex")
            if re.search(r"\$pdflatex\s*=\s*['\"]xelatex", t):
                return "xelatex"
    unicode_only = r"\\(usepackage|RequirePackage)\s*(\[[^\]]*\])?\s*\{[^}]*\b(fontspec|unicode-math|polyglossia)\b"
    texts = [strip_comments(read_text(f)) for f in files_of_paper(root, main)]
    # A local class or package that loads fontspec only on XeTeX/LuaTeX
    # (acmart does) says nothing about the engine.
    for f in list(root.glob("*.cls")) + list(root.glob("*.sty")):
        text = strip_comments(read_text(f))
        if not re.search(r"\\if(xetex|luatex|tutex|PDFTeX)|XeTeXversion|sys_if_engine|\\ifx\\pdftex", text):
            texts.append(text)
    joined = "\n".join(texts)
    if re.search(unicode_only, joined):
        return "lualatex" if re.search(r"\\directlua|luacode", joined) else "xelatex"
    return "pdflatex"


def guess_title(root: Path, main: Path) -> str:
    for f in files_of_paper(root, main):
        text = strip_comments(read_text(f))
        for m in re.finditer(r"\\title\s*(\[[^\]]*\])?\s*\{", text):
            b = braced(text, m.end() - 1)
            if b and b[0].strip():
                return latex_to_text(b[0])
    return ""


def load_manifest(path: Path | None) -> dict[str, dict[str, str]]:
    if not path or not path.is_file():
        return {}
    rows = {}
    with path.open(newline="") as f:
        lines = (line for line in f if not line.startswith("#"))
        for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
            rows[row["name"]] = row
    return rows


def describe_paper(source: Path, manifest: dict[str, dict[str, str]]) -> Paper:
    p = Paper(name=source.name, source=source)
    row = manifest.get(source.name, {})
    if row.get("main"):
        p.main = row["main"]
    else:
        main = find_main(source)
        if not main:
            p.problem = "no .tex with \\documentclass and \\begin{document} at the top"
            return p
        p.main = main.name
        p.guessed.append("main")
    main = source / p.main
    if not main.is_file():
        p.problem = f"{p.main}: no such file"
        return p
    p.engine = row.get("engine") or guess_engine(source, main)
    if not row.get("engine"):
        p.guessed.append("engine")
    for f in files_of_paper(source, main):
        p.cls = document_class(read_text(f)) or p.cls
        if p.cls:
            break
    p.cls = row.get("class") or p.cls or "?"
    p.title = row.get("title") or guess_title(source, main)
    if not row.get("title"):
        p.guessed.append("title")
    return p


# ------------------------------------------------------------------ running

@dataclass
class Step:
    ok: bool = False
    detail: str = ""


@dataclass
class Variant:
    position: str
    build: Step = field(default_factory=Step)
    stamp: Step = field(default_factory=Step)
    check: Step = field(default_factory=Step)   # detail: the verdict
    arxiv: Step = field(default_factory=Step)
    seconds: float = 0.0


@dataclass
class Result:
    paper: Paper
    baseline: Step = field(default_factory=Step)
    baseline_errors: list[str] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)
    seconds: float = 0.0


def run(cmd: list[str], cwd: Path, log: Path, timeout: int = TIMEOUT) -> int:
    with log.open("ab") as out:
        out.write(("$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout, env=tool_env()).returncode
        except subprocess.TimeoutExpired:
            out.write(f"timed out after {timeout} s\n".encode())
            return 124


def tool_env() -> dict[str, str]:
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env.pop("TEXINPUTS", None)
    return env


def copy_source(src: Path, dst: Path) -> None:
    def ignore(directory: str, names: list[str]) -> set[str]:
        skip = {".git", ".svn", ".hg"}
        return {n for n in names if n in skip or any(n.endswith(e) for e in BUILD_PRODUCTS)}
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)


def latex_errors(log: Path) -> list[str]:
    if not log.is_file():
        return []
    errors = []
    for line in read_text(log).split("\n"):
        if line.startswith("! ") and line[2:].strip() not in errors:
            errors.append(line[2:].strip())
    return errors


def build(p: Paper, tree: Path, log: Path) -> tuple[Path | None, list[str]]:
    main = tree / p.main
    main.with_suffix(".pdf").unlink(missing_ok=True)  # a repository may carry its author's PDF
    # -norc: no latexmkrc (the paper's may run latexdiff, /etc/LatexMk may
    # choose another engine); arXiv never reads one either.
    cmd = ["latexmk", "-norc", ENGINES[p.engine], "-interaction=nonstopmode", "-f", "-g", main.name]
    run(cmd, main.parent, log)
    pdf = main.with_suffix(".pdf")
    return (pdf if pdf.is_file() else None), latex_errors(main.with_suffix(".log"))


def insert_pith(p: Paper, tree: Path, position: str, body: str) -> str | None:
    """Adds \\usepackage{pith}\\pithnumber{body}; None, or why it could not."""
    line = "\\usepackage{pith}\\pithnumber{" + body + "}\n"
    files = files_of_paper(tree, tree / p.main)
    for f in files:
        raw = read_text(f)
        if position == "first":
            m = find_uncommented(raw, r"\\documentclass")
            if m is None:
                continue
            end = command_end(raw, m, "documentclass")
            if end is None:
                return f"{f.name}: cannot read the \\documentclass line"
            f.write_text(raw[:end] + "\n" + line + raw[end:], encoding="utf-8", errors="surrogateescape")
            return None
        m = find_uncommented(raw, r"\\begin\s*\{document\}")
        if m is None:
            continue
        f.write_text(raw[:m] + line + raw[m:], encoding="utf-8", errors="surrogateescape")
        return None
    return "no \\documentclass" if position == "first" else "no \\begin{document}"


def find_uncommented(raw: str, pattern: str) -> int | None:
    offset = 0
    for line in raw.split("\n"):
        code = strip_comments(line)
        m = re.search(pattern, code)
        if m:
            return offset + m.start()
        offset += len(line) + 1
    return None


class Tools:
    def __init__(self, bin_dir: Path, signer: Path, work: Path):
        self.stamp = bin_dir / "pith-stamp"
        self.check = bin_dir / "pith-check"
        self.signer = signer
        for tool in (self.stamp, self.check, self.signer):
            if not os.access(tool, os.X_OK):
                sys.exit(f"papers.py: {tool}: not built (give --bin, or build pith-stamp, pith-check, pith-test-sign)")
        self.key = work / "test-key.json"
        self.key.write_bytes(subprocess.run([str(signer), "--output", "key"], check=True, capture_output=True).stdout)

    def bundle(self, title: str, dst: Path) -> str:
        args = [str(self.signer), "--title", title]
        dst.write_bytes(subprocess.run(args, check=True, capture_output=True).stdout)
        return subprocess.run(args + ["--output", "number"], check=True, capture_output=True, text=True).stdout.strip()


def first_line(path: Path, pattern: str) -> str:
    if path.is_file():
        for line in read_text(path).split("\n"):
            if re.search(pattern, line):
                return line.strip()[:200]
    return ""


def run_variant(p: Paper, tools: Tools, work: Path, position: str, baseline_errors: list[str], bundle: Path,
                number: str) -> Variant:
    v = Variant(position)
    started = time.monotonic()
    tree = work / position
    copy_source(p.source, tree)
    log = work / f"{position}.log"
    why = insert_pith(p, tree, position, number.split(":")[-1])
    if why:
        v.build.detail = "pith not added: " + why
        return v
    main = tree / p.main
    status = run([str(tools.stamp), main.name, "--bundle", str(bundle), "--trust-key", str(tools.key)], main.parent, log)
    v.stamp = Step(status == 0, "" if status == 0 else f"exit {status}: " + first_line(log, r"^pith-stamp: (?!warning)"))
    warning = first_line(log, r"^pith-stamp: warning")
    if status == 0 and warning:
        v.stamp.detail = warning
    pdf, errors = build(p, tree, log)
    new = [e for e in errors if e not in baseline_errors]
    v.build = Step(pdf is not None and not new,
                   "no PDF" if pdf is None else ("new error: " + new[0] if new else ""))
    if pdf is not None:
        out = subprocess.run([str(tools.check), "--offline", "--json", "--trust-key", str(tools.key), str(pdf)],
                             capture_output=True, text=True, env=tool_env(), timeout=TIMEOUT)
        try:
            report = json.loads(out.stdout.splitlines()[0])
            verdict = report.get("verdict", "?")
            failing = [c["code"] for c in report.get("checks", []) if c.get("status") in ("fail", "warn")]
            v.check = Step(verdict == "verified", verdict + (" (" + ", ".join(failing[:3]) + ")" if failing and verdict != "verified" else ""))
        except (IndexError, json.JSONDecodeError):
            v.check = Step(False, "pith-check: " + (out.stderr.strip().splitlines() or ["no output"])[0])
        upload = work / f"{position}-arxiv.tar.gz"
        out = subprocess.run([str(tools.stamp), "--arxiv", "--json", "--trust-key", str(tools.key), "-o", str(upload), main.name],
                             cwd=main.parent, capture_output=True, text=True, env=tool_env(), timeout=TIMEOUT)
        try:
            a = json.loads(out.stdout)
            v.arxiv = Step(a.get("status") == "verifies",
                           ("" if a.get("status") == "verifies" else a.get("status", "?") + ": ") + a.get("message", "")[:300] +
                           (f" [{a['compiler']} instead of {a['instead_of']}]" if a.get("instead_of") else ""))
        except json.JSONDecodeError:
            v.arxiv = Step(False, "pith-stamp --arxiv: " + (out.stderr.strip().splitlines() or ["no output"])[-1])
    v.seconds = time.monotonic() - started
    return v


def run_paper(p: Paper, tools: Tools, work_root: Path, positions: tuple[str, ...]) -> Result:
    r = Result(p)
    started = time.monotonic()
    work = work_root / p.name
    work.mkdir(parents=True, exist_ok=True)
    if p.problem:
        r.baseline = Step(False, p.problem)
        return r
    if not p.title:
        r.baseline = Step(False, "no title found (give one in the manifest)")
        return r
    base = work / "baseline"
    copy_source(p.source, base)
    pdf, r.baseline_errors = build(p, base, work / "baseline.log")
    r.baseline = Step(pdf is not None, "" if pdf else "does not build here: " +
                      (r.baseline_errors[0] if r.baseline_errors else first_line(work / "baseline.log", r"(?i)error")))
    if pdf is None:
        r.seconds = time.monotonic() - started
        return r
    bundle = work / "bundle.json"
    number = tools.bundle(p.title, bundle)
    for position in positions:
        r.variants.append(run_variant(p, tools, work, position, r.baseline_errors, bundle, number))
    r.seconds = time.monotonic() - started
    return r


# ------------------------------------------------------------------ reporting

COLUMNS = ("build", "stamp", "check", "arxiv")


def own_errors(r: Result, v: Variant) -> bool:
    """--arxiv failed on a paper that has LaTeX errors of its own: arXiv's
    build stops on those too (a run with an error exit code fails there), so
    that is the paper's verdict, not pith's."""
    return bool(r.baseline_errors) and not v.arxiv.ok


def cell(r: Result, column: str) -> str:
    if not r.baseline.ok:
        return "-"
    parts = []
    for v in r.variants:
        step: Step = getattr(v, column)
        if column == "check":
            parts.append(step.detail.split(" ")[0] if step.detail else "-")
        elif column == "arxiv" and own_errors(r, v):
            parts.append("own")
        else:
            parts.append("ok" if step.ok else "FAIL")
    return "/".join(parts)


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


def report(results: list[Result], positions: tuple[str, ...], out) -> None:
    pos = "/".join(positions)
    rows = [["paper", "class", "engine", "baseline", f"build {pos}", f"stamp {pos}", f"check {pos}", f"arxiv {pos}", "s"]]
    for r in sorted(results, key=lambda r: (r.paper.cls, r.paper.name)):
        baseline = ("ok" + (f" ({len(r.baseline_errors)} err)" if r.baseline_errors else "")) if r.baseline.ok else "FAIL"
        rows.append([r.paper.name[:48], r.paper.cls, r.paper.engine or "?", baseline,
                     cell(r, "build"), cell(r, "stamp"), cell(r, "check"), cell(r, "arxiv"), f"{r.seconds:.0f}"])
    print("Papers (pith loaded " + " and ".join(positions) + "):\n", file=out)
    print(table(rows), file=out)

    classes: dict[str, list[Result]] = {}
    for r in results:
        classes.setdefault(r.paper.cls, []).append(r)
    rows = [["class", "papers", "baseline", "clean", "builds", "stamps", "verified", "unbound", "arxiv ok"]]
    for cls in sorted(classes) + ["total"]:
        rs = results if cls == "total" else classes[cls]
        vs = [v for r in rs if r.baseline.ok for v in r.variants]
        clean = [v for r in rs if r.baseline.ok and not r.baseline_errors for v in r.variants]
        n = len(vs)
        rows.append([cls, str(len(rs)), f"{sum(r.baseline.ok for r in rs)}/{len(rs)}",
                     f"{sum(r.baseline.ok and not r.baseline_errors for r in rs)}/{len(rs)}",
                     f"{sum(v.build.ok for v in vs)}/{n}", f"{sum(v.stamp.ok for v in vs)}/{n}",
                     f"{sum(v.check.ok for v in vs)}/{n}", f"{sum(v.check.detail.startswith('unbound') for v in vs)}/{n}",
                     f"{sum(v.arxiv.ok for v in clean)}/{len(clean)}"])
    print("\nPer class. baseline: builds here as it is; clean: with no LaTeX error of its own. builds, stamps,\n"
          "verified, unbound: each paper that builds, once per position; arxiv ok: the clean ones, once per position\n"
          "(arXiv's build stops on a paper's own errors too: 'own' in the table above).\n", file=out)
    print(table(rows), file=out)

    problems = []
    for r in sorted(results, key=lambda r: r.paper.name):
        if not r.baseline.ok:
            problems.append(f"{r.paper.name}: baseline: {r.baseline.detail}")
        elif r.baseline_errors:
            problems.append(f"{r.paper.name}: baseline builds with {len(r.baseline_errors)} LaTeX error(s) of its own, "
                            f"e.g. {r.baseline_errors[0]}")
        for v in r.variants:
            for column in COLUMNS:
                step: Step = getattr(v, column)
                if not step.ok and step.detail:
                    own = " (the paper's own errors)" if column == "arxiv" and own_errors(r, v) else ""
                    problems.append(f"{r.paper.name} [{v.position}] {column}{own}: {step.detail}")
            if v.stamp.ok and v.stamp.detail:
                problems.append(f"{r.paper.name} [{v.position}] stamp note: {v.stamp.detail}")
    if problems:
        print("\nWhat did not pass, and why:\n", file=out)
        for line in problems:
            print("  " + line, file=out)
    guessed = [f"{r.paper.name} ({', '.join(r.paper.guessed)})" for r in results if r.paper.guessed]
    if guessed:
        print("\nGuessed, not in the manifest: " + "; ".join(guessed), file=out)


def to_json(results: list[Result]) -> list[dict]:
    out = []
    for r in results:
        d = asdict(r)
        d["paper"]["source"] = str(r.paper.source)
        out.append(d)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sources", type=Path, help="a directory with one subdirectory per paper")
    ap.add_argument("--manifest", type=Path, default=HERE / "corpus.tsv", help="main/engine/class/title per paper (TSV)")
    ap.add_argument("--bin", type=Path, default=Path(os.environ.get("PITH_BIN", "build/tools")), help="the built pith tools")
    ap.add_argument("--signer", type=Path, help="pith-test-sign (default <bin>/../tests/pith-test-sign)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="papers at once (each runs latexmk; default 1)")
    ap.add_argument("--only", action="append", default=[], help="only this paper (repeatable)")
    ap.add_argument("--positions", default="first,last", help="first, last or first,last")
    ap.add_argument("--work", type=Path, help="keep the builds here (default: a temporary directory, removed)")
    ap.add_argument("--json", type=Path, help="write every result here")
    ap.add_argument("--require-all", action="store_true",
                    help="exit 1 unless every paper builds at baseline and passes every step (make papers-test)")
    args = ap.parse_args()

    if not args.sources.is_dir():
        print(f"papers.py: {args.sources}: not a directory of paper sources", file=sys.stderr)
        return 2
    positions = tuple(p for p in args.positions.split(",") if p in POSITIONS)
    manifest = load_manifest(args.manifest)
    dirs = sorted(d for d in args.sources.iterdir() if d.is_dir() and not d.name.startswith("."))
    if args.only:
        dirs = [d for d in dirs if d.name in args.only]
    papers = [describe_paper(d.resolve(), manifest) for d in dirs]
    for p in papers:
        if p.engine and p.engine not in ENGINES:
            p.problem = f"unknown engine {p.engine}"

    work = args.work or Path(tempfile.mkdtemp(prefix="pith-papers."))
    work.mkdir(parents=True, exist_ok=True)
    bin_dir = args.bin.resolve()
    tools = Tools(bin_dir, (args.signer or bin_dir.parent / "tests" / "pith-test-sign").resolve(), work)
    started = time.monotonic()
    results: list[Result] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_paper, p, tools, work, positions): p for p in papers}
        for future in concurrent.futures.as_completed(futures):
            r = future.result()
            results.append(r)
            verdicts = " ".join(f"{v.position}:{'build' if not v.build.ok else v.check.detail.split(' ')[0]}" for v in r.variants)
            print(f"[{len(results)}/{len(papers)}] {r.paper.name}: "
                  f"{'baseline fails' if not r.baseline.ok else verdicts} ({r.seconds:.0f} s)", file=sys.stderr, flush=True)
    report(results, positions, sys.stdout)
    print(f"\n{len(papers)} papers in {time.monotonic() - started:.0f} s; builds kept in {work}" if args.work else
          f"\n{len(papers)} papers in {time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(to_json(results), indent=1) + "\n")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if args.require_all:
        bad = [r for r in results if not r.baseline.ok or r.baseline_errors or len(r.variants) != len(positions) or
               not all(getattr(v, c).ok for v in r.variants for c in COLUMNS)]
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
