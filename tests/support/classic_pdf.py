# SPDX-License-Identifier: GPL-3.0-or-later
"""The one writer of small test PDFs with a classic cross-reference table,
shared by hostile_pdfs.py and reader_classes.py (and the scripts that import
them): objects as written, every offset correct unless a hostile file asks
for its own table or startxref."""


def classic_pdf(objects, trailer=b"", header=b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", free=b"0000000000 65535 f\r\n",
                xref_override=None, startxref_override=None):
    """objects: list of (number, body bytes), object 1 the catalog.

    trailer: more trailer entries (after /Size and /Root), each followed by a
    space; free: the table's entry for object 0; xref_override(offsets, size):
    the bytes written instead of the table; startxref_override: the bytes
    written instead of the table's offset."""
    out = bytearray(header)
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    size = max(offsets) + 1
    xref_at = len(out)
    if xref_override is not None:
        out += xref_override(offsets, size)
    else:
        out += b"xref\n0 %d\n" % size + free
        for n in range(1, size):
            out += b"%010d 00000 n\r\n" % offsets[n] if n in offsets else b"0000000000 00000 f\r\n"
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\n" % (size, trailer)
    out += b"startxref\n" + (startxref_override or b"%d" % xref_at) + b"\n%%EOF\n"
    return bytes(out)
