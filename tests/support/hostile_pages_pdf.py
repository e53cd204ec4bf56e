#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""hostile_pages_pdf.py KIND OUT.pdf [NUMBER]: a one-page PDF whose page 1 is
costly to draw (issue 32: every child bounded), small on disk.

KIND is one of
  mediabox      a 14,400 x 14,400 pt MediaBox (the largest the spec allows)
  userunit      the same with /UserUnit 75000 (PDF 1.6: 1 unit = 75000/72 in)
  image         a 14,142 x 14,142 8-bit grey image (200 megapixels) of
                zeros, Flate-compressed (~200 KB), drawn over the page
  forms-deep    1,000 Form XObjects, each drawing the next
  forms-cycle   a Form XObject that draws itself (and a pair that draw
                each other)
  patterns      12 tiling patterns, each cell filled with the next (each
                step 1/10 of the last: billions of cells at the bottom)
  operators     a content stream of 10,000,000 operators (`0 0 m 1 1 l S`,
                repeated), Flate-compressed (~150 KB)

With NUMBER (a full Pith Number), page 1 carries one link annotation to its
https://pith.science/pith/<body> page (as tests/support/many_annotations_pdf.py),
so the file names a number and a check has something to say about it, and
the page shows a line of text, so the seen-text check has a line to decide.
"""
import sys
import zlib

from classic_pdf import classic_pdf

KINDS = ("mediabox", "userunit", "image", "forms-deep", "forms-cycle", "patterns", "operators")


class Pdf:
    def __init__(self):
        self.objects = []  # bodies, object number = index + 1

    def reserve(self):
        self.objects.append(None)
        return len(self.objects)

    def set(self, number, body):
        self.objects[number - 1] = body

    def add(self, body):
        number = self.reserve()
        self.set(number, body)
        return number

    @staticmethod
    def stream(dictionary, data):
        return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"

    def write(self, path):
        """Object 1 (the first reserved) is the catalog."""
        objects = [(i + 1, body) for i, body in enumerate(self.objects)]
        with open(path, "wb") as f:
            f.write(classic_pdf(objects, header=b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"))


def compressed_repeat(unit, count, head=b""):
    """`head` + `unit` * `count`, Flate-compressed, without holding it whole."""
    z = zlib.compressobj(9)
    chunk = unit * 100000
    parts = [z.compress(head)]
    parts += [z.compress(chunk) for _ in range(count // 100000)]
    parts.append(z.compress(unit * (count % 100000)))
    parts.append(z.flush())
    return b"".join(parts)


def build(kind, number):
    pdf = Pdf()
    catalog, pages, page = pdf.reserve(), pdf.reserve(), pdf.reserve()
    font = b"/F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    title = b"BT /F1 18 Tf 72 720 Td (A hostile page) Tj ET\n"
    size = b"612 792"
    xobjects = b""
    patterns = b""
    extra = b""
    drawing = b""
    if kind in ("mediabox", "userunit"):
        size = b"14400 14400"
        drawing = b"0 0 0 rg 100 100 14200 14200 re f\n"
        if kind == "userunit":
            extra = b" /UserUnit 75000"
    elif kind == "image":
        side = 14142
        data = compressed_repeat(b"\0", side * side)
        image = pdf.add(pdf.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
                                   b" /BitsPerComponent 8 /Filter /FlateDecode" % (side, side), data))
        xobjects = b"/Im1 %d 0 R" % image
        drawing = b"q 612 0 0 792 0 0 cm /Im1 Do Q\n"
    elif kind == "forms-deep":
        depth = 1000
        numbers = [pdf.reserve() for _ in range(depth)]
        for i, n in enumerate(numbers):
            inner = b"/Fm1 Do" if i + 1 < depth else b"0 0 m 10 10 l S"
            resources = b"<< /XObject << /Fm1 %d 0 R >> >>" % numbers[i + 1] if i + 1 < depth else b"<< >>"
            pdf.set(n, pdf.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources " + resources,
                                  b"q 1 0 0 1 0 0 cm " + inner + b" Q"))
        xobjects = b"/Fm1 %d 0 R" % numbers[0]
        drawing = b"/Fm1 Do\n"
    elif kind == "forms-cycle":
        self_form, a, b = pdf.reserve(), pdf.reserve(), pdf.reserve()
        pdf.set(self_form, pdf.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792]"
                                      b" /Resources << /XObject << /Fm1 %d 0 R >> >>" % self_form,
                                      b"0 0 m 10 10 l S /Fm1 Do /Fm1 Do"))
        pdf.set(a, pdf.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792]"
                              b" /Resources << /XObject << /Fm2 %d 0 R >> >>" % b, b"/Fm2 Do /Fm2 Do"))
        pdf.set(b, pdf.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792]"
                              b" /Resources << /XObject << /Fm1 %d 0 R >> >>" % a, b"/Fm1 Do /Fm1 Do"))
        xobjects = b"/Fm1 %d 0 R /Fm2 %d 0 R" % (self_form, a)
        drawing = b"/Fm1 Do /Fm2 Do\n"
    elif kind == "patterns":
        levels = 12
        numbers = [pdf.reserve() for _ in range(levels)]
        step = 600.0
        for i, n in enumerate(numbers):
            if i + 1 < levels:
                resources = b"<< /Pattern << /P1 %d 0 R >> >>" % numbers[i + 1]
                cell = b"/Pattern cs /P1 scn 0 0 %.6f %.6f re f" % (step, step)
            else:
                resources = b"<< >>"
                cell = b"0 g 0 0 %.6f %.6f re f" % (step / 2, step / 2)
            pdf.set(n, pdf.stream(b"/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1"
                                  b" /BBox [0 0 %.6f %.6f] /XStep %.6f /YStep %.6f /Resources " % (step, step, step, step)
                                  + resources, cell))
            step /= 10
        patterns = b"/P1 %d 0 R" % numbers[0]
        drawing = b"/Pattern cs /P1 scn 0 0 612 792 re f\n"
    elif kind != "operators":
        raise SystemExit("unknown kind %r (one of %s)" % (kind, ", ".join(KINDS)))

    if kind == "operators":
        # The title first, so a reader that stops early has drawn it; three
        # operators a repeat.
        contents = pdf.add(pdf.stream(b"/Filter /FlateDecode",
                                      compressed_repeat(b"0 0 m 1 1 l S\n", 10_000_000 // 3, head=title)))
    else:
        contents = pdf.add(pdf.stream(b"", drawing + title))

    annots = b""
    if number:
        uri = b"https://pith.science/pith/" + number.rsplit(":", 1)[-1].encode()
        link = pdf.add(b"<< /Type /Annot /Subtype /Link /Rect [72 700 90 710] /A << /S /URI /URI (" + uri + b") >> >>")
        annots = b" /Annots [%d 0 R]" % link
    resources = b"<< /Font << " + font + b" >>"
    if xobjects:
        resources += b" /XObject << " + xobjects + b" >>"
    if patterns:
        resources += b" /Pattern << " + patterns + b" >>"
    resources += b" >>"
    pdf.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % pages)
    pdf.set(pages, b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page)
    pdf.set(page, b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 " % pages + size + b"]" + extra
            + b" /Contents %d 0 R /Resources " % contents + resources + annots + b" >>")
    assert catalog == 1
    return pdf


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in KINDS:
        print(__doc__, file=sys.stderr)
        return 2
    build(sys.argv[1], sys.argv[3] if len(sys.argv) == 4 else None).write(sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
