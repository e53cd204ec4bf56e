#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""many_annotations_pdf.py COUNT OUT.pdf [NUMBER]: a one-page PDF whose page 1
carries COUNT link annotations (issue 23: memory amplification).

Each annotation is an indirect object with a URI action, as a hostile file
(or a generated index page) would have; 250,000 of them make a ~32 MB file.
With NUMBER (a full Pith Number), the first annotation links to its
https://pith.science/pith/<body> page, so the file names a number and a
check has something to say about it; the others link to example.org.
"""
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    count, path = int(sys.argv[1]), sys.argv[2]
    number = sys.argv[3] if len(sys.argv) == 4 else None
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []

    def obj(body):
        offsets.append(len(out))
        out.extend(b"%d 0 obj\n" % len(offsets) + body + b"\nendobj\n")

    first_annotation = 5
    content = b"BT /F1 18 Tf 72 720 Td (Many links) Tj ET"
    obj(b"<< /Type /Catalog /Pages 2 0 R >>")
    annots = b" ".join(b"%d 0 R" % (first_annotation + i) for i in range(count))
    obj(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    obj(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
        b" /Annots [" + annots + b"] >>")
    obj(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    for i in range(count):
        if i == 0 and number:
            uri = b"https://pith.science/pith/" + number.rsplit(":", 1)[-1].encode()
        else:
            uri = b"https://example.org/%d" % i
        obj(b"<< /Type /Annot /Subtype /Link /Rect [72 700 90 710] /A << /S /URI /URI (" + uri + b") >> >>")
    xref_at = len(out)
    out.extend(b"xref\n0 %d\n0000000000 65535 f\r\n" % (len(offsets) + 1))
    for at in offsets:
        out.extend(b"%010d 00000 n\r\n" % at)
    out.extend(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref_at))
    with open(path, "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
