#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes crafted hostile PDFs into a directory (tests/integration/hostile_pdfs.sh).

Each is a small, otherwise well-formed PDF with one hostile part:
  nested.pdf        100,000 nested `<<` in the Info dictionary's object
  nested-array.pdf  100,000 nested `[` inside an object stream member
  objstm-self.pdf   an object stream whose /Length is an object inside itself
  xref-wrap.pdf     a classic xref subsection starting at a 20-digit object number
  objstm-bomb.pdf   eight object streams, each inflating to 100 MiB
  startxref-bad.pdf startxref -1 (damaged, readable by scanning)
  offsets-wrong.pdf every xref offset off by 7 bytes (damaged, readable by scanning)
"""
import sys
import zlib
from pathlib import Path

from classic_pdf import classic_pdf as pdf  # pdf(): what scripts import from here


CATALOG = (1, b"<< /Type /Catalog /Pages 2 0 R >>")
PAGES = (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
PAGE = (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
BASE = [CATALOG, PAGES, PAGE]


def stream(dictionary, data):
    return dictionary + b"\nstream\n" + data + b"\nendstream"


def objstm(members, first_number_in_header=True):
    header = b" ".join(b"%d %d" % (n, 0) for n, _ in members)  # offsets filled below
    bodies = b""
    pairs = []
    for n, body in members:
        pairs.append(b"%d %d" % (n, len(bodies)))
        bodies += body + b"\n"
    header = b" ".join(pairs) + b"\n"
    return header, bodies


def main(out_dir):
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    deep = 100_000

    (d / "nested.pdf").write_bytes(pdf(BASE + [(4, b"<< /Title " + b"<<" * deep + b">>" * deep + b" >>")],
                                       b"/Info 4 0 R "))

    # An object stream holding the Info dictionary: 100,000 nested arrays.
    header, bodies = objstm([(4, b"<< /Title " + b"[" * deep + b"]" * deep + b" >>")])
    data = header + bodies
    body = stream(b"<< /Type /ObjStm /N 1 /First %d /Length %d >>" % (len(header), len(data)), data)

    def xref_with_objstm(offsets, size):
        # objects 1-3 and 5 in the file, 4 inside object stream 5
        x = b"xref\n0 %d\n0000000000 65535 f\r\n" % size
        for n in range(1, size):
            x += b"%010d 00000 n\r\n" % offsets[n] if n in offsets else b"0000000000 00000 f\r\n"
        return x

    # (a classic table cannot say "in an object stream": use an xref stream)
    def xref_stream_file(objects, in_stream, root=1, info=None):
        out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
        offsets = {}
        for num, b in objects:
            offsets[num] = len(out)
            out += b"%d 0 obj\n" % num + b + b"\nendobj\n"
        xref_num = max(list(offsets) + [n for n, _, _ in in_stream]) + 1
        size = xref_num + 1
        rows = bytearray(b"\x00\x00\x00\x00\x00\xff")  # object 0 free; W [1 4 1]
        xref_at = len(out)
        offsets[xref_num] = xref_at
        located = {n: (stm, idx) for n, stm, idx in in_stream}
        for n in range(1, size):
            if n in located:
                stm, idx = located[n]
                rows += bytes([2]) + stm.to_bytes(4, "big") + bytes([idx])
            elif n in offsets:
                rows += bytes([1]) + offsets[n].to_bytes(4, "big") + b"\x00"
            else:
                rows += b"\x00\x00\x00\x00\x00\x00"
        extra = b" /Info %d 0 R" % info if info else b""
        out += b"%d 0 obj\n" % xref_num
        out += stream(b"<< /Type /XRef /Size %d /W [1 4 1] /Root %d 0 R%s /Length %d >>" % (size, root, extra, len(rows)), bytes(rows))
        out += b"\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
        return bytes(out)

    (d / "nested-array.pdf").write_bytes(xref_stream_file(BASE + [(5, body)], [(4, 5, 0)], info=4))

    # Object stream 5 whose /Length is object 4, which lives in object stream 5.
    header, bodies = objstm([(4, b"10")])
    data = header + bodies
    body = stream(b"<< /Type /ObjStm /N 1 /First %d /Length 4 0 R >>" % len(header), data)
    (d / "objstm-self.pdf").write_bytes(xref_stream_file(BASE + [(5, body), (6, b"<< /Title (x) >>")], [(4, 5, 0)], info=4))

    # A subsection whose first object number wraps 64-bit arithmetic: the
    # entries would land on objects 1.. and replace the catalog.
    def wrapping(offsets, size):
        x = b"xref\n0 %d\n0000000000 65535 f\r\n" % size
        for n in range(1, size):
            x += b"%010d 00000 n\r\n" % offsets[n]
        x += b"18446744073709551615 2\n%010d 00000 n\r\n%010d 00000 n\r\n" % (offsets[3], offsets[3])
        return x

    (d / "xref-wrap.pdf").write_bytes(pdf(BASE, xref_override=wrapping))

    # Object streams each inflating to 100 MiB (a ~1 MB file), one member of
    # each named by a key of the Info dictionary that every reader looks at:
    # kept all at once, they took a gigabyte.
    keys = [b"Title", b"Author", b"Subject", b"Keywords", b"Creator", b"Producer", b"PithNumber", b"PithURL"]
    objects = list(BASE)
    in_stream = []
    for i in range(len(keys)):
        n = 10 + 2 * i
        header = b"%d 0\n" % (n + 1)
        data = zlib.compress(header + b"(x)" + b" " * ((100 << 20) - len(header) - 3), 6)
        objects.append((n, stream(b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>"
                                  % (len(header), len(data)), data)))
        in_stream.append((n + 1, n, 0))
    info_n = 40
    objects.append((info_n, b"<< " + b" ".join(b"/%s %d 0 R" % (k, 11 + 2 * i) for i, k in enumerate(keys)) + b" >>"))
    (d / "objstm-bomb.pdf").write_bytes(xref_stream_file(objects, in_stream, info=info_n))

    # Damaged but readable: startxref -1, and every offset off by 7.
    (d / "startxref-bad.pdf").write_bytes(pdf(BASE + [(4, b"<< /Title (Damaged) >>")], b"/Info 4 0 R ",
                                              startxref_override=b"-1"))

    def shifted(offsets, size):
        x = b"xref\n0 %d\n0000000000 65535 f\r\n" % size
        for n in range(1, size):
            x += b"%010d 00000 n\r\n" % (offsets[n] + 7)
        return x

    (d / "offsets-wrong.pdf").write_bytes(pdf(BASE + [(4, b"<< /Title (Damaged) >>")], b"/Info 4 0 R ",
                                              xref_override=shifted))


if __name__ == "__main__":
    main(sys.argv[1])
