# SPDX-License-Identifier: GPL-3.0-or-later
"""HTTP by hand for pith-serve's limit tests: sockets from a chosen source
address, whole answers, status lines, and expectations collected as
failures (tests/integration/pith_serve_limits.sh)."""
import socket


class RawHttp:
    def __init__(self, host, port):
        self.host, self.port = host, int(port)
        self.failures = []

    def connect(self, source="127.0.0.1", timeout=10):
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect((self.host, self.port))
        return s

    def expect(self, what, got, wanted):
        if got != wanted:
            self.failures.append(f"{what}: {got!r}, expected {wanted!r}")
        else:
            print(f"ok: {what}: {got}")


def read_all(s):
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except OSError:
        pass
    return data


def status_of(answer):
    parts = answer.split(b" ", 2)
    return int(parts[1]) if answer.startswith(b"HTTP/") and len(parts) > 1 else None


def body_of(answer):
    return answer.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in answer else b""
