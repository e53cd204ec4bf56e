#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes small PDFs of the kinds issue 26 found in other projects' test
suites, which every common reader opens, into a directory
(tests/integration/pdf_reader_classes.sh). Made here, so no third-party
file is shipped:

  gen65536.pdf       `0000000000 65536 f` heads a classic table (MS Office,
                     Adobe PDF Library, PyMuPDF)
  junk-brace.pdf     `/Something {` in the trailer (qpdf's bad13)
  junk-word.pdf      a stray `x` in the trailer (qpdf's bad36)
  junk-paren.pdf     a stray `)` in the trailer
  headerless.pdf     no `%PDF-` line (pdf.js bug1606566), offsets from byte 0
  rc4-no-id.pdf      RC4 40-bit, empty user password, no /ID (pypdf's
                     encrypted_doc_no_id.pdf)
  form-fonts.pdf     an AcroForm with /NeedAppearances and a field font the
                     file does not embed (qpdf's button-set-broken.pdf)
  xrefstream.pdf     an xref stream whose /Index leaves holes the page still
                     names (pdf-lib's flatten_form.pdf)
  bad-xmp.pdf        an XMP packet that is not well-formed (pdf.js's
                     bug854315.pdf)
"""
import hashlib
import sys
import zlib
from pathlib import Path

from classic_pdf import classic_pdf

TITLE = b"Layered gradient accumulation and modular pipeline parallelism"
PAGE = b"BT /F1 18 Tf 72 700 Td (" + TITLE + b") Tj ET"


def rc4(key, data):
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def stream(dictionary, data):
    return dictionary.replace(b">>", b" /Length %d >>" % len(data), 1) + b"\nstream\n" + data + b"\nendstream"


def base_objects(info=b"<< /Title (Made for pith's tests) >>", content=PAGE):
    return [
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>"),
        (4, stream(b"<< >>", content)),
        (5, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        (6, info),
    ]


def classic(objects, trailer=b"", header=b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", free=b"0000000000 65535 f\r\n"):
    """A PDF 1.4 file of base_objects' kind: its Info dictionary is object 6."""
    return classic_pdf(objects, b"/Info 6 0 R " + trailer, header, free)


def rc4_no_id():
    # ISO 32000-2 7.6.4.3: algorithm 2 (file key) and 4 (/U), revision 2, no /ID.
    padding = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
    owner = b"O" * 32
    permissions = -4
    file_key = hashlib.md5(padding + owner + permissions.to_bytes(4, "little", signed=True)).digest()[:5]

    def object_key(number):
        return hashlib.md5(file_key + number.to_bytes(3, "little") + b"\0\0").digest()[:10]

    title = rc4(object_key(6), b"Encrypted without an ID")
    content = rc4(object_key(4), PAGE)
    objects = base_objects(info=b"<< /Title <" + title.hex().encode() + b"> >>", content=content)
    objects.append((7, b"<< /Filter /Standard /V 1 /R 2 /O <" + owner.hex().encode() + b"> /U <" +
                    rc4(file_key, padding).hex().encode() + b"> /P -4 >>"))
    return classic(objects, trailer=b"/Encrypt 7 0 R ")


def form_fonts():
    objects = base_objects()
    objects[0] = (1, b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [7 0 R 8 0 R] /NeedAppearances true "
                     b"/DR << /Font << /F2 9 0 R /ZaDi 10 0 R >> >> /DA (/F2 12 Tf 0 g) >> >>")
    objects[2] = (3, objects[2][1].replace(b">> >>", b">> >> /Annots [7 0 R 8 0 R]"))
    objects += [
        (7, b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Filled in) /DA (/F2 12 Tf 0 g) "
            b"/Rect [72 600 300 620] /P 3 0 R /F 4 >>"),
        (8, b"<< /Type /Annot /Subtype /Widget /FT /Btn /T (tick) /V /Yes /AS /Yes /DA (/ZaDi 0 Tf 0 g) "
            b"/MK << /CA (8) >> /Rect [72 560 90 578] /P 3 0 R /F 4 >>"),
        (9, b"<< /Type /Font /Subtype /TrueType /BaseFont /LiberationSans /Encoding /WinAnsiEncoding /FirstChar 32 "
            b"/LastChar 32 /Widths [277] /FontDescriptor << /Type /FontDescriptor /FontName /LiberationSans /Flags 32 "
            b"/FontBBox [-543 -303 1301 979] /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 1409 /StemV 80 >> >>"),
        (10, b"<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>"),
    ]
    return classic(objects)


def xref_stream():
    # pdf-lib's way: an xref stream whose /Index leaves holes, one of them an
    # object the page still names (/Annots [7 0 R]: a reader takes it as
    # null), and the page's font inside an object stream. poppler, meeting
    # the hole under a classic section, rebuilt the xref by scanning and lost
    # what the object stream held: the text was drawn without its font.
    objects = base_objects()
    objects[2] = (3, objects[2][1].replace(b">> >>", b">> >> /Annots [7 0 R]"))
    font = objects.pop(4)[1]
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    members = b"5 0 "
    offsets[9] = len(out)
    out += b"9 0 obj\n" + stream(b"<< /Type /ObjStm /N 1 /First %d >>" % len(members), members + font) + b"\nendobj\n"
    offsets[8] = len(out)
    row = lambda n: b"\1" + offsets[n].to_bytes(4, "big") + b"\0"
    rows = b"\0\0\0\0\0\xff" + b"".join(row(n) for n in (1, 2, 3, 4)) + b"\2\0\0\0\x09\0" + row(6)
    rows += row(8) + row(9)
    out += b"8 0 obj\n" + stream(b"<< /Type /XRef /Size 10 /Index [0 7 8 2] /W [1 4 1] /Root 1 0 R /Info 6 0 R "
                                 b"/Filter /FlateDecode >>", zlib.compress(rows)) + b"\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % offsets[8]
    return bytes(out)


def bad_xmp():
    objects = base_objects()
    objects[0] = (1, b"<< /Type /Catalog /Pages 2 0 R /Metadata 7 0 R >>")
    packet = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
              b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description '
              b'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>broken</rdf:RDF><?xpacket end="w"?>')
    objects.append((7, stream(b"<< /Type /Metadata /Subtype /XML >>", packet)))
    return classic(objects)


def main(directory):
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    (d / "gen65536.pdf").write_bytes(classic(base_objects(), free=b"0000000000 65536 f\r\n"))
    (d / "junk-brace.pdf").write_bytes(classic(base_objects(), trailer=b"/Something { "))
    (d / "junk-word.pdf").write_bytes(classic(base_objects(), trailer=b"/QPDFFake1 (potato) x /Something "))
    (d / "junk-paren.pdf").write_bytes(classic(base_objects(), trailer=b"/A (b) ) "))
    headed = classic(base_objects(), header=b"%\xe2\xe3\xcf\xd3\n")
    (d / "headerless.pdf").write_bytes(headed)
    (d / "rc4-no-id.pdf").write_bytes(rc4_no_id())
    (d / "form-fonts.pdf").write_bytes(form_fonts())
    (d / "xrefstream.pdf").write_bytes(xref_stream())
    (d / "bad-xmp.pdf").write_bytes(bad_xmp())


if __name__ == "__main__":
    main(sys.argv[1])
