#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Load on pith-serve, loopback only (issue 16; bench/serve_load.sh runs it).

serve_load.py BASE_URL SERVER_PID SECONDS CLIENTS MAX_UPLOAD FILE...

CLIENTS threads upload for SECONDS: each request is one of the FILEs (valid,
tampered, hostile: whatever is given), an upload over MAX_UPLOAD bytes, or a
slow sender (the file in ten pieces over about two seconds). Meanwhile
/healthz is asked every 0.5 s and the RSS of SERVER_PID and its descendants
(the broker and the check children) is sampled.

Asserts (exit 1 when one fails): every answer is 200, 413 or 503; no
connection reset or unanswered request; /healthz answered 200 within 10 s
every time; peak RSS under --rss-limit-mib (default 1024). Prints one JSON
line of figures (p50/p99 latency of the 200s, checks/s, counts): recorded,
never asserted.
"""
import json
import os
import random
import socket
import sys
import threading
import time
import urllib.parse


def request(host, port, path, body=b"", method="POST", slow=False, claimed_length=None, timeout=120):
    """One HTTP/1.1 request on its own connection; returns (status, seconds)."""
    started = time.monotonic()
    with socket.create_connection((host, port), timeout=timeout) as s:
        length = len(body) if claimed_length is None else claimed_length
        head = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                f"Content-Type: application/pdf\r\nContent-Length: {length}\r\n\r\n").encode()
        if method == "GET":
            head = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
        s.sendall(head)
        if slow:
            piece = max(1, len(body) // 10)
            for at in range(0, len(body), piece):
                s.sendall(body[at:at + piece])
                time.sleep(0.2)
        elif body:
            s.sendall(body)
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


def rss_kib(root_pid):
    """VmRSS of root_pid and every descendant, in KiB."""
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
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def main():
    args = sys.argv[1:]
    rss_limit_mib = 1024
    if args and args[0].startswith("--rss-limit-mib="):
        rss_limit_mib = int(args.pop(0).split("=", 1)[1])
    if len(args) < 6:
        print(__doc__)
        return 2
    base, server_pid, seconds, clients, max_upload = args[0], int(args[1]), float(args[2]), int(args[3]), int(args[4])
    files = [open(p, "rb").read() for p in args[5:]]
    url = urllib.parse.urlparse(base)
    host, port = url.hostname, url.port
    oversize = b"\0" * (max_upload + 4096)

    lock = threading.Lock()
    statuses, latencies, problems = {}, [], []
    health = {"asked": 0, "worst": 0.0}
    peak_rss = [0]
    stop_at = time.monotonic() + seconds
    done = threading.Event()

    def client(seed):
        rng = random.Random(seed)
        while time.monotonic() < stop_at:
            draw = rng.random()
            kind = "oversize" if draw < 0.08 else "slow" if draw < 0.20 else "upload"
            try:
                if kind == "oversize":
                    status, took = request(host, port, "/api/v1/check", oversize)
                else:
                    status, took = request(host, port, "/api/v1/check", rng.choice(files), slow=kind == "slow")
            except (OSError, ConnectionError) as e:
                with lock:
                    problems.append(f"{kind} request: {type(e).__name__}: {e}")
                continue
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(took)
                elif status == 503:
                    pass
                elif status != 413:
                    problems.append(f"HTTP {status}")
            if status == 503:
                time.sleep(0.05 + rng.random() * 0.1)  # as a client honouring Retry-After would, shortened

    def watch():
        while not done.is_set():
            try:
                status, took = request(host, port, "/healthz", method="GET", timeout=10)
                with lock:
                    health["asked"] += 1
                    health["worst"] = max(health["worst"], took)
                    if status != 200:
                        problems.append(f"/healthz: HTTP {status}")
            except (OSError, ConnectionError) as e:
                with lock:
                    problems.append(f"/healthz: {type(e).__name__}: {e}")
            peak_rss[0] = max(peak_rss[0], rss_kib(server_pid))
            done.wait(0.5)

    watcher = threading.Thread(target=watch)
    watcher.start()
    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    done.set()
    watcher.join()

    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 4) if latencies else None
    figures = {
        "seconds": round(elapsed, 2), "clients": clients, "statuses": statuses,
        "checks_per_second": round(len(latencies) / elapsed, 2), "p50_seconds": pick(0.50), "p99_seconds": pick(0.99),
        "healthz_asked": health["asked"], "healthz_worst_seconds": round(health["worst"], 3),
        "peak_rss_mib": round(peak_rss[0] / 1024, 1), "problems": len(problems),
    }
    print(json.dumps(figures))
    if peak_rss[0] > rss_limit_mib * 1024:
        problems.append(f"peak RSS {peak_rss[0] // 1024} MiB over {rss_limit_mib} MiB")
    if health["asked"] == 0:
        problems.append("/healthz was never answered")
    if statuses.get(200, 0) == 0:
        problems.append("no check answered 200")
    for p in sorted(set(problems))[:20]:
        print("FAIL: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
