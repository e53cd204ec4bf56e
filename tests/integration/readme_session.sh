#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's "A session" block, run exactly as a reader copies it: every
# `$ ` line, verbatim (comments and all), in order, in ONE bash started in a
# clone (samples/, latex/ and build/tools of this tree) with nothing in its
# environment but a new HOME and the system PATH: whatever else a command
# needs, the README must show. Every output line the README shows must
# appear in what that command printed (stdout and stderr), in order, with
# "…" matching anything. Offline: the record comes from the sample's file://
# mirror, as the README's first line says.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp

# The clone as the reader has it after `make demo`: the sources and build/tools.
clone="$work/clone"
mkdir -p "$clone/build" "$work/home" "$work/tmp"
for part in samples latex; do ln -s "$src/$part" "$clone/$part"; done
ln -s "$(cd "$bin" && pwd)" "$clone/build/tools"

/usr/bin/python3 - "$src/README.md" "$clone" "$work" "$src/scripts/install-deps" <<'EOF'
import re, shutil, subprocess, sys
readme, clone, work = sys.argv[1:4]
text = open(readme, encoding="utf-8").read()
block = text.split("## A session", 1)[1].split("```console", 1)[1].split("```", 1)[0]
steps = []  # (command, [expected lines])
for line in block.strip("\n").splitlines():
    if line.startswith("$ "):
        steps.append((line[2:], []))
    elif steps:
        steps[-1][1].append(line)
if len(steps) < 6:
    sys.exit(f"FAIL: the README's session has {len(steps)} commands; expected at least 6")

# Every program the session runs is installed by `make demo` (scripts/install-deps
# demo), or comes with every Debian system (Priority required or important):
# the README promises the session works after `make demo` alone.
demo = set(subprocess.run(["bash", sys.argv[4], "--list", "demo"],
                          stdout=subprocess.PIPE, check=True, text=True).stdout.split())
builtins = {"export", "cd", "echo", "printf", "true", "false", "test", "["}

def package_of(program):
    path = shutil.which(program, path="/usr/local/bin:/usr/bin:/bin")
    if path is None:
        return None
    for candidate in (path, path.replace("/usr/bin/", "/bin/", 1)):
        owner = subprocess.run(["dpkg", "-S", candidate], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if owner.returncode == 0:
            return owner.stdout.split(":", 1)[0]
    return None

def comes_with_debian(package):
    fields = subprocess.run(["dpkg-query", "-W", "-f=${Priority} ${Essential}", package],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.split()
    return bool(fields) and (fields[0] in ("required", "important") or "yes" in fields[1:])

not_in_demo = []
for command, _ in steps:
    command = re.sub(r"\s#.*$", "", command)
    for part in re.split(r"&&|\|\||;|\||\$\(", command):
        words = part.strip().lstrip("(").split()
        if not words or "=" in words[0] or words[0] in builtins or words[0].startswith("pith-"):
            continue
        package = package_of(words[0])
        if package is None or not (package in demo or comes_with_debian(package)):
            not_in_demo.append(f"{words[0]} ({package or 'not installed here'})")
for program in sorted(set(not_in_demo)):
    print(f"FAIL: the session runs {program}, which `make demo` (scripts/install-deps demo) does not install", file=sys.stderr)

# One shell for the whole session (cd and export carry over, as in the
# reader's terminal), a marker line before each command to split the output.
marker = "@@pith-readme-step {}@@"
script = "exec 2>&1\n" + "".join(f"printf '\\n{marker.format(i)}\\n'\n{command}\n" for i, (command, _) in enumerate(steps))
env = {"HOME": f"{work}/home", "TMPDIR": f"{work}/tmp", "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
run = subprocess.run(["bash", "--noprofile", "--norc"], input=script.encode(), cwd=clone, env=env,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
printed = {}
current = None
for line in run.stdout.decode("utf-8", "replace").splitlines():
    m = re.fullmatch(r"@@pith-readme-step (\d+)@@", line)
    if m:
        current = int(m.group(1))
        printed[current] = []
    elif current is not None:
        printed[current].append(line)

def matches(pattern, line):
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("…")), line) is not None

def problem(command, expected, got):
    if got is None:
        return "never ran (the session stopped before it)"
    if not expected and any(l.strip() for l in got):
        # A command the README shows without output must print nothing.
        return "printed what the README does not show:\n" + "\n".join(got)
    at = 0
    for want in expected:
        if want.strip() == "…":
            continue
        while at < len(got) and not matches(want, got[at]):
            at += 1
        if at == len(got):
            return f"README line not printed (in order): {want}\n--- got:\n" + "\n".join(got)
        at += 1
    return None

failures = 0
for i, (command, expected) in enumerate(steps):
    why = problem(command, expected, printed.get(i))
    if why:
        print(f"FAIL: `{command}`: {why}", file=sys.stderr)
        failures += 1
    else:
        print(f"ok: $ {command}")
sys.exit(1 if failures or not_in_demo else 0)
EOF
echo "readme_session: the README's session runs as a reader copies it"
