#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Load and attacks on pith-serve, loopback only (issues 16 and 23;
bench/serve_load.sh and tests/integration/pith_serve_load.sh run it).

serve_load.py --base URL --pid PID [options] --valid FILE... [--other FILE...]

Two conditions in one run, so the second is measured against the first,
in --slices alternating windows each (a shared machine's drift weighs on
both alike), after a warm-up:
  baseline (--baseline-seconds in all, 0 to skip): UPLOADERS clients upload,
     nothing else;
  attack (--seconds in all): the same uploaders while SLOW connections
     attack: half send a request head one header line a second and never end
     it (slowloris), half announce a 1 MiB body and send one byte a second
     (slow body); each reconnects when the server closes it. They come from
     127.0.0.2 onwards, at most --slow-per-address from one address.
Uploaders (from 127.0.0.1) send a valid file, another file (tampered,
hostile: --other), an upload over --max-upload (8 %) or a slow sender (the
file in ten pieces over two seconds, 12 %), each on a new connection.
/healthz is asked every --healthz-interval from 127.0.0.250 throughout; the
memory of PID and its descendants (the broker and the check children) is
sampled every 0.2 s: the sum of their RSS (shared pages counted in each
process: an upper bound) and of their PSS.

Fails (exit 1) on what must never happen: an upload answered other than
200, 413 or 503, or not answered (reset, closed); a /healthz probe not
answered 200 within 5 s; the tree's RSS over --memory-budget (bytes) when
given, or over --rss-limit-mib. Speeds are printed, never asserted here:
one JSON line with /healthz p50/p99/max, valid uploads per second in each
phase, statuses, peak memory.
"""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time
import urllib.parse

SLOW_BODY_LENGTH = 1 << 20


def request(host, port, path, body=b"", method="POST", slow=False, timeout=120, source="127.0.0.1"):
    """One HTTP/1.1 request on its own connection; returns (status, seconds)."""
    started = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect((host, port))
        if method == "GET":
            head = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
        else:
            head = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                    f"Content-Type: application/pdf\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        s.sendall(head)
        try:
            if slow:
                piece = max(1, len(body) // 10)
                for at in range(0, len(body), piece):
                    s.sendall(body[at:at + piece])
                    time.sleep(0.2)
            elif body:
                s.sendall(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered early (413, 503) and closed: its answer is still to be read
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    line = answer.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split()
    if len(parts) < 2 or not parts[1].isdigit():
        raise ConnectionError(f"no HTTP answer ({line!r})")
    return int(parts[1]), time.monotonic() - started


def tree_memory_kib(root_pid):
    """(sum of VmRSS, sum of Pss) of root_pid and every descendant, in KiB."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except OSError:
            continue
    rss = pss = 0
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            pass
    return rss, pss


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 4)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--baseline-seconds", type=float, default=0)
    parser.add_argument("--uploaders", type=int, default=64)
    parser.add_argument("--slow", type=int, default=0)
    parser.add_argument("--slow-per-address", type=int, default=25)
    parser.add_argument("--max-upload", type=int, required=True)
    parser.add_argument("--healthz-interval", type=float, default=0.05)
    parser.add_argument("--slices", type=int, default=3)
    parser.add_argument("--memory-budget", type=int, default=0)
    parser.add_argument("--rss-limit-mib", type=int, default=0)
    parser.add_argument("--valid", nargs="+", required=True)
    parser.add_argument("--other", nargs="*", default=[])
    args = parser.parse_args()

    url = urllib.parse.urlparse(args.base)
    host, port = url.hostname, url.port
    valid = [open(p, "rb").read() for p in args.valid]
    other = [open(p, "rb").read() for p in args.other]
    oversize = b"\0" * (args.max_upload + 4096)

    lock = threading.Lock()
    problems = []
    answers = []  # (completed at, status, a valid file answered 200)
    phase = {"name": "baseline"}
    health = []  # (phase, seconds)
    memory = {"rss": 0, "pss": 0}
    slow_stats = {"opened": 0}
    stop = threading.Event()
    uploads_on = threading.Event()
    attack_on = threading.Event()

    def uploader(seed):
        rng = random.Random(seed)
        while not stop.is_set():
            uploads_on.wait()
            if stop.is_set():
                break
            draw = rng.random()
            kind = "oversize" if draw < 0.08 else "slow" if draw < 0.20 else "valid" if draw < 0.70 else "other"
            if kind == "other" and not other:
                kind = "valid"
            body = oversize if kind == "oversize" else rng.choice(other if kind == "other" else valid)
            try:
                status, _ = request(host, port, "/api/v1/check", body, slow=kind == "slow")
            except (OSError, ConnectionError) as e:
                with lock:
                    problems.append(f"{kind} upload: {type(e).__name__}: {e}")
                continue
            with lock:
                answers.append((time.monotonic(), status, status == 200 and any(body is v for v in valid)))
                if status not in (200, 413, 503):
                    problems.append(f"{kind} upload: HTTP {status}")
            if status == 503:
                time.sleep(0.05 + rng.random() * 0.1)  # as a client honouring Retry-After would, shortened

    def slow_client(index):
        source = f"127.0.0.{2 + index // args.slow_per_address}"
        slowloris = index % 2 == 0
        while not stop.is_set():
            if not attack_on.is_set():
                stop.wait(0.2)
                continue
            try:
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                    s.settimeout(10)
                    s.bind((source, 0))
                    s.connect((host, port))
                    with lock:
                        slow_stats["opened"] += 1
                    if slowloris:
                        s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n".encode())
                    else:
                        s.sendall((f"POST /api/v1/check HTTP/1.1\r\nHost: {host}\r\n"
                                   f"Content-Type: application/pdf\r\nContent-Length: {SLOW_BODY_LENGTH}\r\n\r\n").encode())
                    while not stop.is_set() and attack_on.is_set():
                        if stop.wait(1.0):
                            break
                        s.sendall(b"X-Slow: 1\r\n" if slowloris else b"%")
            except OSError:
                stop.wait(0.2)

    def watch_health():
        while not stop.is_set():
            current = phase["name"]
            started = time.monotonic()
            try:
                status, took = request(host, port, "/healthz", method="GET", timeout=5, source="127.0.0.250")
                if status != 200:
                    with lock:
                        problems.append(f"/healthz: HTTP {status}")
            except (OSError, ConnectionError) as e:
                took = time.monotonic() - started
                with lock:
                    problems.append(f"/healthz: {type(e).__name__}: {e}")
            with lock:
                health.append((current, took))
            stop.wait(args.healthz_interval)

    def watch_memory():
        while not stop.is_set():
            rss, pss = tree_memory_kib(args.pid)
            memory["rss"] = max(memory["rss"], rss)
            memory["pss"] = max(memory["pss"], pss)
            stop.wait(0.2)

    helpers = [threading.Thread(target=watch_health), threading.Thread(target=watch_memory)]
    uploaders = [threading.Thread(target=uploader, args=(i,)) for i in range(args.uploaders)]
    slow = [threading.Thread(target=slow_client, args=(i,)) for i in range(args.slow)]
    for t in helpers + uploaders:
        t.start()

    # Uploads run throughout; what completes inside a window counts for it.
    # After a warm-up (the checks' first runs, the cache), baseline and
    # attack windows alternate in --slices pairs, so that a machine whose
    # load drifts (other work on it) weighs on both alike; an attack window
    # opens once its slow connections are up, a baseline one once they are gone.
    windows = {"baseline": [], "attack": []}
    uploads_on.set()
    for t in slow:
        t.start()
    if args.baseline_seconds > 0:
        time.sleep(min(5.0, args.baseline_seconds / 4))
    slices = max(1, args.slices)
    for _ in range(slices):
        for name, seconds in (("baseline", args.baseline_seconds), ("attack", args.seconds)):
            if seconds <= 0:
                continue
            if name == "attack" and slow:
                attack_on.set()
                time.sleep(2)
            elif slow:
                attack_on.clear()
                time.sleep(1.5)
            phase["name"] = name
            start = time.monotonic()
            time.sleep(seconds / slices)
            windows[name].append((start, time.monotonic()))
    stop.set()
    for t in helpers + uploaders + slow:
        t.join()

    def in_window(name):
        return [(status, ok) for at, status, ok in answers if any(low <= at < high for low, high in windows[name])]

    def window_seconds(name):
        return sum(high - low for low, high in windows[name])

    if os.environ.get("SERVE_LOAD_DEBUG"):  # the answers second by second, to see bursts
        t0 = min(low for w in windows.values() for low, _ in w)
        buckets = {}
        for at, status, ok in answers:
            b = int(at - t0) if at >= t0 else -1
            buckets.setdefault(b, [0, 0])
            buckets[b][0] += status == 200
            buckets[b][1] += ok
        print("per second (200s, valid 200s):", sorted(buckets.items()), file=sys.stderr)
        print("windows:", {k: [(round(l - t0, 1), round(h - t0, 1)) for l, h in v] for k, v in windows.items()}, file=sys.stderr)
    statuses = {}
    for name in windows:
        counts = {}
        for status, _ in in_window(name):
            counts[str(status)] = counts.get(str(status), 0) + 1
        statuses[name] = counts
    rate = lambda name: (round(sum(ok for _, ok in in_window(name)) / window_seconds(name), 2)
                         if windows[name] else None)
    attack_health = [s for p, s in health if p == "attack"]
    figures = {
        "uploaders": args.uploaders, "slow_connections": args.slow, "slow_connections_opened": slow_stats["opened"],
        "baseline_valid_per_second": rate("baseline"), "attack_valid_per_second": rate("attack"),
        "statuses": statuses,
        "healthz_probes": len(attack_health), "healthz_p50_seconds": percentile(attack_health, 0.50),
        "healthz_p99_seconds": percentile(attack_health, 0.99),
        "healthz_max_seconds": round(max(attack_health), 4) if attack_health else None,
        "peak_tree_rss_mib": round(memory["rss"] / 1024, 1), "peak_tree_pss_mib": round(memory["pss"] / 1024, 1),
        "problems": len(problems),
    }
    if rate("baseline"):
        figures["attack_over_baseline"] = round(rate("attack") / rate("baseline"), 3)
    print(json.dumps(figures))
    if args.memory_budget and memory["rss"] * 1024 > args.memory_budget:
        problems.append(f"the tree's RSS reached {memory['rss'] // 1024} MiB, over --memory-budget "
                        f"{args.memory_budget >> 20} MiB")
    if args.rss_limit_mib and memory["rss"] > args.rss_limit_mib * 1024:
        problems.append(f"peak RSS {memory['rss'] // 1024} MiB over {args.rss_limit_mib} MiB")
    if not attack_health:
        problems.append("/healthz was never answered")
    if not rate("attack"):
        problems.append("no valid upload answered 200 during the attack")
    for p in sorted(set(problems))[:20]:
        print("FAIL: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
